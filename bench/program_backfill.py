"""How long grader's migration 0004 takes to fingerprint existing submissions, on the
database bench/leaderboard_bench.py seeds (a million rows): the cost of upgrading a
large installation to Submission.program.

    .venv/bin/python bench/leaderboard_bench.py        # first, to seed helper_lb_bench
    .venv/bin/python bench/program_backfill.py         # blanks every fingerprint, times the backfill

It rewrites every row's `program` of the bench database (the leaderboards there are then
stale: run leaderboard_bench.py again before timing pages).
"""

import argparse
import importlib
import os
import time
from urllib.parse import urlsplit

from common import setup_django

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/helper_lb_bench"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--database-url", default=DEFAULT_DATABASE_URL, help="a seeded bench database (default: %(default)s)"
    )
    args = parser.parse_args()
    if "bench" not in urlsplit(args.database_url).path:
        parser.error("refusing to rewrite a database whose name does not contain 'bench'")
    setup_django({"DATABASE_URL": args.database_url, "DEBUG": "0", "SECRET_KEY": "program-backfill-bench-only"})
    from django.apps import apps
    from django.db import transaction

    from submissions.models import Submission

    migration = importlib.import_module("submissions.migrations.0004_submission_program")
    rows = Submission.objects.update(program="")
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    with transaction.atomic():  # as `migrate` runs it on PostgreSQL
        migration.fingerprint_existing(apps, None)
    elapsed = time.perf_counter() - started
    print(
        f"fingerprinted {rows:,} submissions in {elapsed:.1f} s ({elapsed / max(rows, 1) * 1e6:.0f} us a row); "
        f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after, on {os.cpu_count()} CPUs"
    )


if __name__ == "__main__":
    main()
