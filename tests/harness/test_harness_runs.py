"""The harness end to end, as a real subprocess on a temporary job directory."""

import json
import math
import os
from pathlib import Path

import frontmatter
import pytest

from grader.harness import feedback, imports, per_size, protocol, stats, supervisor

from .jobs import DEFAULT_JOB, FLOAT_INPUTS, VECTOR_SOLUTION, run_job

REPORT_FIELDS = {
    "verdict",
    "speedup",
    "speedup_ci",
    "peak_memory_bytes",
    "reference_peak_memory_bytes",
    "message",
    "sizes",
    "scaling_exponent",
    "reference_scaling_exponent",
    "first_call_s",
    "hint",
    "failure",
    "hardware",
    "cpus",
    "harness_version",
    "profile",
}
FUSED_AXPY_RELU = (
    Path(__file__).resolve().parents[2] / "questions" / "bank" / "algorithmic-complexity" / "fused-axpy-relu"
)
SIZE_FIELDS = {
    "size",
    "time_s",
    "reference_time_s",
    "speedup",
    "speedup_ci",
    "peak_memory_bytes",
    "reference_peak_memory_bytes",
    "correct",
    "first_call_s",
    "reference_first_call_s",
    "staging_s",
    "reference_staging_s",
    "raw_time_s",
    "raw_reference_time_s",
    "transfer_overhead_s",
    "pairs",
    "stopped",
    "retimed_pairs",
    "calls",
}


def test_vectorised_answer_beats_python_loop(tmp_path):
    # At 20,000 and 80,000 elements the reference's loop takes about 10 and 40 ms a call:
    # at 2,000 and 8,000 (1 and 4 ms) a few scheduler slices lost to another process in
    # three of the five pairs at the small size (a whole-suite run beside it, load 2.4)
    # turned the fitted exponent negative.
    run = run_job(tmp_path, VECTOR_SOLUTION, sizes=[20000, 80000])
    report = run.report
    assert run.verdict == "accepted", run
    assert set(report) == REPORT_FIELDS
    assert all(set(entry) == SIZE_FIELDS for entry in report["sizes"])
    assert [entry["size"] for entry in report["sizes"]] == [20000, 80000]
    assert report["speedup"] > 1
    low, high = report["speedup_ci"]
    assert low <= report["speedup"] <= high
    assert report["hardware"] == "cpu" and report["cpus"] == 1  # one CPU unless the job says more
    assert all(entry["staging_s"] is None and entry["reference_staging_s"] is None for entry in report["sizes"])
    for entry in report["sizes"]:
        assert entry["transfer_overhead_s"] > 0 and 0 < entry["time_s"] <= entry["raw_time_s"], entry
    assert "GPU" not in report["message"]
    assert report["first_call_s"] > 0
    # Only that it is fitted and the loop's time grows with its size: how close
    # it comes to 1 over two small sizes depends on the machine's load.
    assert report["reference_scaling_exponent"] > 0
    assert "Correct on all 2 sizes and 3 edge cases" in report["message"]
    assert "faster than the reference" in report["message"]


def test_doing_twice_the_work_reads_about_half(tmp_path):
    reference = """
    import numpy as np

    def total(x):
        return float(np.sin(x).sum())
    """
    submission = """
    import numpy as np

    def total(x):
        first = float(np.sin(x).sum())
        second = float(np.sin(x).sum())
        return (first + second) / 2.0
    """
    # Calls of a tenth of a second and more: on a busy machine each spans many of the
    # scheduler's time slices, so both sides see the same share of the CPU.
    run = run_job(tmp_path, submission, reference, entry_point="total", sizes=[8_000_000], edge_sizes=[1], repeats=15)
    assert run.verdict == "accepted", run
    assert 0.40 <= run.report["speedup"] <= 0.60, run
    assert "slower than the reference" in run.report["message"]


def test_twice_the_memory_bound_work_reads_half_once_transfers_are_taken_out(tmp_path):
    """Each call's input delivery and result copy are the harness's work, a large
    share of a memory-bound call; left in the timings they pull 0.5 towards 1."""
    reference = """
    import numpy as np

    def transform(x):
        return np.sqrt(x * x + 1.0) * 0.5 - x
    """
    submission = """
    import numpy as np

    def transform(x):
        for _ in range(2):
            out = np.sqrt(x * x + 1.0) * 0.5 - x
        return out
    """
    run = run_job(
        tmp_path, submission, reference, sizes=[5_000_000], edge_sizes=[1], repeats=15, limits={"memory_mb": 1024}
    )
    assert run.verdict == "accepted", run
    entry = run.report["sizes"][0]
    assert 0.38 <= run.report["speedup"] <= 0.62, run
    assert entry["transfer_overhead_s"] > 0
    assert entry["time_s"] == pytest.approx(entry["raw_time_s"] - entry["transfer_overhead_s"])
    assert entry["reference_time_s"] == pytest.approx(entry["raw_reference_time_s"] - entry["transfer_overhead_s"])
    low, high = entry["speedup_ci"]
    assert low <= entry["speedup"] <= high  # the median pair ratio, with its interval over pairs
    # A steady run may stop before the planned 15 (the stopping rule); never before the minimum.
    assert supervisor.MIN_PAIRS <= entry["pairs"] <= 15
    assert_recomputable_from_calls(entry, repeats=entry["pairs"])


def test_a_slow_correct_answer_gets_fewer_pairs_not_a_time_limit(tmp_path):
    """Planned pairs that would not fit the time budget are dropped (never below
    MIN_PAIRS) and the learner is told; the later size keeps its minimum."""
    # Calls that wait rather than compute take the same time on a fast machine and a loaded
    # laptop, so the budget cuts every run, as the test needs (a CPU-bound loop was fast enough
    # on CI to fit). Each submission call waits 0.05-0.4 s, log-uniformly drawn afresh: the
    # median ratio's interval then stays about five times wider than the rule's bound at 60
    # pairs (half-width about 2/sqrt(pairs) in log terms), so only the budget ends a size.
    reference, submission = sleeping_transform(0.02), sleeping_transform("0.05 * 8 ** np.random.random()")
    # 60 planned pairs per size (about 11 s each) cannot both fit 18 s; the minimum (3 s) does.
    limits = dict(DEFAULT_JOB["limits"], time_s=20)
    run = run_job(
        tmp_path,
        submission,
        reference,
        sizes=[1000, 2000],
        edge_sizes=[1],
        repeats=60,
        allowed_imports=["numpy", "time"],
        limits=limits,
    )
    assert run.verdict == "accepted", run
    pairs = [entry["pairs"] for entry in run.report["sizes"]]
    # Which size is cut depends on the machine's speed; some size must be, none below the minimum.
    assert supervisor.MIN_PAIRS <= min(pairs) < 60, pairs
    assert per_size.STOPPED_BUDGET in [entry["stopped"] for entry in run.report["sizes"]]
    assert "fewer timed pairs than the planned 60" in run.report["message"]
    assert run.report["speedup"] < 0.5
    for entry, count in zip(run.report["sizes"], pairs):
        assert_recomputable_from_calls(entry, repeats=count)
    for entry, half_width in zip(run.report["sizes"], (supervisor.SCALING_HALF_WIDTH, supervisor.HEADLINE_HALF_WIDTH)):
        assert_stopped_by_the_rule(entry, half_width, planned=60)


def test_an_answer_whose_time_varies_call_to_call_is_planned_by_its_mean(tmp_path):
    """Half the answer's calls take 0.05 s and half 0.4 s, at random. Planned with
    the median pair (a fast one) the budget left the later size less than its
    minimum needs, and the last size's extra pairs ran until a slow one crossed
    the deadline: time_limit in 4 of 8 runs. Planned with the mean pair for the
    later sizes and the slowest for the next one, it gets fewer pairs instead."""
    reference, submission = sleeping_transform(0.02), sleeping_transform("np.random.choice([0.05, 0.4])")
    limits = dict(DEFAULT_JOB["limits"], time_s=20)
    run = run_job(
        tmp_path,
        submission,
        reference,
        sizes=[1000, 2000],
        edge_sizes=[1],
        repeats=60,
        allowed_imports=["numpy", "time"],
        limits=limits,
    )
    assert run.verdict == "accepted", run.report["message"]
    assert all(entry["pairs"] >= supervisor.MIN_PAIRS for entry in run.report["sizes"])


def test_timing_stops_early_once_the_interval_is_tight(tmp_path):
    """A steady answer needs far fewer than the planned pairs to pin its speedup
    within the stopping rule's bound; the report says why each size stopped, and
    the learner is not told of a shortfall (there is none)."""
    # Calls that wait rather than compute are steady to a fraction of a percent on a busy
    # machine too (a computing call's speed follows its neighbours'), so the rule must stop.
    reference, submission = sleeping_transform(0.4), sleeping_transform(0.1)
    run = run_job(
        tmp_path,
        submission,
        reference,
        sizes=[1000, 2000],
        edge_sizes=[1],
        repeats=40,
        allowed_imports=["numpy", "time"],
        limits=dict(DEFAULT_JOB["limits"], time_s=120),
    )
    assert run.verdict == "accepted", run
    for entry, half_width in zip(run.report["sizes"], (supervisor.SCALING_HALF_WIDTH, supervisor.HEADLINE_HALF_WIDTH)):
        assert_recomputable_from_calls(entry, repeats=entry["pairs"])
        assert_stopped_by_the_rule(entry, half_width, planned=40)
    headline = run.report["sizes"][-1]
    assert headline["stopped"] == per_size.STOPPED_PRECISE, headline
    assert supervisor.MIN_PAIRS <= headline["pairs"] < 40
    # The rule's own interval, the bootstrap's: the report's adds the host's term (stats.reported_interval).
    calls = headline["calls"]
    low, high = stats.speedup_interval(calls["reference_s"], calls["submission_s"], calls["echo_s"], runs=calls["runs"])
    assert high - low <= 2 * supervisor.HEADLINE_HALF_WIDTH * headline["speedup"]
    assert headline["speedup_ci"][0] < low and headline["speedup_ci"][1] > high
    assert "fewer timed pairs" not in run.report["message"]


def rule_asked_at(entry, planned):
    """The pair counts at which the supervisor asked the stopping rule: every
    count from MIN_PAIRS on; in a size timed in runs, the end of each run from
    the MIN_RUNS-th on, and, where no room was left for another run (the last
    run outgrew its share), every count from that run's planned end on."""
    pairs, runs = entry["pairs"], entry["calls"]["runs"]
    if runs is None:
        return list(range(supervisor.MIN_PAIRS, pairs + 1))
    per_run = math.ceil(planned / supervisor.HEADLINE_RUNS)
    last = max(runs, default=0)
    asked = [per_run * k for k in range(supervisor.MIN_RUNS, last + 2) if per_run * k <= pairs]
    planned_end = per_run * (last + 1)
    switched = runs.count(last) > per_run or (entry["stopped"] == per_size.STOPPED_PRECISE and pairs == planned_end)
    if switched:
        asked += range(max(supervisor.MIN_PAIRS, planned_end), pairs + 1)
    return sorted(set(asked))


def assert_stopped_by_the_rule(entry, half_width, planned):
    """The stopping rule replayed on the report's calls: the rule is asked before
    every pair from the MIN_PAIRS-th on (in a size timed in runs, at the end of
    each run from the MIN_RUNS-th on), so a size stopped as precise at the first
    count of pairs whose interval met the bound, and any other stop came before
    one did (the budget's check follows the rule's; the planned count ends the loop)."""
    columns = [entry["calls"][key] for key in ("reference_s", "submission_s", "echo_s")]
    runs = entry["calls"]["runs"]

    def precise_at(count):
        first = [column[:count] for column in columns]
        return stats.precise_enough(*first, half_width, runs=runs and runs[:count])

    met = [count for count in rule_asked_at(entry, planned) if precise_at(count)]
    if entry["stopped"] == per_size.STOPPED_PRECISE:
        assert met[:1] == [entry["pairs"]], (met, entry["pairs"])
    elif entry["stopped"] == per_size.STOPPED_BUDGET:
        assert met == [], met
    else:
        assert entry["stopped"] == per_size.STOPPED_PLANNED and entry["pairs"] == planned
        assert met in ([], [planned]), met


def test_a_later_edge_input_may_compile_like_the_first_call(tmp_path):
    """Every new input may compile (a CuPy reduction did, on an H200, on the third
    edge input): a 2 s call there is within its grace, not a time limit."""
    submission = """
    import time

    def transform(x):
        if len(x) == 7:
            time.sleep(2.0)
        return x + 1.0
    """
    inputs = FLOAT_INPUTS + "\n\ndef edge_cases():\n    return [(np.ones(7),)]\n"
    run = run_job(
        tmp_path,
        submission,
        sleeping_transform(0.0),
        inputs,
        edge_sizes=[0, 1],
        sizes=[100],
        allowed_imports=["numpy", "time"],
        repeats=5,
    )
    assert run.verdict == "accepted", run


def test_a_timed_call_gets_the_short_grace(tmp_path):
    """Only new inputs get the long grace: a call that is slow on a size already
    seen is stopped after the short one."""
    submission = """
    import time

    def transform(x, calls=[0]):
        calls[0] += 1
        if calls[0] > 4:  # three edge inputs and the warm-up, then the timed calls
            time.sleep(3.0)
        return x + 1.0
    """
    run = run_job(
        tmp_path,
        submission,
        sleeping_transform(0.0),
        edge_sizes=[0, 1],
        sizes=[100],
        allowed_imports=["numpy", "time"],
        repeats=5,
    )
    assert run.verdict == "time_limit", run
    assert run.report["failure"]["limit_s"] < supervisor.TIME_GRACE_S + 0.5


def sleeping_transform(seconds):
    """A transform that spins for `seconds` (a Python expression, evaluated per call)
    before answering: wall time that does not depend on the machine's speed, spent
    on the CPU (a reference that sleeps is off its CPU, which the harness retimes)."""
    return f"""
    import time

    import numpy as np

    def transform(x):
        deadline = time.perf_counter() + ({seconds})
        while time.perf_counter() < deadline:
            pass
        return x + 1.0
    """


def assert_recomputable_from_calls(entry, repeats):
    """Every timed call is in the report, so anyone can recompute the figures."""
    calls = entry["calls"]
    assert len(calls["reference_s"]) == len(calls["submission_s"]) == len(calls["echo_s"]) == entry["pairs"] == repeats
    recomputed = stats.speedup(calls["reference_s"], calls["submission_s"], calls["echo_s"])
    assert recomputed == pytest.approx(entry["speedup"], rel=1e-9)
    interval = stats.reported_interval(calls["reference_s"], calls["submission_s"], calls["echo_s"], runs=calls["runs"])
    assert list(interval) == pytest.approx(entry["speedup_ci"], rel=1e-9)
    # And how long each call waited for its CPU while another process had it, where the kernel says.
    for role in ("reference", "submission"):
        waited = calls[f"{role}_waited_s"]
        if not os.path.exists("/proc/self/schedstat"):
            assert waited is None
            continue
        assert len(waited) == repeats and all(seconds >= 0 for seconds in waited)


def test_wrong_value_reports_first_mismatch(tmp_path):
    submission = """
    import numpy as np

    def transform(x):
        out = np.sqrt(x * x + 1.0)
        if out.size > 5:
            out[5] += 1.0
        return out
    """
    run = run_job(tmp_path, submission)
    assert run.verdict == "wrong_answer", run
    failure = run.report["failure"]
    assert failure["index"] == [5]
    assert float(failure["got"]) - float(failure["expected"]) == pytest.approx(1.0)
    assert failure["tolerance"] == {"rtol": 1e-9, "atol": 0.0}
    assert failure["input"] == "edge size 7"
    assert "index [5]" in run.report["message"]
    assert run.report["speedup"] is None


def test_number_where_nan_is_expected_is_wrong(tmp_path):
    inputs = """
    import numpy as np

    def make_inputs(size, seed):
        return (np.random.default_rng(seed).standard_normal(size),)

    def edge_cases():
        return [(np.array([1.0, np.nan, np.inf, -np.inf]),)]
    """
    reference = "import numpy as np\n\ndef transform(x):\n    return x * 2.0\n"
    submission = "import numpy as np\n\ndef transform(x):\n    return np.nan_to_num(x * 2.0, nan=0.0, posinf=np.inf, neginf=-np.inf)\n"
    run = run_job(tmp_path, submission, reference, inputs)
    assert run.verdict == "wrong_answer", run
    assert run.report["failure"]["index"] == [1]
    assert run.report["failure"]["expected"] == "nan"
    assert run.report["failure"]["got"] == "0.0"


def test_exception_gives_traceback_of_submission_frames_only(tmp_path):
    submission = """
    import numpy as np

    def helper(x):
        raise ValueError("negative values are not supported")

    def transform(x):
        return helper(x)
    """
    run = run_job(tmp_path, submission)
    assert run.verdict == "runtime_error", run
    traceback = run.report["failure"]["traceback"]
    assert 'File "solution.py", line 5, in helper' in traceback
    assert 'File "solution.py", line 8, in transform' in traceback
    assert traceback.rstrip().endswith("ValueError: negative values are not supported")
    assert "runner.py" not in traceback and "harness" not in traceback and "/job" not in traceback
    assert len(traceback.splitlines()) <= 40


def test_disallowed_import_is_rejected_before_running(tmp_path):
    submission = "import numpy as np\nimport subprocess\n\ndef transform(x):\n    return x\n"
    run = run_job(tmp_path, submission)
    assert run.verdict == "rejected", run
    assert "`subprocess`" in run.report["message"] and "Line 2" in run.report["message"]
    assert run.report["failure"] == {"line": 2}


def test_array_subclass_and_fake_array_are_wrong_answers(tmp_path):
    subclass = """
    import numpy as np

    class Sneaky(np.ndarray):
        pass

    def transform(x):
        return np.sqrt(x * x + 1.0).view(Sneaky)
    """
    run = run_job(tmp_path / "subclass", subclass)
    assert run.verdict == "wrong_answer", run
    assert "subclass of numpy.ndarray" in run.report["message"]

    fake = """
    import numpy as np

    class Lazy:
        def __init__(self, x):
            self.x = x

        def __array__(self, dtype=None, copy=None):
            return np.sqrt(self.x * self.x + 1.0)

    def transform(x):
        return Lazy(x)
    """
    run = run_job(tmp_path / "fake", fake)
    assert run.verdict == "wrong_answer", run
    assert "imitates an array" in run.report["message"]


def test_list_and_wrong_dtype_are_wrong_answers(tmp_path):
    as_list = "import numpy as np\n\ndef transform(x):\n    return list(np.sqrt(x * x + 1.0))\n"
    run = run_job(tmp_path / "list", as_list)
    assert run.verdict == "wrong_answer" and "a list" in run.report["message"], run
    as_int = "import numpy as np\n\ndef transform(x):\n    return np.sqrt(x * x + 1.0).astype(np.int64)\n"
    run = run_job(tmp_path / "int", as_int)
    assert run.verdict == "wrong_answer" and "signed integer array" in run.report["message"], run


def test_input_mutation_is_caught(tmp_path):
    submission = """
    import numpy as np

    def transform(x):
        np.multiply(x, x, out=x)
        x += 1.0
        return np.sqrt(x, out=x)
    """
    run = run_job(tmp_path, submission)
    assert run.verdict == "wrong_answer", run
    assert "modified its input (argument 1)" in run.report["message"]
    assert run.report["hint"] == feedback.MODIFIED_INPUT_HINT
    # The failing call is shown with its input as it was given, not as the code left it.
    inputs = FLOAT_INPUTS + "\n\ndef edge_cases():\n    return [(np.array([0.5, 0.25]),)]\n"
    run = run_job(tmp_path / "given", submission, inputs=inputs, edge_sizes=[])
    assert run.report["failure"]["arguments"] == ["x = np.array([0.5, 0.25], dtype=np.float64)"], run


def test_a_misnamed_function_is_named_in_the_verdict_with_its_own_hint(tmp_path):
    run = run_job(tmp_path, "import numpy as np\n\ndef transfrom(x):\n    return (2.0 * x + 1.0) ** 2\n")
    assert run.verdict == "runtime_error", run
    assert "It defines `transfrom`: rename it `transform`." in run.report["message"]
    assert run.report["hint"] == imports.MISSING_ENTRY_POINT_HINT


def test_output_flood_hits_output_limit(tmp_path):
    submission = """
    import numpy as np

    def transform(x):
        for i in range(100000):
            print("spam" * 20)
        return np.sqrt(x * x + 1.0)
    """
    run = run_job(tmp_path, submission, limits={"output_kb": 16})
    assert run.verdict == "output_limit", run
    assert b"spam" not in run.stdout


def test_memory_hog_hits_memory_limit(tmp_path):
    submission = """
    import numpy as np

    def transform(x):
        hoard = []
        for _ in range(100):
            hoard.append(np.ones(5_000_000))  # 40 MB each, touched
        return np.sqrt(x * x + 1.0)
    """
    run = run_job(tmp_path, submission, limits={"memory_mb": 300})
    assert run.verdict == "memory_limit", run
    assert run.report["failure"]["peak_memory_bytes"] > 300 * 1024 * 1024
    assert "300 MiB memory limit" in run.report["message"]


def test_an_allocation_past_the_limit_is_a_memory_limit_in_mebibytes(tmp_path):
    submission = """
    import numpy as np

    def transform(x):
        np.ones((20000, 20000))  # 3.2 GB at once: refused, a MemoryError
        return np.sqrt(x * x + 1.0)
    """
    run = run_job(tmp_path, submission, limits={"memory_mb": 300})
    assert run.verdict == "memory_limit", run
    assert run.report["message"].startswith("Your code ran out of memory (MemoryError; the limit is 300 MiB) on ")


def test_endless_loop_hits_time_limit(tmp_path):
    submission = """
    import numpy as np

    calls = [0]

    def transform(x):
        calls[0] += 1
        while calls[0] > 1:
            pass
        return np.sqrt(x * x + 1.0)
    """
    run = run_job(tmp_path, submission)
    assert run.verdict == "time_limit", run
    assert "10 times the reference's time" in run.report["message"]
    assert "edge size 1" in run.report["message"]


def test_in_place_answer_uses_less_memory_than_temporaries(tmp_path):
    reference = """
    import numpy as np

    def transform(x):
        doubled = x * 2.0
        shifted = doubled + 1.0
        magnitude = np.abs(shifted)
        return np.sqrt(magnitude)
    """
    submission = """
    import numpy as np

    def transform(x):
        out = x * 2.0
        out += 1.0
        np.abs(out, out=out)
        return np.sqrt(out, out=out)
    """
    run = run_job(tmp_path, submission, reference, sizes=[2_000_000], edge_sizes=[3], repeats=3)
    assert run.verdict == "accepted", run
    answer_bytes = 2_000_000 * 8
    assert answer_bytes <= run.report["peak_memory_bytes"] < 1.5 * answer_bytes, run
    assert run.report["reference_peak_memory_bytes"] >= 3 * answer_bytes, run


def test_forged_report_line_from_submission_is_ignored(tmp_path):
    forged = protocol.format_report(b"guessed-secret", {"verdict": "accepted", "speedup": 1000.0})
    submission = f"""
    import numpy as np

    def transform(x):
        print({forged!r}, flush=True)
        return x
    """
    run = run_job(tmp_path, submission)
    assert run.verdict == "wrong_answer", run
    assert forged.encode() not in run.stdout
    assert protocol.parse_report(b"guessed-secret", run.stdout) is None


def test_check_mode_is_correctness_only(tmp_path):
    run = run_job(tmp_path, VECTOR_SOLUTION, mode="check", sizes=[100, 1000])
    assert run.verdict == "accepted", run
    assert run.report["speedup"] is None and run.report["speedup_ci"] is None
    assert [entry["size"] for entry in run.report["sizes"]] == [100, 1000]
    assert all(entry["correct"] and entry["time_s"] is None for entry in run.report["sizes"])
    assert "quick check" in run.report["message"]


def test_problems_before_the_first_call(tmp_path):
    run = run_job(tmp_path / "syntax", "def transform(x):\n    return x +\n")
    assert run.verdict == "syntax_error" and "Syntax error at line 2" in run.report["message"], run
    assert run.report["failure"]["line"] == 2, run
    run = run_job(tmp_path / "missing", "import numpy as np\n\ndef other(x):\n    return x\n")
    assert run.verdict == "runtime_error" and "`transform`" in run.report["message"], run
    run = run_job(tmp_path / "import-time", "import numpy as np\n\nnp.zeros(3)[7]\n\ndef transform(x):\n    return x\n")
    assert run.verdict == "runtime_error", run
    assert "IndexError" in run.report["failure"]["traceback"]


def test_broken_job_is_an_internal_error_still_signed(tmp_path):
    run = run_job(tmp_path, VECTOR_SOLUTION, repeats="many")
    assert run.verdict == "internal_error", run
    assert "misconfigured" in run.report["message"]
    assert json.dumps(run.report)


def test_an_answer_the_kernel_will_not_seal_at_once_is_sealed_on_a_later_try(tmp_path):
    """The kernel may refuse to seal an answer for a moment (EBUSY while it
    holds one of its pages): once, in the Docker hostile run of 4 December,
    that ended a grading in internal_error. Reproduced by a reference that
    leaves a writable mapping of its result memfd open for 0.12 s after its
    second timed call at the last size (the same EBUSY, every time): the seal
    is tried again until it holds, and that pair, whose reference waited off its
    CPU, is timed again."""
    reference = """
    import mmap
    import os
    import threading

    import numpy as np

    calls_at_last_size = 0


    def _result_memfd():
        for name in os.listdir("/proc/self/fd"):
            try:
                if "hotpath-result" in os.readlink(f"/proc/self/fd/{name}"):
                    return int(name)
            except OSError:
                pass
        return None


    def transform(x):
        global calls_at_last_size
        if len(x) == 8000:
            calls_at_last_size += 1
            fd = _result_memfd()
            if calls_at_last_size == 3 and fd is not None:  # the warm-up, then the second timed pair
                mapping = mmap.mmap(fd, os.fstat(fd).st_size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
                threading.Timer(0.12, mapping.close).start()
        return np.sqrt(x * x + 1.0)
    """
    run = run_job(tmp_path, VECTOR_SOLUTION, reference, repeats=6)
    assert run.verdict == "accepted", run
    last = run.report["sizes"][-1]
    assert_recomputable_from_calls(last, repeats=last["pairs"])
    # The second pair's reference call waited off its CPU through the retries: that pair
    # was dropped as disturbed and timed again, so no kept call holds the wait.
    assert max(last["calls"]["reference_s"]) < 0.1, last["calls"]
    assert last["raw_reference_time_s"] < 0.05, last


def test_a_reference_that_dies_at_import_reports_what_it_printed(tmp_path):
    """A reference that cannot start (a library missing from the sandbox's Python,
    as pyseccomp once was on a GPU machine) dies without a traceback: what it
    printed is the clue, kept for the author and the log."""
    reference = """
    import os
    import sys

    print("cannot load libexample.so", file=sys.stderr, flush=True)
    os._exit(1)
    """
    run = run_job(tmp_path, VECTOR_SOLUTION, reference)
    assert run.verdict == "internal_error", run
    assert run.report["failure"]["reference"] == "the process exited with code 1 before returning"
    assert "cannot load libexample.so" in run.report["failure"]["reference_output"]


@pytest.mark.gpu
def test_gpu_job_times_cupy_and_names_the_device(tmp_path):
    pytest.importorskip("cupy", reason="needs CuPy and a CUDA GPU")
    reference = "import cupy as cp\n\ndef transform(x):\n    return cp.sqrt(x * x + 1.0)\n"
    submission = (
        "import cupy as cp\n\ndef transform(x):\n    out = x * x\n    out += 1.0\n    return cp.sqrt(out, out=out)\n"
    )
    run = run_job(tmp_path, submission, reference, target="gpu", allowed_imports=["cupy"], sizes=[1_000_000], repeats=5)
    assert run.verdict == "accepted", run
    assert run.report["hardware"] not in ("", "cpu")
    assert run.report["speedup"] > 0
    assert all(entry["staging_s"] > 0 and entry["reference_staging_s"] > 0 for entry in run.report["sizes"])
    # The copies are outside the timed window; the round trip and synchronisation are echoed and subtracted.
    assert all(
        entry["transfer_overhead_s"] > 0 and 0 < entry["time_s"] < entry["raw_time_s"] for entry in run.report["sizes"]
    )
    assert all(len(entry["calls"]["echo_s"]) == entry["pairs"] for entry in run.report["sizes"])
    assert "not part of the timed region" in run.report["message"]


@pytest.mark.gpu
def test_twice_the_gpu_work_reads_half_once_the_window_floor_is_taken_out(tmp_path):
    """On an H200 every GPU call carried about 0.65 ms of the harness's own round
    trip and synchronisation; left in, it pulls a fast kernel's 0.5 towards 1
    (harness 1.7 read fused-axpy-relu's 4.5x less traffic as 1.2-1.4x). With that
    subtracted, harness 1.8 still read 0.78 here: each timed call made its arrays
    with cudaMalloc, the runner having emptied CuPy's pool after the call before."""
    pytest.importorskip("cupy", reason="needs CuPy and a CUDA GPU")
    reference = "import cupy as cp\n\ndef transform(x):\n    return cp.sqrt(x * x + 1.0) * 0.5 - x\n"
    submission = (
        "import cupy as cp\n\ndef transform(x):\n    for _ in range(2):\n"
        "        out = cp.sqrt(x * x + 1.0) * 0.5 - x\n    return out\n"
    )
    run = run_job(
        tmp_path,
        submission,
        reference,
        target="gpu",
        allowed_imports=["cupy"],
        sizes=[4_000_000],
        edge_sizes=[1],
        repeats=21,
        limits={"memory_mb": 4096},
    )
    assert run.verdict == "accepted", run
    entry = run.report["sizes"][0]
    assert entry["transfer_overhead_s"] > 0
    assert 0.40 <= run.report["speedup"] <= 0.60, run


@pytest.mark.gpu
def test_gpu_memory_counts_what_the_code_keeps_not_the_inputs_or_the_context(tmp_path):
    """Harness 1.9, first to be checked on hardware: the inputs' device copies and the
    CUDA context are the harness's (the reference's peak is its answer, about 32 MB),
    and device memory the module keeps from import counts (256 MiB here)."""
    pytest.importorskip("cupy", reason="needs CuPy and a CUDA GPU")
    reference = "import cupy as cp\n\ndef transform(x):\n    return x * 2.0\n"
    submission = (
        "import cupy as cp\n\nTABLE = cp.zeros(1 << 25)  # 256 MiB, made at import and kept\n\n"
        "def transform(x):\n    return x * 2.0 + TABLE[0]\n"
    )
    run = run_job(
        tmp_path,
        submission,
        reference,
        target="gpu",
        allowed_imports=["cupy"],
        sizes=[4_000_000],
        repeats=5,
        limits={"memory_mb": 4096},
    )
    assert run.verdict == "accepted", run
    answer_bytes = 4_000_000 * 8
    assert answer_bytes <= run.report["reference_peak_memory_bytes"] <= answer_bytes + (8 << 20), run
    assert run.report["peak_memory_bytes"] >= (1 << 28), run


@pytest.mark.gpu
@pytest.mark.parametrize("answer", ["solution.py", "starter.py"])
def test_fused_axpy_relu_is_timed_without_the_copies(tmp_path, answer):
    """The bank exercise: once host<->device copies are outside the window, the
    fused kernel is clearly faster, and the starter (the reference itself) is not."""
    pytest.importorskip("cupy", reason="needs CuPy and a CUDA GPU")
    spec = frontmatter.load(FUSED_AXPY_RELU / "question.md").metadata
    job = {
        key: spec[key]
        for key in (
            "entry_point",
            "sizes",
            "edge_sizes",
            "tolerance",
            "repeats",
            "target",
            "allowed_imports",
            "graded_on",
            "limits",
        )
    }
    run = run_job(
        tmp_path,
        (FUSED_AXPY_RELU / answer).read_text(),
        (FUSED_AXPY_RELU / "reference.py").read_text(),
        (FUSED_AXPY_RELU / "inputs.py").read_text(),
        timeout=300,
        **job,
    )
    assert run.verdict == "accepted", run
    low, _high = run.report["speedup_ci"]
    if answer == "solution.py":
        assert low > 1.5, run
    else:
        assert 0.7 < run.report["speedup"] < 1.4, run


def test_both_runners_run_on_one_and_the_same_cpu(tmp_path):
    """Code under test gets one CPU, the same one the reference is timed on."""
    reports_affinity = """
    import numpy as np

    def transform(x):
        status = np.loadtxt("/proc/thread-self/status", dtype=str, delimiter="\\x00", comments=None)
        cpus = [line for line in status if line.startswith("Cpus_allowed_list")][0].split()[-1]
        if not cpus.isdigit():
            raise RuntimeError(f"runs on CPUs {cpus!r}, not on one")
        return np.array([float(cpus)])
    """
    inputs = """
    import numpy as np

    def make_inputs(size, seed):
        return (np.zeros(size),)
    """
    run = run_job(
        tmp_path, reports_affinity, reference=reports_affinity, inputs=inputs, sizes=[10], edge_sizes=[], repeats=3
    )
    assert run.verdict == "accepted", run


def test_the_headline_size_is_timed_in_runs_of_fresh_processes(tmp_path):
    """Issue 30, item 1: the headline's pairs come from HEADLINE_RUNS pairs of runner
    processes, each warmed up afresh. Failed before: one process made every call,
    so a submission counting its own calls saw all of them."""
    submission = """
    import numpy as np

    calls = [0]

    def transform(x):
        calls[0] += 1
        # Two edge sizes, a warm-up and three timed pairs in the first process, fewer
        # later (a pair retimed on a busy machine adds one); one process made 19.
        if calls[0] > 12:
            raise RuntimeError(f"call {calls[0]} in one process")
        return x + 1.0
    """
    run = run_job(tmp_path, submission, sleeping_transform("0.002"), edge_sizes=[0, 1], sizes=[1000], repeats=15)
    assert run.verdict == "accepted", run
    headline = run.report["sizes"][-1]
    runs = headline["calls"]["runs"]
    # Five runs of three pairs, or fewer runs where the stopping rule ended it early (never before the third).
    assert runs == sorted(runs) and set(runs) == set(range(max(runs) + 1)) and all(runs.count(r) == 3 for r in runs)
    assert max(runs) + 1 == supervisor.HEADLINE_RUNS or (
        headline["stopped"] == per_size.STOPPED_PRECISE and max(runs) + 1 >= supervisor.MIN_RUNS
    )
    assert_recomputable_from_calls(headline, repeats=headline["pairs"])
