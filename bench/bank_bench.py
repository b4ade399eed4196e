"""Grade every CPU exercise's model solution in the sandbox and write the table in docs/bank.md.

    .venv/bin/python bench/bank_bench.py                        # every CPU exercise (minutes per exercise on 2 cores)
    .venv/bin/python bench/bank_bench.py --only strided-column-sums --only pairwise-distances
    .venv/bin/python bench/bank_bench.py --markdown             # print the table from the saved results

Each exercise is graded exactly as a learner's submission is (`manage.py grade <slug> solution.py --json`,
full mode, the bank folder's current files). Recorded per exercise: the verdict, the headline speedup
(largest size) with its 95% interval, peak memory of the solution and of the reference, and the wall-clock
time of the whole grading. Results go to bench/results/bank.json (a run with --only replaces only those
exercises' entries) and the table between the bank-table markers in docs/bank.md is rewritten.
GPU exercises are listed as not measured: this host has no GPU (scripts/gpu_check.sh runs them on one).
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "bank.json"
DOC = ROOT / "docs" / "bank.md"
START, END = "<!-- bank-table:start -->", "<!-- bank-table:end -->"


def bank_exercises():
    """(slug, folder, target) for every exercise folder in the bank, sorted by slug."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "interview_platform.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from questions.loader import default_bank_dir, read_bank

    root = default_bank_dir()
    entries, errors = read_bank(root)
    if errors:
        raise SystemExit("the bank does not load:\n" + "\n".join(str(error) for error in errors))
    return sorted((entry.slug, root / entry.path, entry.spec["target"]) for entry in entries if entry.spec is not None)


def grade_solution(slug, folder):
    started = time.monotonic()
    completed = subprocess.run(
        [sys.executable, "manage.py", "grade", slug, str(folder / "solution.py"), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    seconds = time.monotonic() - started
    if completed.returncode != 0:
        return {"verdict": "grader_failed", "message": completed.stderr.strip()[-500:], "grading_s": seconds}
    report = json.loads(completed.stdout)
    return {
        "verdict": report["verdict"],
        "speedup": report.get("speedup"),
        "speedup_ci": report.get("speedup_ci"),
        "peak_memory_bytes": report.get("peak_memory_bytes"),
        "reference_peak_memory_bytes": report.get("reference_peak_memory_bytes"),
        "headline_size": max((entry["size"] for entry in report.get("sizes") or []), default=None),
        "message": report.get("message", ""),
        "grading_s": seconds,
        "harness_version": report.get("harness_version"),
    }


def _mib(value):
    return "-" if value is None else f"{value / 1024**2:.0f}"


def markdown(results):
    lines = [
        f"Last run {results['measured_at']} on {results['host']} (`bench/bank_bench.py`); each row says when it was measured.",
        "",
        "| exercise | verdict | headline size | speedup | 95% interval | peak MiB (solution / reference) | grading time | measured | harness |",
        "| --- | --- | ---: | ---: | --- | ---: | ---: | --- | --- |",
    ]
    for slug, row in sorted(results["exercises"].items()):
        if row.get("target") == "gpu":
            lines.append(f"| {slug} (GPU) | not measured: no GPU on this host | | | | | | | |")
            continue
        interval = row.get("speedup_ci")
        size = row.get("headline_size")
        speedup = row.get("speedup")
        cells = [
            slug,
            row["verdict"],
            "-" if size is None else f"{size:,}",
            "-" if speedup is None else f"{speedup:.2f}x",
            "-" if not interval else f"[{interval[0]:.2f}, {interval[1]:.2f}]",
            f"{_mib(row.get('peak_memory_bytes'))} / {_mib(row.get('reference_peak_memory_bytes'))}",
            f"{row['grading_s']:.0f} s",
            row.get("measured_at", "-"),
            # Rows measured before the version was recorded: harness 1.6 or earlier (NumPy's huge pages off).
            row.get("harness_version") or "≤1.6",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def write_doc(results):
    text = DOC.read_text()
    head, rest = text.split(START, 1)
    _old, tail = rest.split(END, 1)
    DOC.write_text(f"{head}{START}\n{markdown(results)}\n{END}{tail}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--only", action="append", default=[], metavar="SLUG", help="grade only this exercise; may be repeated"
    )
    parser.add_argument("--markdown", action="store_true", help="print the table from the saved results and exit")
    args = parser.parse_args()
    if args.markdown:
        print(markdown(json.loads(RESULTS.read_text())))
        return
    exercises = bank_exercises()
    unknown = set(args.only) - {slug for slug, _folder, _target in exercises}
    if unknown:
        parser.error(f"no exercise named {', '.join(sorted(unknown))}")
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {"exercises": {}}
    results["exercises"] = {
        slug: row for slug, row in results["exercises"].items() if slug in {s for s, _f, _t in exercises}
    }
    for slug, folder, target in exercises:
        if args.only and slug not in args.only:
            continue
        if target == "gpu":
            results["exercises"][slug] = {"target": "gpu"}
            continue
        print(f"== {slug}", flush=True)
        row = grade_solution(slug, folder)
        row["target"] = target
        row["measured_at"] = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        results["exercises"][slug] = row
        print(f"   {row['verdict']}, speedup {row.get('speedup')}, {row['grading_s']:.0f} s", flush=True)
    results["measured_at"] = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    results["host"] = (
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}"
    )
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
    write_doc(results)
    failed = [
        slug
        for slug, row in results["exercises"].items()
        if row.get("target") == "cpu" and row["verdict"] != "accepted"
    ]
    if failed:
        raise SystemExit(f"model solution not accepted: {', '.join(failed)}")


if __name__ == "__main__":
    main()
