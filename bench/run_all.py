"""Run every benchmark script in bench/ that exists, one after another (`make bench`).

    .venv/bin/python bench/run_all.py                 # all of them
    .venv/bin/python bench/run_all.py --only grading  # grading_bench.py alone
    .venv/bin/python bench/run_all.py --only page_speed  # page_speed.py alone

Each script writes its own bench/results/*.json; see docs/benchmarks.md for what
they measure. Exits non-zero when any script failed to run.
"""

import argparse
import subprocess
import sys
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
SCRIPTS = ("grading_bench.py", "leaderboard_bench.py", "load_bench.py", "page_speed.py")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="NAME",
        help="run only this script (e.g. grading or grading_bench.py); may be repeated",
    )
    args = parser.parse_args()
    wanted = {
        name if name.endswith(".py") else f"{name}.py" if f"{name}.py" in SCRIPTS else f"{name}_bench.py"
        for name in args.only
    }
    unknown = wanted - set(SCRIPTS)
    if unknown:
        parser.error(f"unknown script(s): {', '.join(sorted(unknown))}; choose from {', '.join(SCRIPTS)}")
    outcomes = []
    for name in SCRIPTS:
        if wanted and name not in wanted:
            continue
        path = BENCH_DIR / name
        if not path.exists():
            print(f"== {name}: not present, skipped", flush=True)
            continue
        print(f"== {name}", flush=True)
        started = time.monotonic()
        code = subprocess.run([sys.executable, str(path)], cwd=ROOT).returncode
        outcomes.append((name, code, time.monotonic() - started))
    print("\nSummary:")
    for name, code, seconds in outcomes:
        print(f"  {name}: {'ok' if code == 0 else f'exit {code}'} ({seconds:.0f} s)")
    return 1 if any(code for _, code, _ in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
