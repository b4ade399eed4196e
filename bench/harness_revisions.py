"""Two revisions of the grader side by side: the same answer graded by each, interleaved.

    .venv/bin/python bench/harness_revisions.py OLD_REV [NEW_REV] [--rounds 5] [--slug python-loop-to-numpy]

Each revision is checked out into a temporary git worktree (NEW_REV defaults to the
working tree itself) and grades the exercise's model solution with `manage.py grade
--json` in the bwrap sandbox, alternating revisions round by round so both see the same
host. Prints, per revision, the median wall time of a grading, the median headline
speedup and each grading's interval and retimed pairs, then the host's state
(load average, scripts/tune_grading_host.sh --check). What it measures is the cost of a
change to the grader (for example the integrity checks of harness 1.10) in the time a
grading takes, and whether the figure moved.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = ROOT / ".venv" / "bin" / "python"


def bank_solution(slug):
    matches = list((ROOT / "questions" / "bank").glob(f"*/{slug}/solution.py"))
    if len(matches) != 1:
        raise SystemExit(f"no single model solution for {slug!r} in questions/bank")
    return matches[0]


def worktree(revision, parent):
    path = Path(parent) / revision
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-f", str(path), revision],
        check=True,
        capture_output=True,
    )
    return path


def grade_once(tree, slug, solution):
    """(wall seconds, report) of one grading by the grader in `tree`."""
    started = time.perf_counter()
    completed = subprocess.run(
        [str(PYTHON), "manage.py", "grade", slug, str(solution), "--json"],
        cwd=tree,
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"),
    )
    wall = time.perf_counter() - started
    if completed.returncode != 0:
        raise SystemExit(f"grading in {tree} failed: {completed.stderr[-2000:]}")
    return wall, json.loads(completed.stdout)


def host_state():
    check = subprocess.run([str(ROOT / "scripts" / "tune_grading_host.sh"), "--check"], capture_output=True, text=True)
    return {"load_average": os.getloadavg(), "tune_check": (check.stdout + check.stderr).strip().splitlines()[-3:]}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old")
    parser.add_argument("new", nargs="?", help="a revision; default: this working tree")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--slug", default="python-loop-to-numpy")
    args = parser.parse_args(argv)
    solution = bank_solution(args.slug)
    before = host_state()
    with tempfile.TemporaryDirectory(prefix="hotpath-revisions-") as parent:
        trees = {
            args.old: worktree(args.old, parent),
            (args.new or "working tree"): worktree(args.new, parent) if args.new else ROOT,
        }
        try:
            results = {name: [] for name in trees}
            for round_number in range(args.rounds):
                for name, tree in trees.items():
                    wall, report = grade_once(tree, args.slug, solution)
                    results[name].append(
                        {
                            "wall_s": round(wall, 2),
                            "verdict": report["verdict"],
                            "speedup": report["speedup"],
                            "speedup_ci": report["speedup_ci"],
                            "retimed_pairs": [size.get("retimed_pairs") for size in report["sizes"]],
                        }
                    )
                    print(f"round {round_number + 1} {name}: {results[name][-1]}", file=sys.stderr)
        finally:
            for name, tree in trees.items():
                if tree != ROOT:
                    subprocess.run(
                        ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], capture_output=True
                    )
    print(f"| revision | gradings | median wall | median speedup | speedups |")
    print("| --- | ---: | ---: | ---: | --- |")
    for name, rows in results.items():
        speedups = [row["speedup"] for row in rows if row["speedup"] is not None]
        print(
            f"| {name} | {len(rows)} | {statistics.median(row['wall_s'] for row in rows):.1f} s | "
            f"{statistics.median(speedups):.1f}x | {', '.join(f'{value:.1f}' for value in speedups)} |"
        )
    print(json.dumps({"before": before, "after": host_state()}))


if __name__ == "__main__":
    main()
