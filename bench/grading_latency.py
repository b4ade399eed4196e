"""Grading part 3, latency: create_submission -> Redis -> a real Celery worker
(started here, with its grading steps wrapped in timers) -> report on the row,
against the time the harness spent in its measured calls; plus the sandbox's fixed
start-up costs and one grading with the harness under cProfile."""

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_stats import median, rounded
from common import Worker, setup_django, wait_done, wait_until_ready
from grading_setup import (
    bank_exercise,
    bench_environment,
    benchmark_seconds,
    current_version,
    prepare_database,
    reset_queue,
    submission_code,
    timed_backend,
)

OVERHEAD_TARGET_S = 0.300
LATENCY_CASES = [
    ("python-loop-to-numpy", "numpy_honest.py", "practice"),
    ("python-loop-to-numpy", "numpy_honest.py", "check"),
]
#: How the latency worker is started: through grading_bench.py, which hands it to run_probe_worker.
PROBE_WORKER_SCRIPT = Path(__file__).resolve().with_name("grading_bench.py")


def sandbox_startup(repeats):
    """Fixed costs inside the sandbox, with a real job's limits: bwrap alone, the
    interpreter, the interpreter plus numpy (every harness process pays the last)."""
    from grader.grading import exercise_limits, sandbox_limits

    limits = sandbox_limits(exercise_limits({}))
    backend = timed_backend()
    commands = {
        "bwrap_true": ["true"],
        "python": ["python3", "-I", "-B", "-c", "pass"],
        "python_numpy": ["python3", "-I", "-B", "-c", "import numpy"],
    }
    results = {}
    for label, command in commands.items():
        walls = []
        for _ in range(repeats):
            with backend(limits=limits, target="cpu") as sandbox:
                result = sandbox.run(command)
            if result.exit_code != 0:
                raise SystemExit(f"sandbox probe {label} failed: {result.stderr[-500:]!r}")
            walls.append(result.wall_s)
        results[label] = rounded(median(walls))
    host = []
    for _ in range(repeats):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-I", "-B", "-c", "import numpy"], check=True)
        host.append(time.perf_counter() - started)
    results["host_python_numpy"] = rounded(median(host))
    return results


#: Code run inside the sandbox instead of the harness command: the same main.py under
#: cProfile, then the cumulative seconds of the harness's own functions on stderr.
PROFILED_HARNESS = """
import cProfile, json, os, pstats, runpy, sys
sys.argv = ['/job/harness/main.py', '/job']
profile = cProfile.Profile()
profile.enable()
try:
    runpy.run_path('/job/harness/main.py', run_name='__main__')
except SystemExit:
    pass
profile.disable()
seconds = {}
for (path, line, name), (_cc, _nc, _tt, cumulative, _callers) in pstats.Stats(profile).stats.items():
    if path.startswith('/job/'):
        key = os.path.basename(path) + ':' + name
        seconds[key] = max(seconds.get(key, 0.0), cumulative)
sys.stderr.write('HARNESS-PROFILE ' + json.dumps(seconds) + chr(10))
"""
#: (label, profile key) for the harness's work outside the measured calls.
PROFILE_STEPS = [
    ("harness import (python + numpy, supervisor)", "supervisor.py:<module>"),
    ("runner start-up (2 processes, python + numpy)", "supervisor.py:_start_runners"),
    ("input generation (inputs.make_inputs)", "supervisor.py:_make_inputs"),
    ("input copies (one memfd per side)", "sides.py:__init__"),
    ("input-mutation check", "supervisor.py:_check_inputs_untouched"),
    ("answer comparison (compare.compare)", "compare.py:compare"),
]


def harness_profile(slug, filename, mode):
    """One grading run with the harness under cProfile inside the real sandbox:
    where the supervisor's time goes outside the measured calls."""
    from grader import grading
    from grader.harness.protocol import format_stdin, parse_report
    from grader.sandbox import resolve_backend

    exercise = bank_exercise(slug)
    job = grading.build_job(exercise, mode)
    key, secret_line = grading.new_secret()
    with resolve_backend()(limits=grading.sandbox_limits(job["limits"]), target="cpu") as sandbox:
        for relative_path, text in grading.harness_files():
            sandbox.write_file(relative_path, text)
        sandbox.write_file("submission.py", submission_code(slug, filename))
        stdin = format_stdin(secret_line, grading.trusted_files(exercise, job))
        result = sandbox.run(["python3", "-I", "-B", "-c", PROFILED_HARNESS], stdin=stdin)
    report = parse_report(key, result.stdout)
    lines = [
        line for line in result.stderr.decode("utf-8", "replace").splitlines() if line.startswith("HARNESS-PROFILE ")
    ]
    if report is None or not lines:
        raise SystemExit(f"the profiled harness run failed: {result.stderr[-1000:]!r}")
    seconds = json.loads(lines[-1].split(" ", 1)[1])
    profile = {
        "sandbox_wall_s": rounded(result.wall_s),
        "benchmark_s": rounded(benchmark_seconds(report)) if mode == "full" else 0.0,
        "harness_total_s": rounded(seconds.get("main.py:<module>")),
        "measured_calls_with_handshakes_s": rounded(seconds.get("sides.py:call")),
    }
    profile["steps_s"] = {label: rounded(seconds.get(name, 0.0)) for label, name in PROFILE_STEPS}
    return profile


def run_probe_worker(probe_file, celery_args):
    """Entry point of a probed worker: a real Celery worker whose grading steps are
    wrapped with timers; one JSON line per task goes to `probe_file`."""
    setup_django({})
    from celery.signals import task_postrun, task_prerun

    from grader import grading
    from grader.sandbox import resolve_backend
    from interview_platform.celery import app
    from submissions.services import lifecycle

    record = {}

    def timed(owner, attribute, key):
        original = getattr(owner, attribute)

        def wrapper(*args, **kwargs):
            started = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                record[key] = record.get(key, 0.0) + time.perf_counter() - started

        setattr(owner, attribute, wrapper)

    backend = resolve_backend()
    timed(backend, "_setup", "sandbox_setup_s")
    timed(backend, "write_file", "write_files_s")
    timed(backend, "_cleanup", "sandbox_cleanup_s")
    original_run = backend.run

    def run(self, command, stdin=b""):
        started = time.perf_counter()
        result = original_run(self, command, stdin=stdin)
        record["sandbox_run_s"] = time.perf_counter() - started
        record["sandbox_wall_s"] = result.wall_s
        return result

    backend.run = run
    timed(grading, "grade", "grade_s")
    timed(lifecycle, "claim", "claim_s")
    timed(lifecycle, "finish", "finish_s")

    @task_prerun.connect
    def before(task_id=None, task=None, args=None, **_):
        record.clear()
        record.update(task=task.name, submission_id=(args or [None])[0], task_start=time.time())

    @task_postrun.connect
    def after(task_id=None, task=None, **_):
        record["task_end"] = time.time()
        with open(probe_file, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(record) + "\n")

    app.worker_main(["worker", *celery_args] if celery_args[:1] != ["worker"] else celery_args)


def part_latency(args):
    from submissions.models import Submission
    from submissions.services import intake
    from submissions.states import Status

    count = 3 if args.quick else 8
    environment = bench_environment(args.database_url, args.redis_url)
    prepare_database(environment)
    user = reset_queue()
    startup = sandbox_startup(3 if args.quick else 10)
    print(f"  sandbox start-up: {startup}", flush=True)
    log_dir = Path(tempfile.mkdtemp(prefix="hotpath-grading-bench-"))
    probe_file = log_dir / "probe.jsonl"
    launcher = [sys.executable, str(PROBE_WORKER_SCRIPT), "_probe_worker", str(probe_file)]
    worker = Worker("grading-bench-latency", environment, log_dir, launcher=launcher)
    worker.start()
    cases = []
    try:
        wait_until_ready([worker])
        for slug, filename, purpose in LATENCY_CASES:
            version = current_version(slug)
            code = submission_code(slug, filename)
            rows = []
            for number in range(count + 1):  # the first is a warm-up for the worker and is dropped
                submitted = time.time()
                submission = intake.create_submission(user, version, code, purpose=purpose)
                committed = time.time()
                seen = wait_done([submission.pk], 600)
                if submission.pk not in seen:
                    raise SystemExit(f"submission {submission.pk} was not graded in 600 s:\n{worker.log_tail()}")
                row = Submission.objects.get(pk=submission.pk)
                probe = _probe_line(probe_file, submission.pk)
                if row.status != Status.DONE or probe is None:
                    raise SystemExit(f"submission {submission.pk}: no probe record:\n{worker.log_tail()}")
                report = row.report or {}
                measured = {
                    "verdict": row.verdict,
                    "speedup": row.speedup,
                    "submit_s": committed - submitted,
                    "queue_pickup_s": probe["task_start"] - committed,
                    "claim_s": probe.get("claim_s"),
                    "grade_s": probe.get("grade_s"),
                    "sandbox_setup_s": probe.get("sandbox_setup_s", 0.0),
                    "write_files_s": probe.get("write_files_s", 0.0),
                    "sandbox_run_s": probe.get("sandbox_run_s"),
                    "sandbox_wall_s": probe.get("sandbox_wall_s"),
                    "sandbox_cleanup_s": probe.get("sandbox_cleanup_s", 0.0),
                    "finish_s": probe.get("finish_s"),
                    "task_end_after_finish_s": probe["task_end"]
                    - probe["task_start"]
                    - (probe.get("claim_s") or 0)
                    - (probe.get("grade_s") or 0)
                    - (probe.get("finish_s") or 0),
                    "end_to_end_s": (probe["task_end"] - submitted),
                    "observed_s": seen[submission.pk] - submitted,
                    "benchmark_s": benchmark_seconds(report) if purpose != "check" else 0.0,
                }
                measured["host_grade_other_s"] = (
                    measured["grade_s"]
                    - measured["sandbox_run_s"]
                    - measured["sandbox_setup_s"]
                    - measured["write_files_s"]
                    - measured["sandbox_cleanup_s"]
                )
                if number:
                    rows.append(measured)
                print(
                    f"  latency {slug}/{filename} ({purpose}) #{number}{' (warm-up)' if not number else ''}: "
                    f"{row.verdict}, end-to-end {measured['end_to_end_s']:.3f} s, sandbox {measured['sandbox_wall_s']:.3f} s, "
                    f"benchmark {measured['benchmark_s']:.3f} s",
                    flush=True,
                )
            summary = _latency_summary(slug, filename, purpose, rows, startup)
            summary["harness_profile"] = harness_profile(slug, filename, "check" if purpose == "check" else "full")
            print(f"  harness profile: {summary['harness_profile']}", flush=True)
            cases.append(summary)
    finally:
        worker.stop()
    return {
        "target_overhead_s": OVERHEAD_TARGET_S,
        "sandbox_startup_s": startup,
        "cases": cases,
        "worker_log": str(worker.log_path),
    }


def _probe_line(probe_file, submission_id):
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            lines = probe_file.read_text(encoding="utf-8").splitlines()
        except OSError:
            lines = []
        for line in reversed(lines):
            record = json.loads(line)
            if record.get("submission_id") == submission_id and record.get("task") == "grader.grade_submission":
                return record
        time.sleep(0.05)
    return None


def _latency_summary(slug, filename, purpose, rows, startup):
    def med(key):
        return rounded(median([row[key] for row in rows]))

    e2e = [row["end_to_end_s"] for row in rows]
    over_sandbox = [row["end_to_end_s"] - row["sandbox_wall_s"] for row in rows]
    over_benchmark = [row["end_to_end_s"] - row["benchmark_s"] for row in rows]
    in_sandbox_other = [row["sandbox_wall_s"] - row["benchmark_s"] for row in rows]
    breakdown = {
        "submit (insert, commit, enqueue)": med("submit_s"),
        "queue pickup (commit -> task starts)": med("queue_pickup_s"),
        "claim (UPDATE + SELECT)": med("claim_s"),
        "sandbox set-up + job files + clean-up (host)": rounded(
            median([row["sandbox_setup_s"] + row["write_files_s"] + row["sandbox_cleanup_s"] for row in rows])
        ),
        "grade() other host work (parse, interpret)": med("host_grade_other_s"),
        "sandbox run outside measured calls": rounded(median(in_sandbox_other)),
        "  of which bwrap start-up (sandbox with `true`)": startup["bwrap_true"],
        "finish (report UPDATE + signal)": med("finish_s"),
        "task return -> worker idle": med("task_end_after_finish_s"),
    }
    overhead = median(over_benchmark)
    return {
        "exercise": slug,
        "submission": filename,
        "mode": "check" if purpose == "check" else "full",
        "gradings": len(rows),
        "verdicts": sorted({row["verdict"] for row in rows}),
        "end_to_end_s": rounded(median(e2e)),
        "observed_by_poller_s": med("observed_s"),
        "sandbox_wall_s": med("sandbox_wall_s"),
        "benchmark_s": med("benchmark_s"),
        "overhead_beyond_sandbox_s": rounded(median(over_sandbox)),
        "overhead_beyond_benchmark_s": rounded(overhead),
        "breakdown_s": breakdown,
        # The target as docs/benchmarks.md reads it: what the pipeline adds beyond the
        # exercise's own benchmark run (the sandbox run). Also kept: the strict reading,
        # beyond the timed calls alone.
        "passes": median(over_sandbox) <= OVERHEAD_TARGET_S,
        "passes_strict": overhead <= OVERHEAD_TARGET_S,
        "rows": [
            {key: rounded(value) if isinstance(value, float) else value for key, value in row.items()} for row in rows
        ],
    }
