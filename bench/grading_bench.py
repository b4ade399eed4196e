"""Grading pipeline benchmarks: repeatability, calibration, latency and throughput.

    .venv/bin/python bench/grading_bench.py                       # every part (about 36 minutes on 2 cores)
    .venv/bin/python bench/grading_bench.py --part calibration    # one part
    .venv/bin/python bench/grading_bench.py --quick               # fewer gradings per part, for a smoke run
    .venv/bin/python bench/grading_bench.py --markdown            # print docs tables from the saved results

Parts:
  repeatability  the same submission graded N times in the real sandbox (grader.grading.grade):
                 spread of the headline speedup, (max - min) / median and the coefficient of variation.
  calibration    submissions that do exactly the reference's work twice (must read 0.50x) and the
                 reference itself (must read 1.00x).
  latency        create_submission -> Redis -> a real Celery worker (started here as a subprocess)
                 -> report on the row, against the time the harness spent in its measured calls,
                 broken down into queue pickup, sandbox start-up, imports, harness bookkeeping, DB writes.
  headline       Hotpath's headline for python-loop-to-numpy's model solution against the plain way a learner
                 times it (one pinned process, NumPy's defaults, warm-up, mean over trials), interleaved rounds;
                 and what each grading cost (wall time, pairs, the harness's own work beyond the measured calls).
  throughput     a queue of submissions (quick-check mode, honest and wrong mixed) drained by 1 and
                 by 2 worker processes: submissions per minute, and none lost.
  coverage       the same answer graded 20 times: how many of the gradings' own 95% intervals hold the
                 median of all 20 (and how many a pairs-only interval over the same calls would have held),
                 with the host's tuning state.

headline and coverage keep one result per host state ("headline:untuned", "headline:tuned": whether
`scripts/tune_grading_host.sh --check` still advises anything), so one run before and one after tuning
sit side by side. --beside N runs N busy loops (`yes`) for the whole part: the other work of a shared host.
  pressure       the hostile suite's tiny exercise graded with the reference's own chain and with two
                 attacks that fill memory (tmpfs full; 95% of the memory limit held between calls), in
                 rounds: whether each attack's figure lies inside its round's honest interval.
  shmem          huge pages for the sandbox's shared memory (the memfds inputs and answers cross in): what
                 a 128 MB memfd costs and what a grading costs with the kernel's shmem mode at "never" and at
                 "within_size" (root only: it switches the mode and restores it).

latency and throughput use PostgreSQL (--database-url, created if missing, migrated, bank loaded with
--skip-validation) and Redis (--redis-url); the worker gets the same settings through its environment.
Results are merged into bench/results/grading.json (a part run alone replaces only its own entry).
"""

import argparse
import json
import sys
import time
from datetime import datetime, timezone
from urllib.parse import urlsplit

from bench_stats import rounded
from common import ROOT, setup_django
from grading_accuracy import part_calibration, part_repeatability
from grading_coverage import part_coverage
from grading_headline import part_headline
from grading_latency import part_latency, run_probe_worker
from grading_markdown import markdown
from grading_pressure import part_pressure
from grading_setup import bench_environment, host_state, load_average, machine_facts, other_work
from grading_shmem import part_shmem
from grading_throughput import part_throughput

RESULTS = ROOT / "bench" / "results" / "grading.json"
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/helper_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/8"
PARTS = ("repeatability", "calibration", "headline", "coverage", "pressure", "latency", "throughput", "shmem")
#: Parts whose results are kept per host state (tuned or not).
PER_HOST_STATE = ("headline", "coverage")


def result_key(part):
    return f"{part}:{host_state()}" if part in PER_HOST_STATE else part


def save(part, result, args):
    data = {}
    if RESULTS.exists():
        try:
            data = json.loads(RESULTS.read_text())
        except ValueError:
            data = {}
    data.setdefault("parts", {})
    data["machine"] = machine_facts()
    data["parts"][result_key(part)] = {
        "measured_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "quick": args.quick,
        "command": f".venv/bin/python bench/grading_bench.py --part {part}"
        + (" --quick" if args.quick else "")
        + (f" --beside {args.beside}" if args.beside else ""),
        "other_work": f"{args.beside} x yes" if args.beside else "none started by the bench",
        "load_average_before": result.pop("_load_before"),
        "load_average_after": load_average(),
        "wall_s": rounded(result.pop("_wall_s"), 1),
        **result,
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(data, indent=2, sort_keys=False) + "\n")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--part", choices=(*PARTS, "all"), default="all")
    parser.add_argument("--quick", action="store_true", help="fewer gradings per part (a smoke run, not for the docs)")
    parser.add_argument(
        "--database-url", default=DEFAULT_DATABASE_URL, help="PostgreSQL for latency/throughput (default: %(default)s)"
    )
    parser.add_argument(
        "--redis-url", default=DEFAULT_REDIS_URL, help="Redis broker for latency/throughput (default: %(default)s)"
    )
    parser.add_argument(
        "--beside", type=int, default=0, metavar="N", help="run N busy loops (yes) beside the part (default: none)"
    )
    parser.add_argument(
        "--markdown", action="store_true", help="print the docs tables from bench/results/grading.json and exit"
    )
    args = parser.parse_args()
    if urlsplit(args.database_url).scheme not in {"postgres", "postgresql"}:
        parser.error("--database-url must be a PostgreSQL URL")
    if "bench" not in urlsplit(args.database_url).path:
        parser.error("the bench deletes its own submissions: use a database whose name contains 'bench'")
    return args


def main():
    if sys.argv[1:2] == ["_probe_worker"]:
        run_probe_worker(sys.argv[2], sys.argv[3:])
        return 0
    args = parse_args()
    if args.markdown:
        print(markdown(json.loads(RESULTS.read_text())))
        return 0
    setup_django(bench_environment(args.database_url, args.redis_url))
    runners = {
        "repeatability": part_repeatability,
        "calibration": part_calibration,
        "headline": part_headline,
        "coverage": part_coverage,
        "pressure": part_pressure,
        "latency": part_latency,
        "throughput": part_throughput,
        "shmem": part_shmem,
    }
    failed = []
    for part in PARTS if args.part == "all" else (args.part,):
        print(f"{part}:", flush=True)
        before, started = load_average(), time.perf_counter()
        with other_work(args.beside):
            result = runners[part](args)
        result["_load_before"], result["_wall_s"] = before, time.perf_counter() - started
        passed = result.get("passes", all(case.get("passes") for case in result.get("cases", [])))
        result["passes"] = passed
        save(part, result, args)
        print(
            f"{part}: {'pass' if passed else 'FAIL'} ({result.get('wall_s', time.perf_counter() - started):.0f} s)",
            flush=True,
        )
        if not passed:
            failed.append(part)
    print(f"results: {RESULTS.relative_to(ROOT)}")
    print("targets missed: " + ", ".join(failed) if failed else "all targets met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
