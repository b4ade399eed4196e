"""Every attack in attacks/ graded through the pipeline learners reach
(grader.grading.grade, real harness, on bubblewrap and on Docker: the sandbox_backend fixture) against the
suite's tiny exercise. Each gets an honest verdict from its allowed set; none
leaks a host secret or the per-run key, writes to the host or leaves a process
behind; no speedup or memory figure is better than honest work can earn; and an
honest submission graded right afterwards is still accepted."""

import json

import pytest

from grader import grading
from grader.grading import Exercise, grade
from submissions.states import Verdict

from .conftest import ATTACKS, ESCAPED, REFERENCE_MARKER, attack_code, tiny_exercise

V = Verdict
#: Escapes fail silently and the attack answers correctly. (Every attack gets past the source policy,
#: so "rejected" or a crash would mean the attack itself broke, and would hide whether the layers held.)
ESCAPE = {V.ACCEPTED}
#: Attacks on timing compute the right answer and cheat on the clock: caught, or scored honestly.
TIMING = {V.ACCEPTED, V.WRONG_ANSWER, V.REJECTED, V.RUNTIME_ERROR}
WRONG = {V.WRONG_ANSWER, V.REJECTED}
#: How far an attack's speedup may exceed the honest run of the same NumPy chain before it counts as
#: faked: generous for noise on a shared 2-core machine, far below what any cheat here would score.
HONEST_SLACK = 2.0
#: memory_hide_in_child holds a 64 MB scratch buffer in a grandchild: a report that counts it shows at least this.
HIDDEN_SCRATCH_BYTES = 64 * 1024 * 1024
#: memory_pool_at_import makes a 96 MB pool resident at import and works in it in every call.
IMPORT_POOL_BYTES = 96 * 1024 * 1024
#: memory_hide_in_memfd keeps 24 memfds of 14 MB allocated but unmapped from import on.
MEMFD_BYTES = 24 * 14 * 1024 * 1024
#: A reference crashed from outside is the submission's doing, never the grader's failure.
NOT_INTERNAL = {V.ACCEPTED, V.REJECTED, V.RUNTIME_ERROR}
#: Code that tries to use more than its one CPU fails in its own code (the kernel refuses
#: the change of affinity), or is rejected; never accepted, whatever the host's CPU count.
CPU_WIDENED = {V.RUNTIME_ERROR, V.REJECTED}


def no_escape(report, baseline):
    assert ESCAPED not in json.dumps(report), report.get("message")


def honest_speedup(report, baseline):
    """Accepted only with a speedup honest work of the same kind gets: the lower
    end of its confidence interval may not clear twice the honest chain's (a
    cheat scores tens to thousands of times; noise on small sizes does not move
    a whole interval), and no other size's interval may lie wholly beyond reach.

    Per size the interval, not the median: on a loaded machine an honest answer's
    median at the smallest size (calls of tens of microseconds, five pairs) read
    8.3x once, in a whole-suite run that shared the machine with other work (4
    December; the failure kept no per-call times, but a median that high from
    an answer computing the reference's own expression means most of its pairs'
    reference calls ran slow). A cheat that wins on every pair, as a cache does
    once inputs repeat, still moves the whole interval."""
    if report["verdict"] == V.ACCEPTED:
        ceiling = HONEST_SLACK * max(1.0, baseline["chain"]["speedup"])
        assert report["speedup"] is not None and report["speedup_ci"] is not None
        assert report["speedup_ci"][0] <= ceiling, (
            f"fake speedup {report['speedup']:.2f}x, CI {report['speedup_ci']} (honest chain {baseline['chain']['speedup']:.2f}x)"
        )
        for row in report["sizes"]:
            if row.get("speedup") is not None:
                calls = row.get("calls") or {}
                assert row["speedup_ci"] is not None and row["speedup_ci"][0] <= 3 * ceiling, (
                    f"fake speedup {row['speedup']:.2f}x, CI {row['speedup_ci']} at size {row['size']}; calls "
                    f"{calls.get('reference_s')} / {calls.get('submission_s')}, waiting for the CPU "
                    f"{calls.get('reference_waited_s')} / {calls.get('submission_waited_s')}"
                )


#: The attacks that hide work in a helper thread do HIDDEN_WORK_ROUNDS times the honest chain's
#: work per call, so timed honestly they read about that many times slower than the chain.
HIDDEN_WORK_ROUNDS = 40


def hidden_work_timed(report, baseline):
    """Accepted only with a speedup that counts the helper thread's work: at most a
    sixth of the honest chain's figure (timed honestly it is about a fortieth; a
    grader that took the main thread's wait for the helper off the call's time
    reads it far above that: docs/benchmarks.md, "Grading")."""
    honest_speedup(report, baseline)
    if report["verdict"] == V.ACCEPTED:
        ceiling = max(1.0, baseline["chain"]["speedup"]) / 6
        assert report["speedup"] <= ceiling, (
            f"the helper's work was not timed: {report['speedup']:.3f}x (honest chain "
            f"{baseline['chain']['speedup']:.2f}x, the attack does {HIDDEN_WORK_ROUNDS} times its work)"
        )


def test_the_per_size_check_tells_noise_from_a_cheat():
    """What honest_speedup lets through and what it stops: a median like 4 December's
    failure with an interval that still reaches honest figures, and a cheat that wins
    on every pair at the small size only."""
    baseline = {"chain": {"speedup": 1.01}}

    def accepted(small_speedup, small_ci):
        return {
            "verdict": V.ACCEPTED,
            "speedup": 1.05,
            "speedup_ci": [0.95, 1.2],
            "sizes": [
                {"size": 20000, "speedup": small_speedup, "speedup_ci": small_ci},
                {"size": 80000, "speedup": 1.05, "speedup_ci": [0.95, 1.2]},
            ],
        }

    honest_speedup(accepted(8.26, [0.97, 9.1]), baseline)
    with pytest.raises(AssertionError, match="at size 20000"):
        honest_speedup(accepted(25.0, [19.0, 31.0]), baseline)
    with pytest.raises(AssertionError, match="at size 20000"):
        honest_speedup(accepted(25.0, None), baseline)


def not_forged(report, baseline):
    assert report.get("message") != "forged" and report.get("harness_version") != "forged"
    assert report.get("speedup") != 1000.0
    honest_speedup(report, baseline)


def honest_memory(report, baseline):
    honest_speedup(report, baseline)
    if report["verdict"] == V.ACCEPTED:
        assert report["peak_memory_bytes"] >= HIDDEN_SCRATCH_BYTES, (
            f"peak memory {report['peak_memory_bytes']} hides the {HIDDEN_SCRATCH_BYTES >> 20} MB the submission's grandchild held"
        )


def counts_import_pool(report, baseline):
    honest_speedup(report, baseline)
    assert report["peak_memory_bytes"] >= IMPORT_POOL_BYTES, (
        f"peak memory {report['peak_memory_bytes']} hides the {IMPORT_POOL_BYTES >> 20} MB pool made at import"
    )


def counts_memfds(report, baseline):
    honest_speedup(report, baseline)
    if report["verdict"] == V.ACCEPTED:
        # Within a few pages: the figure is the peak less the runner's baseline (a hiding answer read 1.6 MiB).
        assert report["peak_memory_bytes"] >= 0.95 * MEMFD_BYTES, (
            f"peak memory {report['peak_memory_bytes']} hides the {MEMFD_BYTES >> 20} MB the submission keeps in memfds"
        )


def no_reference_source(report, baseline):
    assert REFERENCE_MARKER not in json.dumps(report), "the reference's source reached the report"


def nothing(report, baseline):
    pass


#: attack file -> (verdicts it may get, extra assertion on the report)
ATTACK_TABLE = {
    # escape
    "escape_network_loopback": (ESCAPE, no_escape),
    "escape_network_any": (ESCAPE, no_escape),
    "escape_read_host_files": (ESCAPE, no_escape),
    "escape_environment_secrets": (ESCAPE, no_escape),
    "escape_proc_host_processes": (ESCAPE, no_escape),
    "escape_write_job_dir": (ESCAPE, no_escape),
    "escape_symlinks_planted": (ESCAPE, no_escape),
    "escape_read_process_memory": (ESCAPE, no_escape),
    "escape_inherited_fds": (ESCAPE, no_escape),
    "escape_control_other_processes": (ESCAPE, no_escape),
    # The job's files are readable at /job; reading them may fail the run, never reach the report.
    "escape_read_reference_files": (ESCAPE | {V.RUNTIME_ERROR}, no_reference_source),
    "sandbox_root_writable": (ESCAPE, no_escape),
    "forge_report_with_stdin_key": (ESCAPE | {V.WRONG_ANSWER, V.OUTPUT_LIMIT}, not_forged),
    "forge_report_plain": (ESCAPE | {V.OUTPUT_LIMIT}, not_forged),
    # exhaustion
    "exhaust_fork_bomb": ({V.TIME_LIMIT, V.MEMORY_LIMIT, V.RUNTIME_ERROR, V.REJECTED}, nothing),
    "exhaust_thread_bomb": ({V.ACCEPTED, V.RUNTIME_ERROR, V.REJECTED, V.TIME_LIMIT}, honest_speedup),
    "exhaust_memory_bomb": ({V.MEMORY_LIMIT, V.RUNTIME_ERROR}, nothing),
    "exhaust_disk_fill": ({V.ACCEPTED, V.RUNTIME_ERROR}, honest_speedup),
    # Within its limit: the sandbox's cap leaves the reference and the harness their own room.
    "exhaust_memory_nearly_full": ({V.ACCEPTED}, honest_speedup),
    "exhaust_fill_sandbox_root": ({V.ACCEPTED, V.MEMORY_LIMIT, V.RUNTIME_ERROR}, honest_speedup),
    "exhaust_stdout_flood": ({V.OUTPUT_LIMIT, V.ACCEPTED}, honest_speedup),
    "exhaust_stderr_flood": ({V.OUTPUT_LIMIT, V.ACCEPTED}, honest_speedup),
    "exhaust_huge_line": ({V.OUTPUT_LIMIT, V.ACCEPTED}, honest_speedup),
    "exhaust_endless_loop": ({V.TIME_LIMIT}, nothing),
    "exhaust_sleep_forever": ({V.TIME_LIMIT}, nothing),
    "exhaust_blocking_read": ({V.TIME_LIMIT}, nothing),
    "exhaust_ignore_sigterm": ({V.TIME_LIMIT}, nothing),
    "exhaust_daemon_survivor": (ESCAPE, honest_speedup),
    # timing integrity
    "timing_patch_clocks": (TIMING, honest_speedup),
    "timing_patch_numpy": (TIMING, honest_speedup),
    "timing_cache_by_shape": (TIMING, honest_speedup),
    "timing_cache_by_id": (TIMING, honest_speedup),
    "timing_cache_by_content": (TIMING, honest_speedup),
    "timing_precompute_at_import": (TIMING, honest_speedup),
    "timing_lazy_result": (TIMING, honest_speedup),
    "timing_thread_hog": (TIMING | {V.TIME_LIMIT}, honest_speedup),
    "timing_work_in_passing_thread": (TIMING | {V.TIME_LIMIT}, hidden_work_timed),
    "timing_wait_behind_own_thread": (TIMING | {V.TIME_LIMIT}, hidden_work_timed),
    "timing_process_hog": (TIMING | {V.TIME_LIMIT}, honest_speedup),
    "timing_stop_reference": (TIMING | {V.TIME_LIMIT}, honest_speedup),
    # Helpers that resume themselves from the pause (POSIX timers sending SIGCONT) and signal
    # the reference through F_SETOWN + F_SETSIG + O_ASYNC pipes, which no kill() filter sees.
    "timing_stretch_echo": (TIMING | {V.TIME_LIMIT}, honest_speedup),
    "timing_stop_reference_fsetown": (TIMING | {V.TIME_LIMIT}, honest_speedup),
    "timing_wake_from_freeze": (TIMING | {V.TIME_LIMIT}, honest_speedup),
    # The kernel refuses any change of affinity (PermissionError in the learner's code).
    "timing_widen_cpu_affinity": (CPU_WIDENED, honest_speedup),
    "timing_widen_affinity_during_call": (CPU_WIDENED, honest_speedup),
    # Each call's grandchild is a stray the supervisor keeps paused (no work outside a call), so their 64 MB add
    # up; about 450 MB by the end, and its 512 MiB limit may stop the run first, as honestly.
    "memory_hide_in_child": (TIMING | {V.TIME_LIMIT, V.MEMORY_LIMIT}, honest_memory),
    "memory_pool_at_import": ({V.ACCEPTED}, counts_import_pool),
    "memory_hide_in_memfd": ({V.ACCEPTED, V.MEMORY_LIMIT}, counts_memfds),
    # the harness itself
    "harness_kill_parent": ({V.RUNTIME_ERROR, V.REJECTED}, nothing),
    "harness_kill_everything": ({V.RUNTIME_ERROR, V.REJECTED}, nothing),
    "harness_exit_early": ({V.RUNTIME_ERROR, V.REJECTED}, nothing),
    "harness_sys_exit_at_import": ({V.RUNTIME_ERROR, V.REJECTED}, nothing),
    "harness_close_fds": ({V.ACCEPTED, V.RUNTIME_ERROR, V.REJECTED}, honest_speedup),
    "harness_signal_supervisor": ({V.ACCEPTED}, honest_speedup),
    "harness_frame_introspection": (ESCAPE, no_escape),
    "harness_kill_reference_fsetsig": (NOT_INTERNAL, honest_speedup),
    # The reference rewritten through /proc/<pid>/mem opened while it was dumpable: the
    # submission's wrong answer (-x) must never be accepted.
    "reference_rewrite_proc_mem": (WRONG, nothing),
    # correctness integrity
    "correct_nan": (WRONG, nothing),
    "correct_inf": (WRONG, nothing),
    "correct_float32": (WRONG, nothing),
    "correct_int_dtype": (WRONG, nothing),
    "correct_wrong_shape": (WRONG, nothing),
    "correct_truncated": (WRONG, nothing),
    "correct_list": (WRONG, nothing),
    "correct_ndarray_subclass": (WRONG, nothing),
    "correct_array_interface": (WRONG, nothing),
    "correct_memoryview": (WRONG, nothing),
    "correct_mutate_input": (WRONG, nothing),
}


@pytest.fixture(scope="module")
def exercise():
    spec, files = tiny_exercise()
    return Exercise(slug=spec["slug"], spec=spec, files=files)


@pytest.fixture(scope="module")
def baseline(exercise, sandbox_backend):
    """Honest figures measured in this run: the reference's own chain submitted
    as-is (about 1x by construction) and the in-place model solution."""
    chain = grade(exercise, exercise.files["reference.py"], backend=sandbox_backend)
    solution = grade(exercise, exercise.files["solution.py"], backend=sandbox_backend)
    assert chain["verdict"] == V.ACCEPTED, chain.get("message")
    assert solution["verdict"] == V.ACCEPTED, solution.get("message")
    return {"chain": chain, "solution": solution}


@pytest.fixture
def captured_keys(monkeypatch):
    """The per-run keys grading generates, so a test can assert none leaks."""
    keys = []
    original = grading.new_secret

    def recording():
        key, line = original()
        keys.append(key.decode("ascii"))
        return key, line

    monkeypatch.setattr(grading, "new_secret", recording)
    return keys


def test_table_covers_every_attack_file():
    files = {path.stem for path in ATTACKS.glob("*.py")}
    assert files == set(ATTACK_TABLE), f"untabled: {files - set(ATTACK_TABLE)}; missing: {set(ATTACK_TABLE) - files}"
    assert len(files) >= 30


@pytest.mark.parametrize("name", list(ATTACK_TABLE))
def test_attack_gets_an_honest_verdict(name, sandbox_backend, exercise, baseline, host_guard, captured_keys):
    allowed, extra_check = ATTACK_TABLE[name]
    report = grade(exercise, attack_code(name), backend=sandbox_backend)
    text = json.dumps(report)
    assert report["verdict"] in allowed, (
        f"{name}: {report['verdict']} ({report['message']}); failure={report.get('failure')}"
    )
    assert report["verdict"] != V.INTERNAL_ERROR
    assert report["message"], "the learner gets no explanation"
    host_guard.assert_not_in(text, "the report")
    for key in captured_keys:
        assert key not in text, "the per-run key leaked into the report"
    extra_check(report, baseline)
    healthy = grade(exercise, exercise.files["solution.py"], mode="check", backend=sandbox_backend)
    assert healthy["verdict"] == V.ACCEPTED, f"an honest submission after {name} got {healthy['verdict']}"
