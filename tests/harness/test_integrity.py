"""Issue 12's integrity rules at the harness level: the freeze is confirmed or
the run is rejected, a call is allowed one CPU's worth of CPU time, and memory
is counted from the first line of the module (libraries it imports excepted)."""

import os
import subprocess
import sys
import time
import types
from dataclasses import replace

import pytest

from grader.harness import feedback, imports, per_size, procs, supervisor
from grader.harness.per_size import SizeRecord
from grader.harness.sides import CallOutcome
from grader.harness.supervisor import Finished, Grading

from .jobs import VECTOR_SOLUTION, run_job

POOL_MB = 48


@pytest.fixture
def sleeper():
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    yield process
    process.kill()
    process.wait()


def test_a_freeze_that_cannot_be_confirmed_raises(sleeper, monkeypatch):
    monkeypatch.setattr(procs, "FREEZE_CONFIRM_S", 0.05)
    monkeypatch.setattr(procs, "_stopped", lambda pid, seen, now: pid != sleeper.pid)
    with pytest.raises(procs.FreezeFailed):
        procs.freeze_all_except(None)


def test_a_confirmed_freeze_stops_every_thread(sleeper):
    time.sleep(0.2)
    assert procs.freeze_all_except(None) >= 1
    assert procs.wait_until_stopped([sleeper.pid], timeout_s=0)
    procs.resume_tree(sleeper.pid)


def fake_thread(monkeypatch, state, arrivals, voluntary, involuntary):
    """/proc as it reads for one thread of process 4242: its status, then its schedstat."""
    status = f"Name:\tpython\nState:\t{state}\nvoluntary_ctxt_switches:\t{voluntary}\n"
    status += f"nonvoluntary_ctxt_switches:\t{involuntary}\n"
    files = {
        "/proc/4242/task/4242/status": status.encode(),
        "/proc/4242/task/4242/schedstat": f"9 1 {arrivals}\n".encode(),
    }
    monkeypatch.setattr(procs, "_read", lambda path: files[path])
    monkeypatch.setattr(procs.os, "listdir", lambda path: ["4242"])


def stopped_now(pid, seen=None, now=0.0):
    return procs._stopped(pid, {} if seen is None else seen, now)


def test_a_thread_that_shows_stopped_but_is_still_on_its_cpu_is_not_yet_stopped(monkeypatch):
    """A snapshot taken while a thread shows "stopped" but has not yet left its CPU
    misses the time it ran before (counted only when it leaves): honest code then
    looked as if a paused process of it ran during the other side's call."""
    fake_thread(monkeypatch, "T (stopped)", arrivals=12, voluntary=7, involuntary=4)
    assert not stopped_now(4242)
    fake_thread(monkeypatch, "T (stopped)", arrivals=12, voluntary=8, involuntary=4)
    assert stopped_now(4242)
    fake_thread(monkeypatch, "R (running)", arrivals=12, voluntary=8, involuntary=4)
    assert not stopped_now(4242)


def test_a_stopped_thread_whose_counts_disagree_for_good_is_stopped_once_steady(monkeypatch):
    """The kernel skips counting an arrival now and then (seen: 98 arrivals, 99
    departures): such a thread never shows equal counts, and waiting for them
    failed the freeze of honest code after five seconds."""
    fake_thread(monkeypatch, "T (stopped)", arrivals=98, voluntary=22, involuntary=77)
    seen = {}
    assert not stopped_now(4242, seen, now=10.0)
    assert not stopped_now(4242, seen, now=10.0 + procs.SETTLE_S / 2)
    assert stopped_now(4242, seen, now=10.0 + procs.SETTLE_S)
    fake_thread(monkeypatch, "T (stopped)", arrivals=99, voluntary=22, involuntary=78)
    assert not stopped_now(4242, seen, now=11.0), "counts that moved start the wait again"


def test_a_busy_process_is_stopped_only_once_off_its_cpu_and_then_shows_no_run():
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.2)
        assert not stopped_now(spinner.pid)
        for _ in range(50):
            procs.freeze_all_except(None)
            snapshot = procs.paused_snapshot()
            time.sleep(0.002)
            assert procs.ran_while_paused(snapshot) is None
            procs.resume_tree(spinner.pid)
            time.sleep(0.002)
    finally:
        spinner.kill()
        spinner.wait()


def one_cpu_check(cpu_seconds, wall_seconds, call_seconds=None):
    outcome = CallOutcome(
        "ok",
        seconds=wall_seconds if call_seconds is None else call_seconds,
        cpu_seconds=cpu_seconds,
        cpu_window_seconds=wall_seconds,
    )
    Grading._check_one_cpu(None, outcome, "size 1,000")


@pytest.mark.parametrize("cpu_seconds, wall_seconds", [(0.0, 0.0001), (0.02, 0.0001), (0.21, 0.2), (1.05, 1.0)])
def test_one_cpus_worth_of_time_with_tick_slack_passes(cpu_seconds, wall_seconds):
    one_cpu_check(cpu_seconds, wall_seconds)


@pytest.mark.parametrize("cpu_seconds, wall_seconds", [(0.05, 0.0001), (0.3, 0.2), (1.9, 1.0)])
def test_more_cpu_time_than_one_cpu_gives_is_rejected(cpu_seconds, wall_seconds):
    with pytest.raises(Finished) as raised:
        one_cpu_check(cpu_seconds, wall_seconds)
    assert raised.value.verdict == feedback.REJECTED
    assert "more than one CPU" in raised.value.message


def test_an_exercise_graded_on_several_cpus_may_use_them_all_and_no_more():
    outcome = CallOutcome("ok", seconds=1.0, cpu_seconds=1.9, cpu_window_seconds=1.0)
    Grading._check_one_cpu(None, outcome, "size 1,000", 2)
    with pytest.raises(Finished) as raised:
        Grading._check_one_cpu(None, replace(outcome, cpu_seconds=2.5), "size 1,000", 2)
    assert "more than 2 CPUs worked on it. Grading gives both sides 2 CPUs." in raised.value.message


@pytest.mark.parametrize("count", [1, 2, 64])
def test_the_runners_get_the_cpus_claimed_first_then_others_up_to_the_count(count):
    allowed = os.sched_getaffinity(0)
    try:
        runner_cpus = supervisor._pin_cpus((max(allowed),), count)
        assert max(allowed) in runner_cpus and runner_cpus <= allowed
        assert len(runner_cpus) == min(count, len(allowed))
        # The supervisor moves to what is left; with every CPU given away it stays put.
        assert os.sched_getaffinity(0) == ((allowed - runner_cpus) or allowed)
    finally:
        os.sched_setaffinity(0, allowed)


def test_a_gpu_calls_copies_count_in_the_window_its_cpu_time_is_read_over():
    """Seen on an H200: CUDA's set-up in the first call's staging took 0.12 s of CPU
    beside a 0.3 ms kernel, and one CPU's worth of time was rejected as two."""
    one_cpu_check(cpu_seconds=0.12, wall_seconds=0.125, call_seconds=0.0003)
    with pytest.raises(Finished):
        one_cpu_check(cpu_seconds=0.3, wall_seconds=0.125, call_seconds=0.0003)


def test_unfrozen_outcome_is_rejected_on_either_side():
    grading = types.SimpleNamespace(sides={}, job=types.SimpleNamespace(time_s=10), _reference_failed=lambda *a: None)
    for role in ("submission",):
        with pytest.raises(Finished) as raised:
            Grading._fail(
                grading, role, CallOutcome("unfrozen", detail="a process did not stop when paused"), "on size 8"
            )
        assert raised.value.verdict == feedback.REJECTED
        assert "could not be kept paused" in raised.value.message
    with pytest.raises(Finished) as raised:
        Grading._reference_failed(grading, CallOutcome("unfrozen", detail="x"), "on size 8")
    assert raised.value.verdict == feedback.REJECTED


def test_a_reference_cut_off_by_the_spent_budget_is_the_submissions_time_limit():
    grading = types.SimpleNamespace(job=types.SimpleNamespace(time_s=10))
    with pytest.raises(Finished) as raised:
        Grading._reference_failed(grading, CallOutcome("timeout", seconds=0.3), "on size 8")
    assert raised.value.verdict == feedback.TIME_LIMIT
    with pytest.raises(Finished) as raised:  # a reference that hangs on its own is the platform's problem
        Grading._reference_failed(grading, CallOutcome("timeout", seconds=9.0), "on size 8")
    assert raised.value.verdict == feedback.INTERNAL_ERROR


def test_imported_libraries_are_found_but_only_within_the_allowed_set():
    source = "import numpy as np\nfrom numpy.linalg import norm\nimport math, os\nfrom . import sibling\n\ndef f():\n    import scipy.signal\n"
    assert imports.imported_libraries(source) == ["numpy", "numpy.linalg", "math", "os", "scipy.signal"]
    assert imports.imported_libraries(source, {"numpy", "math"}) == ["numpy", "numpy.linalg", "math"]
    assert imports.imported_libraries("def broken(:\n") == []


def test_memory_made_resident_at_import_counts_against_the_submission(tmp_path):
    """The reference and the submission do the same work; the submission also
    holds a pool it filled at import. Its peak must include the pool."""
    pooled = f"""
    import numpy as np

    POOL = np.ones({POOL_MB} * 1024 * 1024 // 8)

    def transform(x):
        return np.sqrt(x * x + 1.0) * 2.0 - x + (POOL[0] - 1.0)
    """
    reference = """
    import numpy as np

    def transform(x):
        return np.sqrt(x * x + 1.0) * 2.0 - x + 0.0
    """
    run = run_job(tmp_path, pooled, reference, sizes=[1000], repeats=3)
    assert run.verdict == "accepted", run.report["message"]
    assert run.report["peak_memory_bytes"] >= POOL_MB * 1024 * 1024
    assert run.report["reference_peak_memory_bytes"] < POOL_MB * 1024 * 1024 // 4


BUSY_LOOP = "import time\nend = time.time() + {seconds}\nwhile time.time() < end:\n    pass\n"


def busy_process(cpu, seconds):
    child = subprocess.Popen([sys.executable, "-c", BUSY_LOOP.format(seconds=seconds)])
    os.sched_setaffinity(child.pid, {cpu})
    return child


def test_a_call_that_shares_its_cpu_is_seen_waiting_for_it():
    """Three busy processes on one CPU for 0.4 s: 1.2 s of wanting the CPU, at most
    0.4 s of having it, so together they wait at least 0.8 s (more if anything else
    runs there). Run time could not add up to that: one CPU gives 0.4 s at most.
    This is what a timed call's waited_seconds reports."""
    cpu = max(os.sched_getaffinity(0))
    busy = [busy_process(cpu, 30.0) for _ in range(3)]  # ended below, once measured
    try:
        time.sleep(0.2)
        started = time.monotonic()
        before = [procs.tree_schedule(child.pid).waited_ns for child in busy]
        time.sleep(0.4)
        waited = [(procs.tree_schedule(child.pid).waited_ns - start) / 1e9 for child, start in zip(busy, before)]
        window = time.monotonic() - started
    finally:
        for child in busy:
            child.kill()
            child.wait()
    assert sum(waited) >= 0.6, waited
    assert all(0 <= each <= window for each in waited), (waited, window)


def test_a_process_not_of_our_tree_has_no_wait_read():
    schedule = procs.tree_schedule(1)  # init is nobody's child here: nothing of it is read
    assert (schedule.ran_ns, schedule.waited_ns, schedule.threads) == (0, 0, frozenset())


def schedule(ran_ms, waited_ms, threads=((7, "7"),), last_pid=7):
    return procs.Schedule(int(ran_ms * 1e6), int(waited_ms * 1e6), frozenset(threads), last_pid)


def test_time_another_process_held_the_cpu_is_taken_off_a_call():
    """A 30 ms call of which the runner ran 20 ms and waited 10 ms while a busy
    loop had its CPU: 10 ms were not the code's."""
    assert procs.held_by_others_seconds(schedule(0, 0), schedule(20, 10), 0.030) == pytest.approx(0.010)


def test_a_tree_waiting_behind_its_own_threads_keeps_that_time():
    """Two threads of the submission queueing on its one CPU wait while each other
    runs: 30 ms of waiting in a 30 ms call the tree ran throughout is its own time."""
    two_threads = ((7, "7"), (7, "8"))
    assert procs.held_by_others_seconds(schedule(0, 0, two_threads), schedule(30, 30, two_threads), 0.030) == 0.0
    # ...and where it also slept, only the time it was off the CPU can come off.
    assert procs.held_by_others_seconds(
        schedule(0, 0, two_threads), schedule(20, 40, two_threads), 0.030
    ) == pytest.approx(0.010)


def test_nothing_comes_off_a_call_whose_threads_changed():
    """A helper thread that ran the work and ended takes its run time out of the
    sums while the main thread's wait for it stays in: such a call keeps its wall time."""
    assert procs.held_by_others_seconds(schedule(0, 0, ((7, "7"), (7, "8"))), schedule(5, 25), 0.030) is None
    assert procs.held_by_others_seconds(schedule(0, 0), schedule(5, 25, last_pid=9), 0.030) is None
    assert procs.held_by_others_seconds(None, schedule(5, 25), 0.030) is None


def record_with(reference_s, waited_s, size=8000):
    record = SizeRecord(size)
    record.times["reference"] = list(reference_s)
    record.waited["reference"] = list(waited_s)
    return record


def test_a_reference_call_counts_as_contended_past_its_share_and_floor():
    # 5% of a 10 ms call is 0.5 ms, plus the 0.2 ms floor: 0.7 ms.
    record = record_with([0.01] * 4, [0.0006, 0.0008, None, 0.0])
    assert per_size.contended_calls(record) == 1
    assert per_size.contended_calls(record_with([0.0001], [0.00019])) == 0  # waking up for a tiny call


def test_the_learner_is_told_when_the_machine_was_busy_at_a_size():
    quiet = record_with([0.01] * 10, [0.0] * 9 + [0.005], size=1000)  # one contended call in ten: below the share
    busy = record_with([0.01] * 10, [0.005] * 2 + [0.0] * 8, size=8000)  # two in ten: at it
    assert per_size.busy_sizes([quiet, busy]) == {8000: (2, 10)}
    assert per_size.busy_sizes([quiet]) == {}
    busy.stopped = per_size.STOPPED_PRECISE  # its interval came within the bound all the same: nothing to say
    assert per_size.busy_sizes([quiet, busy]) == {}
    note = feedback.busy_note({8000: (2, 10)})
    assert note.startswith(
        "The grading machine was busy: another process held the reference's CPU during part of its "
        "timed calls (2 of 10 at size 8,000)"
    )


def test_a_grading_on_a_busy_machine_says_so(tmp_path):
    """Three busy processes on every CPU the grading may use: the reference's calls wait for
    their CPU, and the accepted report says the machine was busy (its figures are kept) at
    each size, and only each size, where that left the interval wider than its bound."""
    busy = [busy_process(cpu, 120.0) for cpu in sorted(os.sched_getaffinity(0)) for _ in range(3)]
    try:
        run = run_job(tmp_path, VECTOR_SOLUTION)
    finally:
        for child in busy:
            child.kill()
            child.wait()
    assert run.verdict == "accepted", run
    assert run.report["speedup"] is not None
    assert any(any(entry["calls"]["reference_waited_s"]) for entry in run.report["sizes"]), "the reference never waited"
    for entry in run.report["sizes"]:
        record = record_with(entry["calls"]["reference_s"], entry["calls"]["reference_waited_s"], entry["size"])
        record.stopped = entry["stopped"]
        named = f"at size {entry['size']:,}" in run.report["message"]
        assert named == bool(per_size.busy_sizes([record])), (entry["stopped"], run.report["message"])


def test_a_paused_process_that_stays_paused_shows_no_run(sleeper):
    time.sleep(0.2)
    procs.freeze_all_except(None)
    snapshot = procs.paused_snapshot()
    assert sleeper.pid in snapshot
    time.sleep(0.05)
    assert procs.ran_while_paused(snapshot) is None
    procs.resume_tree(sleeper.pid)


def test_a_paused_process_woken_in_between_is_caught_whatever_woke_it(sleeper):
    """Issue 29's freeze escape: a process resumed by its own timer's SIGCONT and stopped
    again before the next check looks stopped at both ends; its CPU time says it ran."""
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.2)
        procs.freeze_all_except(None)
        snapshot = procs.paused_snapshot()
        os.kill(spinner.pid, 18)  # SIGCONT, as the escapee's timer sent it
        time.sleep(0.05)
        os.kill(spinner.pid, 19)  # SIGSTOP: paused again before anyone looks
        assert procs.wait_until_stopped([spinner.pid])
        assert "paused process" in procs.ran_while_paused(snapshot)
    finally:
        spinner.kill()
        spinner.wait()
        procs.resume_tree(sleeper.pid)


def test_a_paused_process_that_exits_in_between_is_caught(sleeper):
    time.sleep(0.2)
    procs.freeze_all_except(None)
    snapshot = procs.paused_snapshot()
    sleeper.kill()
    sleeper.wait()
    assert procs.ran_while_paused(snapshot) == f"paused process {sleeper.pid} exited"


def test_a_reference_call_held_off_its_cpu_is_disturbed_and_its_latency_is_not():
    held = CallOutcome("ok", seconds=0.060, off_cpu_seconds=0.040)
    assert "held off its CPU for 40 ms of 60 ms" in Grading._disturbance(held, "call")
    assert Grading._disturbance(CallOutcome("ok", seconds=0.060, off_cpu_seconds=0.0004), "call") is None
    assert Grading._disturbance(CallOutcome("ok", seconds=0.060, off_cpu_seconds=None), "call") is None


def test_a_reference_kept_off_its_cpu_in_every_call_is_never_a_figure(tmp_path):
    """Issue 29's stopped and stretched reference, whatever held it: its calls are
    timed again, and a grading where that keeps happening ends without a figure."""
    held_reference = """
    import time

    def transform(x):
        time.sleep(0.03)
        return x * x
    """
    run = run_job(
        tmp_path,
        "def transform(x):\n    return x * x\n",
        held_reference,
        sizes=[1000],
        repeats=8,
        allowed_imports=["numpy", "time"],
    )
    assert run.verdict == "rejected", run.report["message"]
    assert "could not be timed undisturbed" in run.report["message"]
    assert run.report["speedup"] is None


def test_a_reference_held_in_two_calls_of_three_is_timed_again_not_rejected(tmp_path):
    """A busy host (preemption, a hypervisor's stolen time) disturbs a share of a
    short reference call's pairs, at times most of them: they are timed again and
    the honest answer still gets its figure."""
    mostly_held_reference = """
    import time

    calls = 0

    def transform(x):
        global calls
        calls += 1
        if calls % 3:
            time.sleep(0.03)
        return x * x
    """
    run = run_job(
        tmp_path,
        "def transform(x):\n    return x * x\n",
        mostly_held_reference,
        sizes=[1000],
        repeats=8,
        allowed_imports=["numpy", "time"],
    )
    assert run.verdict == "accepted", run.report["message"]
    assert run.report["speedup"] is not None
    # Two disturbed pairs for each one kept: past six, the rule before harness 1.14 (more disturbed
    # than kept, and over five) gave up. How many exactly depends on the runs the plan makes.
    assert run.report["sizes"][0]["retimed_pairs"] > 5


def test_a_reference_that_dies_once_the_submission_is_loaded_is_the_submissions_verdict():
    """Issue 29: SIGSEGV sent to the reference mid-call (F_SETSIG) read as internal_error."""
    crashed = CallOutcome("died", detail="killed by signal 11 (SIGSEGV)")
    both_loaded = types.SimpleNamespace(sides={"reference": None, "submission": None})
    with pytest.raises(Finished) as raised:
        Grading._reference_failed(both_loaded, crashed, "on size 8")
    assert raised.value.verdict == feedback.REJECTED
    assert "SIGSEGV" in raised.value.message
    reference_alone = types.SimpleNamespace(sides={"reference": None})
    with pytest.raises(Finished) as raised:
        Grading._reference_failed(reference_alone, crashed, "while loading the module")
    assert raised.value.verdict == feedback.INTERNAL_ERROR


HELD_MB = 64


def test_memory_kept_in_unmapped_memfds_counts_against_the_submission(tmp_path):
    """Issue 29: eight unmapped memfds held 320 MB in no resident set, outside /tmp, and
    the report said 49 MiB. Here the submission keeps 64 MB that way and answers honestly."""
    # `os` is outside every allow-list; the hostile suite's typing trick reaches it anyway.
    holder = f"""
    import typing

    import numpy as np


    def _real_builtins(hint: "lambda: [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0].__init__.__globals__['__builtins__']"):
        pass


    os = typing.get_type_hints(_real_builtins)["hint"]()["__import__"]("os")
    HELD = []
    for _ in range(4):
        fd = os.memfd_create("cache")
        os.posix_fallocate(fd, 0, {HELD_MB} * 1024 * 1024 // 4)
        HELD.append(fd)

    def transform(x):
        return np.sqrt(x * x + 1.0)
    """
    run = run_job(tmp_path, holder, sizes=[1000], repeats=3, allowed_imports=["numpy", "typing"])
    assert run.verdict == "accepted", run.report["message"]
    assert run.report["peak_memory_bytes"] >= HELD_MB * 1024 * 1024
    assert run.report["reference_peak_memory_bytes"] < HELD_MB * 1024 * 1024 // 2


def test_a_mapped_memfd_is_counted_once_in_rss_not_again_as_held():
    fd = os.memfd_create("mapped")
    try:
        os.posix_fallocate(fd, 0, 8 * 1024 * 1024)
        assert procs.unmapped_shared_bytes([os.getpid()]) >= 8 * 1024 * 1024
        import mmap

        with mmap.mmap(fd, 8 * 1024 * 1024):
            assert procs.unmapped_shared_bytes([os.getpid()]) < 8 * 1024 * 1024
    finally:
        os.close(fd)
