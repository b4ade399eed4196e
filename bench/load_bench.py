"""Load and fairness: a burst of submissions from many users through Redis and
real Celery worker processes, graded in the bwrap sandbox (quick-check mode on
the hostile suite's tiny exercise, so a burst finishes in minutes on 2 cores).

    .venv/bin/python bench/load_bench.py                     # 300 submissions, 30 users, 2 workers
    .venv/bin/python bench/load_bench.py --users 6 --per-user 5 --workers 1 --json /tmp/x.json

Needs PostgreSQL on loopback and redis-server installed. It uses its own
database (created if missing, migrated; its own rows cleared first) and starts
its own redis-server on a free loopback port (no persistence), so nothing else
consumes or flushes its queue; --broker-url points it at an existing one.

Three phases:
1. burst: every user submits `per_user` times, interleaved in a random order, a mix of honest and wrong code;
2. flood: one user submits past the per-user queued limit and is refused with a message;
3. fairness probe: a flooder fills its queue allowance, then a light user submits once; how many
   submissions were graded before the light user's shows whether the queue is FIFO or fair.
Prints a summary and writes it as JSON (bench/results/load.json by default).
"""

import argparse
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_stats import percentile
from common import ROOT, Worker, create_database, setup_django, start_workers, stop_workers, wait_done

DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/helper_hostile_load"
#: The burst is ten per user, so the per-user in-flight limit is raised to ten for it.
QUEUED_LIMIT = 10
WRONG_CODE = "import numpy as np\n\n\ndef transform(x):\n    return np.full_like(x, np.nan)\n"
CRASHING_CODE = "def transform(x):\n    raise ValueError('not yet')\n"


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=30)
    parser.add_argument("--per-user", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database-url", default=os.environ.get("LOAD_DATABASE_URL", DEFAULT_DATABASE))
    parser.add_argument(
        "--broker-url", default=os.environ.get("LOAD_BROKER_URL"), help="default: a private redis-server"
    )
    parser.add_argument("--skip-migrate", action="store_true", help="the database is already migrated (tests)")
    parser.add_argument("--timeout", type=float, default=900, help="seconds to wait for every submission")
    parser.add_argument("--json", default=str(ROOT / "bench" / "results" / "load.json"))
    return parser.parse_args(argv)


def load_environment(args, run_dir):
    """This process's settings and its workers' (they inherit them)."""
    return dict(
        DATABASE_URL=args.database_url,
        REDIS_URL=args.broker_url,
        SANDBOX_BACKEND="bwrap",
        SUBMISSION_MAX_QUEUED_PER_USER=str(QUEUED_LIMIT),
        HOTPATH_RUN_DIR=run_dir,
        DATABASE_CONN_MAX_AGE="0",
    )


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_private_redis(run_dir):
    """A redis-server of the bench's own on a free loopback port; returns (process, url)."""
    port = free_port()
    process = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            run_dir,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process, f"redis://127.0.0.1:{port}/0"
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise SystemExit("redis-server did not start")


def tiny_version():
    """The hostile suite's tiny exercise as an ExerciseVersion (created once)."""
    import frontmatter

    from questions.models import ExerciseVersion, Question

    exercise_dir = ROOT / "tests" / "hostile" / "exercise"
    spec = dict(frontmatter.load(exercise_dir / "question.md").metadata)
    question, _ = Question.objects.get_or_create(
        slug="load-bench-tiny",
        defaults=dict(
            title="Load bench exercise",
            topic="Algorithmic Complexity & Code-Level Optimization",
            difficulty="easy",
            kind="coding",
            prompt="Compute it.",
        ),
    )
    version, _ = ExerciseVersion.objects.get_or_create(
        question=question,
        number=1,
        defaults=dict(
            spec=spec,
            reference_code=(exercise_dir / "reference.py").read_text(),
            starter_code="",
            inputs_code=(exercise_dir / "inputs.py").read_text(),
            solution_code=(exercise_dir / "solution.py").read_text(),
            content_hash="load-bench",
        ),
    )
    return version


def wait_until_graded(ids, timeout_s):
    return len(wait_done(ids, timeout_s, poll_s=0.5)) == len(set(ids))


def burst(version, users, per_user, rng):
    from submissions.models import Purpose
    from submissions.services.intake import create_submission

    codes = [version.solution_code] * 6 + [WRONG_CODE] * 3 + [CRASHING_CODE]
    plan = [(user, rng.choice(codes)) for user in users for _ in range(per_user)]
    rng.shuffle(plan)
    ids = []
    started = time.monotonic()
    for user, code in plan:
        ids.append(create_submission(user, version, code, purpose=Purpose.QUICK_CHECK).pk)
    return ids, time.monotonic() - started


def flood(version, user, attempts):
    from django.core.exceptions import ValidationError

    from submissions.models import Purpose
    from submissions.services.intake import create_submission

    accepted, refusals = [], []
    for _ in range(attempts):
        try:
            accepted.append(create_submission(user, version, version.solution_code, purpose=Purpose.QUICK_CHECK).pk)
        except ValidationError as exc:
            refusals.append(" ".join(exc.messages))
    return accepted, refusals


def summarise(ids):
    from submissions.models import Submission
    from submissions.states import Status

    rows = list(Submission.objects.filter(pk__in=ids))
    done = [row for row in rows if row.status == Status.DONE]
    waits = [(row.started_at - row.created_at).total_seconds() for row in done if row.started_at]
    turnaround = [(row.finished_at - row.created_at).total_seconds() for row in done if row.finished_at]
    verdicts = {}
    for row in done:
        verdicts[row.verdict] = verdicts.get(row.verdict, 0) + 1
    span = (max(r.finished_at for r in done) - min(r.created_at for r in rows)).total_seconds() if done else None
    return {
        "submitted": len(ids),
        "graded": len(done),
        "lost": len(ids) - len(rows) + sum(1 for row in rows if row.status != Status.DONE),
        "graded_more_than_once": sum(1 for row in done if row.attempts != 1),
        "verdicts": verdicts,
        "wall_s": round(span, 1) if span else None,
        "throughput_per_min": round(len(done) / span * 60, 1) if span else None,
        "queue_wait_s": {
            "p50": round(percentile(waits, 0.5), 2),
            "p95": round(percentile(waits, 0.95), 2),
            "max": round(max(waits), 2),
        }
        if waits
        else None,
        "turnaround_s": {"p50": round(percentile(turnaround, 0.5), 2), "p95": round(percentile(turnaround, 0.95), 2)}
        if turnaround
        else None,
        "mean_grading_s": round(statistics.mean((r.finished_at - r.started_at).total_seconds() for r in done), 3)
        if done
        else None,
    }


def fairness_probe(version, flooder, light_user, timeout_s):
    """The flooder fills its allowance, then the light user submits once: count how
    many of the flooder's submissions were graded (started) before the light user's."""
    from submissions.models import Purpose, Submission
    from submissions.services.intake import create_submission

    flood_ids, _ = flood(version, flooder, QUEUED_LIMIT)
    light_id = create_submission(light_user, version, version.solution_code, purpose=Purpose.QUICK_CHECK).pk
    wait_until_graded(flood_ids + [light_id], timeout_s)
    light = Submission.objects.get(pk=light_id)
    ahead = Submission.objects.filter(pk__in=flood_ids, started_at__lt=light.started_at).count()
    return {
        "flooder_queued": len(flood_ids),
        "flooder_graded_before_light_user": ahead,
        "light_user_wait_s": round((light.started_at - light.created_at).total_seconds(), 2),
        "order": "fifo" if ahead >= len(flood_ids) - 2 else "fair",
    }


def main(argv=None):
    args = parse_args(argv)
    run_dir = tempfile.mkdtemp(prefix="hotpath-load-")
    redis_server = None
    if not args.broker_url:
        redis_server, args.broker_url = start_private_redis(run_dir)
    try:
        return run(args, run_dir)
    finally:
        if redis_server is not None:
            redis_server.kill()
            redis_server.wait()
        shutil.rmtree(run_dir, ignore_errors=True)


def run(args, run_dir):
    environment = load_environment(args, run_dir)
    if not args.skip_migrate:
        create_database(args.database_url)
    setup_django(environment)
    import redis
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from submissions.models import Submission

    if not args.skip_migrate:
        call_command("migrate", verbosity=0)
    redis.Redis.from_url(args.broker_url).flushdb()
    Submission.objects.filter(exercise__question__slug="load-bench-tiny").delete()
    version = tiny_version()
    User = get_user_model()
    users = [User.objects.get_or_create(username=f"load-user-{i:02d}")[0] for i in range(args.users)]
    flooder = User.objects.get_or_create(username="load-flooder")[0]
    light_user = User.objects.get_or_create(username="load-light-user")[0]
    rng = random.Random(20260)

    workers = start_workers(
        [Worker(f"load{index}", dict(os.environ), run_dir, loglevel="WARNING") for index in range(args.workers)]
    )
    try:
        ids, submit_s = burst(version, users, args.per_user, rng)
        flood_ids, refusals = flood(version, flooder, QUEUED_LIMIT + 15)
        all_graded = wait_until_graded(ids + flood_ids, args.timeout)
        result = summarise(ids + flood_ids)
        result.update(
            users=args.users,
            per_user=args.per_user,
            workers=args.workers,
            mode="check",
            cpus=os.cpu_count(),
            submit_s=round(submit_s, 2),
            all_graded=all_graded,
            flood={
                "attempts": QUEUED_LIMIT + 15,
                "queued": len(flood_ids),
                "refused": len(refusals),
                "message": refusals[0] if refusals else None,
            },
            fairness=fairness_probe(version, flooder, light_user, args.timeout),
        )
    finally:
        stop_workers(workers, timeout_s=30)
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return 0 if result["all_graded"] and result["lost"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
