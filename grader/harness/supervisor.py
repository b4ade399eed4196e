"""The trusted side of a grading run: it decides the verdict and every number.

Order of work:
  1. policy check of submission.py (no code runs if it fails);
  2. both runners start and load their module (in parallel, untimed);
  3. correctness on edge sizes and inputs.edge_cases(): reference first, then
     the submission; the submission's very first call is reported as
     first_call_s (it includes any JIT compilation);
  4. check mode: correctness on the check sizes and stop;
     full mode, per size: one warm-up pair (reference first; its times are the
     per-size first_call_s), then pairs on fresh inputs, the order within
     each pair drawn at random: at least MIN_PAIRS and at most `repeats`,
     stopping once the speedup's interval is tight (HEADLINE_HALF_WIDTH).
     Every call's answer is compared with the reference's answer for the
     same input.

On GPU the timed window excludes the host<->device copies (see sides.py);
copy_phase_overrun() keeps work from hiding in them. The window still holds
the harness's own work: on CPU the transfers (inputs in, result out), on GPU
the round trip and the device synchronisation. So in every timed pair an
"echo" call measures it on the trusted reference runner and the reported
times are net of that (see Grading._echo).

Inputs come from inputs.make_inputs(size, seed) with a new seed from
os.urandom for every pair, so no answer can be cached by content, identity or
address. The submission's runner is stopped whenever it is not in its own
call (see sides.py).
"""

import math
import os
import random
import shutil
import tempfile
import time
import types
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, NoReturn, NotRequired, TypedDict, TypeVar

import numpy as np

from . import (
    HARNESS_VERSION,
    compare,
    custom_input,
    feedback,
    failing_call,
    imports,
    input_rules,
    ipc,
    per_size,
    procs,
    stats,
)
from .custom_input import CustomInputEntry
from .gpu import MemoryProbe
from .job import Job, JobError, load_job
from .measure import on_tmpfs
from .per_size import Role, SizeEntry, SizeRecord
from .sides import CallOutcome, InputBundle, ProfileRow, Side

if TYPE_CHECKING:
    from .protocol import Progress

T = TypeVar("T")

NS = 1_000_000_000
#: A submission call may take this many times the reference's time (plus a second).
TIME_FACTOR = 10
TIME_GRACE_S = 1.0
#: Seconds added to the per-call limit of a call on an input the submission has not
#: seen yet (every edge input and each size's warm-up; none of them timed): such a
#: call may compile for it (Numba per type signature, CuPy per kernel and shape
#: class), which can take far longer than the reference's whole call.
NEW_INPUT_GRACE_S = 10.0
#: Fraction of limits.time_s the harness plans to use; the rest is margin to report.
TIME_SHARE = 0.9
#: Timed pairs every size gets before the stopping rule or the time budget may
#: end its timing short of the exercise's `repeats` (the most it gets).
MIN_PAIRS = 5
#: The sequential stopping rule (stats.precise_enough; docs/benchmarks.md, "When
#: timing stops"), fixed before any data is seen: after MIN_PAIRS pairs, a size
#: stops once its speedup's 95% interval lies within this fraction of the
#: speedup. The headline (largest) size is the figure that is ranked and acted
#: on; the smaller sizes only draw the scaling curve, so a looser bound.
HEADLINE_HALF_WIDTH = 0.05
SCALING_HALF_WIDTH = 0.10
#: The headline size is timed in this many runs, each by a fresh pair of runner
#: processes with its own untimed warm-up, and its interval resamples runs, then
#: pairs within them (stats.speedup_interval's runs): what a process draws (its
#: memory layout and pages, the moment it runs) moves a figure from one grading
#: to the next, and one process's pairs cannot show it (docs/benchmarks.md,
#: "An interval that covers the next grading"). The exercise's `repeats` pairs
#: are shared among them; the stopping rule is asked at the end of a run, from
#: the MIN_RUNS-th on.
HEADLINE_RUNS = 5
MIN_RUNS = 3
MIN_PAIRS_PER_RUN = 2
#: A new run's reference warms up at the headline size only where its call
#: there takes at most this long (see Grading._new_run).
WARM_UP_REFERENCE_MAX_S = 0.25
#: The most of the time limit the extra runs' starts may cost (Grading._pairs_per_run).
RESTART_BUDGET_SHARE = 0.1
#: Safety factor on the time a pair is expected to take when planning the budget.
PLAN_MARGIN = 1.25
#: CPU the submission may use while not in a call before it counts as background work.
OUTSIDE_CPU_ALLOWANCE_S = 0.1
OUTSIDE_CPU_FRACTION = 0.02
#: The untimed GPU copy phases (staging the inputs, fetching the result) move
#: identical bytes through identical harness code on both sides, so the
#: submission's median may exceed the reference's only by noise: by at most
#: the larger of these seconds and this fraction of the reference's median.
COPY_PHASE_SLACK = (0.002, 0.5)
#: Appended to the learner's message on GPU exercises.
GPU_TIMING_NOTE = (
    "On the GPU, copying data between host and device is not part of the timed region, and the grader's own "
    "round trip and device synchronisation are measured apart and subtracted from both sides. CuPy's memory pool "
    "is kept between timed calls, as in your own timing loop, so a temporary array costs its memory traffic, "
    "not an allocation."
)
#: How much CPU time a call may show beyond its wall time before it counts as
#: more than one CPU: a fraction of the wall time, plus clock ticks (CPU time
#: is counted in ticks, so a short call can read up to a tick or two over).
ONE_CPU_SLACK = (0.10, 2)
#: The learner's message when the sandbox could not be paused around a timed call.
UNFROZEN_MESSAGE = (
    "A process your code started could not be kept paused {where} ({detail}). Each side is timed with every other "
    "process in the sandbox stopped, so this run cannot be measured."
)
#: A reference call that times out after less than this share of the whole
#: budget stopped because the budget was spent, not because it hangs.
REFERENCE_HANG_SHARE = 0.5
#: A profiled call is planned at this many times the timed calls' median (cProfile
#: and the line timer on a tight Python loop: 9-16x, bench/profile_overhead.py), plus
#: a margin; its budget is twice the plan.
#: It is made at the largest size whose plan fits both the budget left and
#: PROFILE_MAX_S (a loop-bound answer is profiled on a smaller input rather than
#: lengthen every grading); when not even the smallest fits, it is skipped.
PROFILE_SLOWDOWN = 12
PROFILE_MARGIN_S = 0.5
PROFILE_MAX_S = 2.0
#: At most one progress note a second within a phase.
PROGRESS_INTERVAL_NS = NS
#: How far a new estimate of the time left may rise above what the previous one
#: still had left (a fraction of it, plus a second).
ETA_RISE_LIMIT = 0.25
#: How long a CPU reference call (or echo) may spend off its CPU, neither running
#: nor waiting for it, before its time is dropped as disturbed: seconds, plus a
#: fraction of the call (the harness's message latency is tens of microseconds;
#: a hypervisor's stolen time also shows here, hence the fraction).
OFF_CPU_SLACK = (0.001, 0.10)
#: A grading is given up once over DISTURBED_SHARE of the pairs it tried were
#: disturbed, and more than MAX_DISTURBED_PAIRS: a busy host's preemption and
#: stolen time can disturb most of a short call's pairs (docs/journal.md, "Honest
#: code rejected by a busy host's disturbed pairs"), timed again; a reference
#: held in nearly every call is not the host's noise.
MAX_DISTURBED_PAIRS = 10
DISTURBED_SHARE = 0.75
DISTURBED_MESSAGE = (
    "The reference could not be timed undisturbed {where}: {count} of its timed calls were held off their CPU "
    "(the last: {why}). Each side is timed with every other process in the sandbox paused, so this run cannot be "
    "measured."
)


class ProfileEntry(TypedDict):
    """The report's `profile` (_profile_entry)."""

    status: str
    reason: str
    size: int | None
    seconds: float | None
    functions: list[ProfileRow]
    lines: list[ProfileRow]
    traced_s: float | None


class Report(TypedDict):
    """The report the supervisor signs (empty_report's fields); a check on the
    learner's own input adds `custom_input`."""

    verdict: str
    speedup: float | None
    speedup_ci: list[float] | None
    peak_memory_bytes: int | None
    reference_peak_memory_bytes: int | None
    message: str
    sizes: list[SizeEntry]
    scaling_exponent: float | None
    reference_scaling_exponent: float | None
    first_call_s: float | None
    hint: str
    failure: Mapping[str, object] | None
    hardware: str
    cpus: int | None
    harness_version: str
    profile: ProfileEntry | None
    custom_input: NotRequired[CustomInputEntry]


class Finished(Exception):
    """Ends grading early with a verdict."""

    def __init__(
        self, verdict: str, message: str, failure: Mapping[str, object] | None = None, hint: str | None = None
    ) -> None:
        super().__init__(message)
        self.verdict = verdict
        self.message = message
        self.failure = failure
        self.hint = hint


def empty_report() -> Report:
    return {
        "verdict": feedback.INTERNAL_ERROR,
        "speedup": None,
        "speedup_ci": None,
        "peak_memory_bytes": None,
        "reference_peak_memory_bytes": None,
        "message": "",
        "sizes": [],
        "scaling_exponent": None,
        "reference_scaling_exponent": None,
        "first_call_s": None,
        "hint": "",
        "failure": None,
        "hardware": "cpu",
        "cpus": None,
        "harness_version": HARNESS_VERSION,
        "profile": None,
    }


def grade(
    job_dir: str,
    files: Mapping[str, str],
    started_ns: int,
    emit_progress: "Callable[[Progress], object] | None" = None,
) -> Report:
    """The report dict for the submission in `job_dir` graded by `files`, the job's
    trusted files (protocol.TRUSTED_FILES: name to text). Never raises.
    `emit_progress`, when given, is called with a progress dict (protocol.PROGRESS_*)
    at each change of phase and at most once a second within one."""
    report = empty_report()
    try:
        job = load_job(files.get("job.json"))
        for name in ("reference.py", "inputs.py"):
            if not isinstance(files.get(name), str):
                raise JobError(f"{name} is missing")
    except JobError as exc:
        report["message"] = f"The exercise is misconfigured: {exc}."
        report["hint"] = feedback.HINTS[feedback.INTERNAL_ERROR]
        return report
    return Grading(job_dir, job, files, started_ns, ProgressNotes(emit_progress, started_ns)).run()


class ProgressNotes:
    """Where the grading is, for the page's progress bar: every change of phase,
    and within a phase at most one note a second (never one per timed call).
    An estimate of the time left may fall as fast as the data says, but rises at
    most ETA_RISE_LIMIT above what the previous estimate still had left, so one
    slow pair does not make the page jump back by a minute."""

    def __init__(self, emit: "Callable[[Progress], object] | None", started_ns: int) -> None:
        self.emit = emit
        self.started_ns = started_ns
        self.phase: str | None = None
        self.last_ns = 0
        self.last_eta: tuple[float, int] | None = None  # (seconds, when it was given)

    def due(self, phase: str) -> bool:
        """Whether a note for `phase` would be sent now: callers skip the work of an estimate otherwise."""
        return self.emit is not None and (
            phase != self.phase or time.perf_counter_ns() - self.last_ns >= PROGRESS_INTERVAL_NS
        )

    def note(
        self,
        phase: str,
        eta_s: float | None = None,
        size_index: int | None = None,
        sizes: int | None = None,
        pair: int | None = None,
        pairs: int | None = None,
    ) -> None:
        if not self.due(phase):
            return
        assert self.emit is not None  # due() says so
        now = time.perf_counter_ns()
        self.phase, self.last_ns = phase, now
        eta_s = self._steadied(eta_s, now)
        self.emit(
            {
                "phase": phase,
                "size_index": size_index,
                "sizes": sizes,
                "pair": pair,
                "pairs": pairs,
                "elapsed_s": round((now - self.started_ns) / NS, 2),
                "eta_s": None if eta_s is None else round(eta_s, 1),
            }
        )

    def _steadied(self, eta_s: float | None, now: int) -> float | None:
        if eta_s is None:
            return None
        eta_s = max(eta_s, 0.0)
        if self.last_eta is not None:
            previous_s, given_ns = self.last_eta
            still_left_s = max(previous_s - (now - given_ns) / NS, 0.0)
            eta_s = min(eta_s, still_left_s * (1 + ETA_RISE_LIMIT) + 1.0)
        self.last_eta = (eta_s, now)
        return eta_s


class Grading:
    def __init__(
        self, job_dir: str, job: Job, files: Mapping[str, str], started_ns: int, progress: ProgressNotes | None = None
    ) -> None:
        self.job_dir = job_dir
        self.files = files
        self.progress = progress or ProgressNotes(None, started_ns)
        self.job = job
        self.deadline_ns = started_ns + int((job.time_s * TIME_SHARE - 0.5) * NS)
        self.order_rng = random.Random(os.urandom(16))
        self.report = empty_report()
        self.sides: dict[Role, Side] = {}
        self.scratch: str | None = None
        self.first_call_s: float | None = None
        self.records: dict[int, SizeRecord] = {}
        # The per-call limit applied to the submission's latest call (see _budget_ns).
        self.call_limit: tuple[float, float, float] | None = None
        self.edge_count = 0
        self.disturbed_pairs = 0
        # CPU time the submission's earlier runners spent between calls (_new_run),
        # and what each new run's start and warm-up took.
        self.outside_cpu_before_s = 0.0
        self.launch_ns = 0
        self.restart_ns: list[int] = []
        # The reference's parameter names, for the failing call's arguments (failing_call.py).
        self.parameter_names: list[str] = []
        # Both sides' outcomes of the latest pair once both answered (custom_input.py shows them).
        self.last_outcomes: dict[Role, CallOutcome] | None = None

    # -- the run --------------------------------------------------------------

    def run(self) -> Report:
        try:
            self._grade()
        except Finished as outcome:
            self._finish(outcome.verdict, outcome.message, outcome.failure, outcome.hint)
        except Exception as exc:  # the harness itself failed: say so, signed
            self._finish(feedback.INTERNAL_ERROR, "The grader failed unexpectedly.", {"internal": _where(exc)})
        finally:
            self._cleanup()
        return self.report

    def _grade(self) -> None:
        source = self._read_submission()
        problem = imports.check_source(source, self.job.allowed_imports, self.job.entry_point)
        if problem:
            failure = {"line": problem.line} if problem.line else None
            raise Finished(problem.verdict, problem.message, failure, problem.hint)
        self.sources: dict[Role, str] = {"reference": self.files["reference.py"], "submission": source}
        self.inputs = _load_trusted_module(self.files["inputs.py"], "inputs.py", "hotpath_inputs")
        self.parameter_names = input_rules.parameter_names(self.files["reference.py"], self.job.entry_point)
        self.check: compare.CustomCheck | None = None
        if self.files.get("check.py"):
            self.check = getattr(
                _load_trusted_module(self.files["check.py"], "check.py", "hotpath_check"), "check", None
            )
        self.progress.note("loading")
        self._start_runners()
        self.progress.note("checking")
        for label, args in self._edge_inputs():
            self._checked_pair(args, label, None, ("reference", "submission"), new_input=True)
            self.edge_count += 1
        if self.job.mode == "check":
            self._check_sizes()
        else:
            self._benchmark()
            self._profile()
        self._check_outside_work()
        self._check_copy_phases()
        self.progress.note("comparing")
        self._summarise()

    def _read_submission(self) -> str:
        try:
            with open(os.path.join(self.job_dir, "submission.py"), encoding="utf-8") as handle:
                return handle.read()
        except UnicodeDecodeError:
            raise Finished(feedback.RUNTIME_ERROR, "Your code is not valid UTF-8 text.") from None

    def _start_runners(self) -> None:
        self.scratch = tempfile.mkdtemp(prefix="hotpath-")
        tmpfs = on_tmpfs(self.scratch)
        probe = MemoryProbe() if self.job.target == "gpu" else None
        self.device_probe = probe if probe and probe.available else None
        self.tmpfs = tmpfs
        self.runner_cpus = _pin_cpus(self.job.runner_cpus, self.job.cpus)
        self.report["cpus"] = len(self.runner_cpus)
        launched_ns = time.perf_counter_ns()
        self._launch_sides()
        self.launch_ns = time.perf_counter_ns() - launched_ns

    def _launch_sides(self) -> None:
        """Starts both runners and loads their modules, then freezes the sandbox."""
        assert self.scratch is not None  # _start_runners made it
        harness_dir = os.path.dirname(os.path.abspath(__file__))
        role: Role
        # One after the other: a new process is dumpable until its runner marks it
        # otherwise, so the submission runner only starts once the reference runner has
        # said hello (non-dumpable by then). Otherwise the submission could open
        # /proc/<reference>/mem in that window and keep the file for later reads.
        for role in ("reference", "submission"):
            side = Side(
                role,
                os.path.join(self.job_dir, f"{role}.py"),
                self.sources[role],
                self.job,
                self.scratch,
                harness_dir,
                self.device_probe,
                self.tmpfs,
                cpus=self.runner_cpus,
            )
            if role == "submission":
                # Whatever the submission starts, even a double-forked orphan the supervisor
                # adopts, counts against the submission; the reference runner never does.
                side.trusted_peers = (self.sides["reference"].pid,)
            side.start()
            self.sides[role] = side
            outcome = side.wait_hello(self.deadline_ns)
            if outcome.status != "ok":
                self._fail(role, outcome, "while loading the module")
        self.report["hardware"] = self.sides["reference"].hardware or "cpu"
        try:
            procs.freeze_all_except(None)
        except procs.FreezeFailed as exc:
            raise Finished(
                feedback.REJECTED, UNFROZEN_MESSAGE.format(detail=exc, where="after loading the modules")
            ) from None

    def _new_run(self, size: int, label: str, record: SizeRecord) -> None:
        """Replaces both runners with fresh processes (anything the old ones
        started goes with them) and warms them up untimed, as the first run was:
        a checked pair at `size`; or, where the reference's call there takes over
        WARM_UP_REFERENCE_MAX_S, a checked pair at the smallest size and then the
        submission alone at `size` (such a call has no first-call cost worth a
        second one, while the submission may compile for its input)."""
        self.outside_cpu_before_s += self.sides["submission"].outside_cpu_seconds
        for side in self.sides.values():
            side.kill()
        procs.kill_all_descendants()
        for side in self.sides.values():
            assert side.process is not None and side.drain is not None  # every side here was started
            side.process.wait()
            side.drain.join(timeout=1)
        self.sides = {}
        self._launch_sides()
        both: tuple[Role, Role] = ("reference", "submission")
        if stats.median(record.times["reference"]) <= WARM_UP_REFERENCE_MAX_S:
            self._checked_pair(self._make_inputs(size), label, record, both, new_input=True)
            return
        smallest = min(self.job.sizes)
        self._checked_pair(self._make_inputs(smallest), f"size {smallest:,}", None, both, new_input=True)
        bundle = InputBundle(self._make_inputs(size))
        try:
            budget_ns = self._budget_ns("submission", record, {}, new_input=True)
            outcome = self.sides["submission"].call(
                bundle, budget_ns, self.deadline_ns, answer_bytes=record.answer_bytes, fresh_device_pool=True
            )
        finally:
            bundle.close()
        if outcome.status != "ok":
            record.correct = False
            self._fail("submission", outcome, f"on {label}")

    def _edge_inputs(self) -> Iterator[tuple[str, tuple[object, ...]]]:
        if self.job.custom_input is not None:
            return  # a run on the learner's own input runs that input alone
        for size in self.job.edge_sizes:
            yield f"edge size {size}", self._make_inputs(size)
        edge_cases = getattr(self.inputs, "edge_cases", None)
        if edge_cases is not None:
            for number, args in enumerate(edge_cases(), start=1):
                yield f"edge case {number}", tuple(args)

    def _check_sizes(self) -> None:
        if self.job.custom_input is not None:
            custom_input.run(self)
            return
        for size in self.job.sizes:
            self._checked_pair(
                self._make_inputs(size), f"size {size}", None, ("reference", "submission"), new_input=True
            )
        self.report["message"] = feedback.check_message(len(self.job.sizes), self.edge_count)
        self.report["sizes"] = [per_size.entry(size, correct=True) for size in self.job.sizes]

    def _benchmark(self) -> None:
        role: Role
        sizes = list(self.job.sizes)
        for position, size in enumerate(sizes):
            record = self.records[size] = per_size.SizeRecord(size)
            label = f"size {size:,}"
            warmup = self._checked_pair(
                self._make_inputs(size), label, record, ("reference", "submission"), new_input=True
            )
            for role in ("reference", "submission"):
                record.first_call[role] = warmup[role].seconds
            headline = position == len(sizes) - 1
            half_width = HEADLINE_HALF_WIDTH if headline else SCALING_HALF_WIDTH
            per_run = self._pairs_per_run() if headline else None
            record.in_runs = per_run is not None
            pair = run = 0
            while pair < self.job.repeats:
                run_over = per_run is not None and pair == per_run * (run + 1)
                if run_over and run + 1 >= MIN_RUNS and self._precise_enough(record, half_width):
                    record.stopped = per_size.STOPPED_PRECISE
                    break
                if run_over and not self._room_for_another_pair(record, sizes[position + 1 :], restart=True):
                    # No room for fresh processes: the other pairs in this run, the rule asked pair by pair.
                    per_run, run_over = None, False
                if per_run is None and len(record.pair_ns) >= MIN_PAIRS and self._precise_enough(record, half_width):
                    record.stopped = per_size.STOPPED_PRECISE
                    break
                if not self._room_for_another_pair(record, sizes[position + 1 :]):
                    record.stopped = per_size.STOPPED_BUDGET
                    break
                if run_over:
                    restarted_ns = time.perf_counter_ns()
                    self._new_run(size, label, record)
                    self.restart_ns.append(time.perf_counter_ns() - restarted_ns)
                    run += 1
                if self.progress.due("timing"):
                    self.progress.note(
                        "timing",
                        self._time_left_s(record, half_width, sizes[position + 1 :]),
                        size_index=position + 1,
                        sizes=len(sizes),
                        pair=pair + 1,
                        pairs=self.job.repeats,
                    )
                started_ns = time.perf_counter_ns()
                order: tuple[Role, Role] = (
                    ("reference", "submission") if self.order_rng.random() < 0.5 else ("submission", "reference")
                )
                timed = self._timed_pair(size, label, record, order)
                if timed is None:
                    continue  # disturbed: dropped, and timed again if there is room
                outcomes, echoes = timed
                pair += 1
                record.pair_ns.append(time.perf_counter_ns() - started_ns)
                record.runs.append(run)
                record.transfer.extend(echoes)
                for role, outcome in outcomes.items():
                    record.times[role].append(outcome.seconds)
                    record.waited[role].append(outcome.waited_seconds)
                    record.peaks[role].append(self._peak_bytes(role, outcome))
                    if self.job.target == "gpu":
                        # A GPU call has both copy phases (Side._exchange).
                        assert outcome.staging_seconds is not None and outcome.fetch_seconds is not None
                        record.staging[role].append(outcome.staging_seconds)
                        record.fetching[role].append(outcome.fetch_seconds)

    def _profile(self) -> None:
        """One more, untimed call of the submission under cProfile and a line
        timer: where its time went, per function and per line of the learner's
        own code, at the largest size the plan allows (PROFILE_MAX_S). It never
        changes a figure or the verdict: it is skipped, and the report says why,
        when no size fits the budget left or the call fails."""
        if self.job.target != "cpu":
            self.report["profile"] = _profile_entry("skipped", "Profiles are taken on CPU exercises only.")
            return
        left_s = (self.deadline_ns - time.perf_counter_ns()) / NS
        plans = {
            size: PROFILE_SLOWDOWN * stats.median(record.times["submission"]) + PROFILE_MARGIN_S
            for size, record in self.records.items()
        }
        fitting = [size for size, needed_s in plans.items() if needed_s <= min(left_s, PROFILE_MAX_S)]
        if not fitting:
            needed_s = plans[min(plans)]
            if needed_s > left_s:
                reason = f"Not enough of the time limit was left for a profiled call ({left_s:.1f} s left, about {needed_s:.1f} s needed)."
            else:
                reason = (
                    f"A profiled call on the smallest input would take about {needed_s:.1f} s (profiling slows "
                    f"Python code down about {PROFILE_SLOWDOWN} times), more than the {PROFILE_MAX_S:g} s it may add to a grading."
                )
            self.report["profile"] = _profile_entry("skipped", reason)
            return
        size = max(fitting)
        self.progress.note("profiling", plans[size])
        bundle = InputBundle(self._make_inputs(size))
        try:
            # Twice the plan at most: a call slower than that is not worth holding the grading for.
            budget_ns = int(min(left_s, 2 * plans[size]) * NS)
            outcome = self.sides["submission"].call(
                bundle, budget_ns, self.deadline_ns, answer_bytes=self.records[size].answer_bytes, profile=True
            )
        finally:
            bundle.close()
        if outcome.status == "timeout":
            self.report["profile"] = _profile_entry(
                "skipped", f"The profiled call was stopped after {budget_ns / NS:.1f} s, twice the time planned for it."
            )
            return
        if outcome.status != "ok":
            self.report["profile"] = _profile_entry("skipped", f"The profiled call did not finish ({outcome.status}).")
            return
        # An ok profiled call brings both tables (Side.call).
        assert outcome.profile is not None and outcome.profile_lines is not None
        self.report["profile"] = _profile_entry(
            "done",
            "",
            size=size,
            seconds=outcome.seconds,
            functions=outcome.profile,
            lines=outcome.profile_lines,
            traced_s=outcome.profile_traced_s,
        )

    def _time_left_s(self, record: SizeRecord, half_width: float, later_sizes: Sequence[int]) -> float | None:
        """An estimate of the grading still to do, from what this size's pairs have
        shown: the pairs the stopping rule will likely still want here, each later
        size's warm-up and likely pairs (their cost assumed to grow in proportion
        to size), and the profiled call; never beyond the budget. A 95% interval
        narrows as one over the square root of the pairs, so a size likely stops
        where this size's interval so far, narrowed that way, meets its half
        width. None until this size has an interval (three pairs)."""
        times = record.times
        interval = stats.speedup_interval(times["reference"], times["submission"], record.overhead())
        point = stats.speedup(times["reference"], times["submission"], record.overhead())
        if interval is None or not point > 0:
            return None
        done = len(record.pair_ns)
        relative_half_width = (interval[1] - interval[0]) / (2.0 * point)

        def pairs_expected(target_half_width: float, floor: int) -> int:
            needed = math.ceil(done * (relative_half_width / target_half_width) ** 2)
            return min(max(needed, floor), self.job.repeats)

        pair_ns = record.mean_pair_ns()
        estimate_ns = pair_ns * (pairs_expected(half_width, max(MIN_PAIRS, done)) - done)
        for position, later in enumerate(later_sizes):
            later_width = HEADLINE_HALF_WIDTH if position == len(later_sizes) - 1 else SCALING_HALF_WIDTH
            estimate_ns += pair_ns * later / record.size * (pairs_expected(later_width, MIN_PAIRS) + 1)
        if self.job.target == "cpu":
            largest = later_sizes[-1] if later_sizes else record.size
            submission_s = stats.median(times["submission"]) * largest / record.size
            estimate_ns += min(PROFILE_SLOWDOWN * submission_s + PROFILE_MARGIN_S, PROFILE_MAX_S) * NS
        return min(estimate_ns, self.deadline_ns - time.perf_counter_ns()) / NS

    def _pairs_per_run(self) -> int | None:
        """Pairs each run of the headline size gets, or None where it is timed in
        one run: when the exercise's `repeats` are fewer than MIN_PAIRS_PER_RUN a
        run, or starting the runners took so long that HEADLINE_RUNS - 1 more
        starts would cost over RESTART_BUDGET_SHARE of the time limit (work at
        import, say)."""
        restarts_ns = (HEADLINE_RUNS - 1) * self.launch_ns
        if restarts_ns > RESTART_BUDGET_SHARE * self.job.time_s * NS:
            return None
        if self.job.repeats < HEADLINE_RUNS * MIN_PAIRS_PER_RUN:
            return None  # too few pairs to share among runs
        return math.ceil(self.job.repeats / HEADLINE_RUNS)

    def _precise_enough(self, record: SizeRecord, half_width: float) -> bool:
        return stats.precise_enough(
            record.times["reference"], record.times["submission"], record.overhead(), half_width, runs=record.runs
        )

    def _room_for_another_pair(self, record: SizeRecord, later_sizes: Sequence[int], restart: bool = False) -> bool:
        """Whether one more timed pair at this size still leaves the later sizes
        their minimum (a warm-up and MIN_PAIRS pairs each, their cost assumed to
        grow in proportion to size) inside the time budget. A correct answer
        slower than the reference then gets fewer pairs and a wider interval,
        not a time limit; code too slow for even the minimum still runs out."""
        if len(record.pair_ns) < MIN_PAIRS and not restart:
            return True
        # One more pair may be as slow as the slowest so far (a call past the
        # deadline is a time limit); the later sizes' pairs add up to their mean.
        next_ns = PLAN_MARGIN * max(record.pair_ns)
        if restart:
            # A new run first: fresh runners and their warm-up pair, as long as the
            # slowest new run so far took (else as long as a pair).
            next_ns += PLAN_MARGIN * (max(self.restart_ns) if self.restart_ns else self.launch_ns + max(record.pair_ns))
        pair_ns = PLAN_MARGIN * record.mean_pair_ns()
        later_ns = sum(pair_ns * later / record.size * (MIN_PAIRS + 1) for later in later_sizes)
        return time.perf_counter_ns() + next_ns + later_ns < self.deadline_ns

    # -- one pair of calls on the same input ----------------------------------

    def _timed_pair(
        self, size: int, label: str, record: SizeRecord, order: Sequence[Role]
    ) -> tuple[dict[Role, CallOutcome], list[float]] | None:
        """(outcomes, echo seconds) of a timed pair on fresh inputs, or None when its
        reference call or echo was disturbed (_disturbance): such a pair is dropped
        and counted. When over DISTURBED_SHARE of the pairs the grading tried were
        disturbed (and more than MAX_DISTURBED_PAIRS), it ends without a figure."""
        echoes: list[CallOutcome] = []
        outcomes = self._checked_pair(self._make_inputs(size), label, record, order, echoes=echoes)
        why = self._disturbance(outcomes["reference"], "call") or self._disturbance(echoes[0], "echo call")
        if why is None:
            return outcomes, [echo.seconds for echo in echoes]
        self.disturbed_pairs += 1
        record.retimed += 1
        kept = sum(len(each.times["reference"]) for each in self.records.values())
        tried = kept + self.disturbed_pairs
        if self.disturbed_pairs > max(MAX_DISTURBED_PAIRS, DISTURBED_SHARE * tried):
            raise Finished(
                feedback.REJECTED, DISTURBED_MESSAGE.format(count=self.disturbed_pairs, where=f"on {label}", why=why)
            )
        return None

    @staticmethod
    def _disturbance(outcome: CallOutcome, what: str) -> str | None:
        """Why the reference's `outcome` cannot be trusted as a time, or None: it
        spent more of its window off its CPU (stopped, or made to wait) than the
        harness's own message latency explains."""
        off_s = outcome.off_cpu_seconds
        if off_s is None or off_s <= OFF_CPU_SLACK[0] + OFF_CPU_SLACK[1] * outcome.seconds:
            return None
        return f"its {what} was held off its CPU for {feedback.seconds(off_s)} of {feedback.seconds(outcome.seconds)}"

    def _checked_pair(
        self,
        args: tuple[object, ...],
        label: str,
        record: SizeRecord | None,
        order: Sequence[Role],
        new_input: bool = False,
        echoes: list[CallOutcome] | None = None,
    ) -> dict[Role, CallOutcome]:
        """Both sides' outcomes on `args`. With `echoes` (a list), an echo call
        (see _echo) follows the reference's call at once, so it never directly
        follows the submission's call, and its outcome is appended there."""
        outcomes: dict[Role, CallOutcome] = {}
        bundles: dict[Role, InputBundle] = {}
        try:
            for role in order:
                # Each side's input is written just before its own call, as a desk's
                # loop has its input: written a whole call earlier, it has left a large
                # last-level cache (docs/benchmarks.md, "Inputs written just before
                # their call").
                bundles[role] = InputBundle(args)
                budget_ns = self._budget_ns(role, record, outcomes, new_input)
                answer_bytes = record.answer_bytes if record is not None else 0
                outcome = self.sides[role].call(
                    bundles[role], budget_ns, self.deadline_ns, answer_bytes=answer_bytes, fresh_device_pool=new_input
                )
                if outcome.status != "ok":
                    if record is not None:
                        record.correct = False
                    self._fail(role, outcome, f"on {label}", args)
                if outcome.process_count > self.job.processes:
                    raise Finished(feedback.REJECTED, f"Your code started more than {self.job.processes} processes.")
                if role == "submission":
                    if self.first_call_s is None:
                        self.first_call_s = outcome.seconds
                    self._check_inputs_untouched(bundles[role], outcome, label, record, args)
                    self._check_one_cpu(outcome, label, len(self.runner_cpus))
                outcomes[role] = outcome
                if role == "reference" and record is not None:
                    record.answer_bytes = outcome.answer_bytes
                if role == "reference" and echoes is not None:
                    assert record is not None  # only timed pairs echo, and each has its size's record
                    echoes.append(self._echo(bundles["reference"], outcome.value, label, record.answer_bytes))
        finally:
            for bundle in bundles.values():
                bundle.close()
        self.last_outcomes = outcomes
        self._check_placement(outcomes, label, record)
        mismatch = compare.compare(
            outcomes["reference"].value, outcomes["submission"].value, self.job.tolerance, self.check, args
        )
        if mismatch:
            if record is not None:
                record.correct = False
            failure = dict(
                mismatch.failure,
                input=label,
                **failing_call.call_fields(args, self.parameter_names),
                **failing_call.answer_fields(outcomes["reference"].value, outcomes["submission"].value),
            )
            raise Finished(feedback.WRONG_ANSWER, f"Wrong answer on {label}. {mismatch.message}", failure)
        return outcomes

    def _echo(
        self, reference_bundle: InputBundle, reference_answer: object, label: str, answer_bytes: int
    ) -> CallOutcome:
        """The outcome of a call whose seconds are the harness's own work, not the code's.

        A timed CPU call includes delivering the inputs and copying the answer
        into a sealed memfd (sides.py): the same on both sides, and for
        memory-bound code a large share (at 16M float64 the result copy alone
        is ~0.1 s beside ~0.23 s of reference work), which pulled every
        speedup towards 1. So the trusted reference runner gets the same
        inputs, through the same Side.call path and clock, and returns a blank
        answer shaped like the reference's without running the entry point;
        per_size.summary subtracts their level (stats.overhead_level) from both sides. Only the
        reference runner echoes, so the submission cannot influence the
        figure (it is stopped throughout, as in any other call). The GPU's
        untimed fetch phase is not used on CPU instead: the runner is not
        stopped between "done" and "fetch", so a thread could finish the work
        there, hidden within copy_phase_overrun's slack.

        The echo maps the very memfd the reference's call just had: the same
        bytes, resident as a fresh copy's would be (tmpfs pages, mapped with
        MAP_POPULATE either way), without writing the inputs a third time.

        On GPU the copies are outside the window already, but the window still
        holds the round trip to the runner and the device synchronisation: a
        fixed cost a call that can exceed a small kernel's time and, left in
        both sides' times, pulls every ratio towards 1 (docs/benchmarks.md has
        the figures). A GPU echo is that window with nothing staged, run or
        fetched (runner.echo_staged)."""
        like = {} if self.job.target == "gpu" else ipc.encode(reference_answer, ipc.Arena())
        outcome = self.sides["reference"].call(
            reference_bundle,
            self.deadline_ns - time.perf_counter_ns(),
            self.deadline_ns,
            echo_like=like,
            answer_bytes=answer_bytes,
        )
        if outcome.status != "ok":
            self._fail("reference", outcome, f"while timing the grader's own transfers on {label}")
        return outcome

    def _budget_ns(
        self, role: Role, record: SizeRecord | None, outcomes: Mapping[Role, CallOutcome], new_input: bool
    ) -> int:
        """How long this call may run: TIME_FACTOR times the reference's time on
        the same input (or its median at this size) plus a grace (more on a new
        input, which may compile), and never past the total budget. The limit
        applied is kept in self.call_limit for the learner's message when a
        call overruns it."""
        remaining = self.deadline_ns - time.perf_counter_ns()
        self.call_limit = None
        if role == "reference":
            return remaining
        if "reference" in outcomes:
            reference_s = outcomes["reference"].seconds
        elif record is not None and record.times["reference"]:
            reference_s = stats.median(record.times["reference"])
        else:
            return remaining
        grace = NEW_INPUT_GRACE_S if new_input else TIME_GRACE_S
        limit_s = TIME_FACTOR * reference_s + grace
        if limit_s * NS >= remaining:
            return remaining
        self.call_limit = (limit_s, reference_s, grace)
        return int(limit_s * NS)

    def _check_inputs_untouched(
        self,
        bundle: InputBundle,
        outcome: CallOutcome,
        label: str,
        record: SizeRecord | None,
        args: tuple[object, ...],
    ) -> None:
        """The host copies (the inputs memfd, checked here) and, on GPU, the
        device copies (checked by the runner's Device at fetch) must be unchanged."""
        if self.job.allow_input_mutation:
            return
        changed = sorted(set(bundle.modified_arguments()) | set(outcome.modified_arguments))
        if changed:
            if record is not None:
                record.correct = False
            which = ", ".join(str(position + 1) for position in changed)
            raise Finished(
                feedback.WRONG_ANSWER,
                f"Your function modified its input (argument {which}) on {label}. This exercise expects the "
                "inputs to be left unchanged: work on a copy or write into a new array.",
                {
                    "input": label,
                    "modified_arguments": [position + 1 for position in changed],
                    **failing_call.call_fields(args, self.parameter_names),
                },
                hint=feedback.MODIFIED_INPUT_HINT,
            )

    def _check_placement(self, outcomes: Mapping[Role, CallOutcome], label: str, record: SizeRecord | None) -> None:
        """GPU: wherever the reference answers with a device array, so must the
        submission. A NumPy answer computed on the host skips the device work
        and the copy back that the exercise is about."""
        expected, got = outcomes["reference"].placement, outcomes["submission"].placement
        for position, (want, have) in enumerate(zip(expected, got)):
            if want == "device" and have != "device":
                if record is not None:
                    record.correct = False
                which = f" (item {position + 1} of the tuple)" if len(expected) > 1 else ""
                raise Finished(
                    feedback.WRONG_ANSWER,
                    f"Wrong answer on {label}. Your function returned a NumPy array in host memory{which}; this "
                    "exercise expects a CuPy array on the device, as the reference returns. Keep the result on the "
                    "GPU: the grader copies it back to the host itself.",
                    {"input": label, "expected_placement": expected, "placement": got},
                )

    def _check_one_cpu(self, outcome: CallOutcome, label: str, cpus: int = 1) -> None:
        """Code under test gets `cpus` CPUs (one unless the exercise declares
        more): the runner is pinned to them before the module loads and its
        system-call filter (syscalls.RUNNER_DENIED) refuses any change of
        affinity, so the kernel keeps every thread and child there. CPU time
        beyond `cpus` times the wall time it was read over would mean more CPUs
        worked on the call anyway; it is reported, never accepted as a speedup.
        The window is the call's plus, on a GPU, the copies around it: they are
        the runner's CPU work too (CUDA's set-up on the first one)."""
        window_s = outcome.cpu_window_seconds
        allowance = ONE_CPU_SLACK[0] * cpus * window_s + ONE_CPU_SLACK[1] * cpus / procs.TICKS_PER_SECOND
        if outcome.cpu_seconds > cpus * window_s + allowance:
            given = "one CPU" if cpus == 1 else f"{cpus} CPUs"
            raise Finished(
                feedback.REJECTED,
                f"Your code used {outcome.cpu_seconds:.3f} s of CPU time in {window_s:.3f} s "
                f"on {label}: more than {given} worked on it. Grading gives both sides {given}.",
                {"input": label, "cpu_seconds": outcome.cpu_seconds, "wall_seconds": window_s, "cpus": cpus},
            )

    def _peak_bytes(self, role: Role, outcome: CallOutcome) -> int:
        """Memory one call needed: its peak over the runner's resident memory
        before the module's own code ran (Side.wait_hello: what the module
        allocated at import, or kept from earlier calls, counts), without the
        inputs (mapped in by the harness at the start of the call), plus
        scratch-tmpfs growth, and never less than the answer it returned. On a
        GPU with NVML: the device memory the runner held at the call's peak
        (what its CuPy pool kept from earlier calls included: gpu.DeviceHoldings)
        without the inputs' device copies, which the harness made."""
        if outcome.device_bytes is not None:
            measured = outcome.device_bytes - outcome.input_bytes
        else:
            baseline = self.sides[role].baseline_bytes
            measured = outcome.peak_tree_bytes - baseline - outcome.input_bytes + outcome.scratch_growth_bytes
        return max(measured, _returned_bytes(outcome.value), 0)

    # -- failures ---------------------------------------------------------------

    def _fail(self, role: Role, outcome: CallOutcome, where: str, args: tuple[object, ...] | None = None) -> NoReturn:
        """Ends the grading with the verdict `outcome` earns. `args`, the call's
        arguments when it had some, are shown with an exception or a crash."""
        side = self.sides.get(role)
        shown: Mapping[str, object] = failing_call.call_fields(args, self.parameter_names) if args is not None else {}
        if role == "reference":
            self._reference_failed(outcome, where, side)
        status = outcome.status
        if status == "timeout":
            if self.call_limit is None or time.perf_counter_ns() >= self.deadline_ns - NS // 10:
                raise Finished(
                    feedback.TIME_LIMIT, f"Your code ran out of the total time budget ({self.job.time_s:g} s) {where}."
                )
            limit_s, reference_s, grace_s = self.call_limit
            raise Finished(
                feedback.TIME_LIMIT,
                f"Your code was stopped after {limit_s:.2f} s {where}: a call may take {TIME_FACTOR} times the "
                f"reference's time on the same input ({reference_s:.4g} s) plus {grace_s:g} s"
                f"{' for compiling on a new input, such as JIT compilation' if grace_s == NEW_INPUT_GRACE_S else ''}.",
                {"input": where, "limit_s": round(limit_s, 3), "reference_s": reference_s},
            )
        if status == "memory":
            raise Finished(
                feedback.MEMORY_LIMIT,
                f"Your code used more than the {self.job.memory_mb:g} MiB memory limit {where} "
                f"(it reached {feedback.mebibytes(outcome.peak_tree_bytes)}).",
                {"peak_memory_bytes": outcome.peak_tree_bytes},
            )
        if status == "output":
            raise Finished(feedback.OUTPUT_LIMIT, f"Your code printed more than {self.job.output_kb:g} KB {where}.")
        if status == "protocol":
            raise Finished(feedback.REJECTED, f"Your code interfered with the grader's communication with it {where}.")
        if status == "unfrozen":
            raise Finished(feedback.REJECTED, UNFROZEN_MESSAGE.format(detail=outcome.detail, where=where))
        if status == "died":
            raise Finished(
                feedback.RUNTIME_ERROR,
                f"Your code was {outcome.detail} {where}."
                if outcome.detail.startswith("killed")
                else f"Your code stopped: {outcome.detail} {where}.",
                {"output": side.output_tail() if side else "", **shown},
            )
        if outcome.error.get("type") == "MemoryError":
            raise Finished(
                feedback.MEMORY_LIMIT,
                f"Your code ran out of memory (MemoryError; the limit is {self.job.memory_mb:g} MiB) {where}.",
                {"traceback": outcome.error["traceback"]},
            )
        raise Finished(
            feedback.RUNTIME_ERROR,
            f"Your code raised {outcome.error.get('type', 'an exception')} {where}.",
            {"traceback": outcome.error["traceback"], "output": side.output_tail() if side else "", **shown},
        )

    def _reference_failed(self, outcome: CallOutcome, where: str, side: Side | None = None) -> NoReturn:
        if outcome.status == "timeout" and outcome.seconds < REFERENCE_HANG_SHARE * self.job.time_s:
            # The total budget ran out while the reference was being timed: the
            # submission's calls (or its import) spent it. A reference that hangs
            # on its own uses most of the budget in that one call.
            raise Finished(
                feedback.TIME_LIMIT, f"Your code ran out of the total time budget ({self.job.time_s:g} s) {where}."
            )
        if outcome.status == "died" and "submission" in self.sides:
            # The reference was checked on every input before it was published; dying
            # once the submission is loaded beside it (a signal sent by a route no
            # filter saw, say) is the submission's doing, never the platform's.
            raise Finished(
                feedback.REJECTED,
                f"The reference process died {where} ({outcome.detail}) while your code was "
                "loaded beside it, so this run cannot be measured.",
            )
        if outcome.status == "protocol":
            raise Finished(feedback.REJECTED, f"The reference's channel to the grader was disturbed {where}.")
        if outcome.status == "tampered":
            raise Finished(
                feedback.REJECTED, f"Your code interfered with the reference process {where}: {outcome.detail}."
            )
        if outcome.status == "unfrozen":
            raise Finished(feedback.REJECTED, UNFROZEN_MESSAGE.format(detail=outcome.detail, where=where))
        detail = outcome.error.get("traceback") or outcome.detail or outcome.status
        # What it printed is often the only clue when it died without a traceback
        # (a library it could not load, say); the host logs it, the learner never sees it.
        raise Finished(
            feedback.INTERNAL_ERROR,
            f"The reference implementation failed {where} ({outcome.status}).",
            {"reference": detail[-2000:], "reference_output": side.output_tail() if side else ""},
        )

    def _check_outside_work(self) -> None:
        outside_s = self.outside_cpu_before_s + self.sides["submission"].outside_cpu_seconds
        inside = sum(sum(record.times["submission"]) for record in self.records.values())
        allowance = OUTSIDE_CPU_ALLOWANCE_S + OUTSIDE_CPU_FRACTION * inside
        if outside_s > allowance:
            raise Finished(
                feedback.REJECTED,
                f"Your code did work outside the timed region ({outside_s:.2f} s of CPU time between "
                "calls, e.g. in a background thread). All work must happen inside the call.",
            )

    def _check_copy_phases(self) -> None:
        for record in self.records.values():
            for phases, what in (
                (record.staging, "inputs were being copied to"),
                (record.fetching, "the result was being copied from"),
            ):
                if not phases["submission"]:
                    continue
                submission_s, reference_s = stats.median(phases["submission"]), stats.median(phases["reference"])
                if copy_phase_overrun(submission_s, reference_s):
                    raise Finished(
                        feedback.REJECTED,
                        f"Work done while {what} the GPU is outside the timed region: at size {record.size:,} that copy "
                        f"took {submission_s * 1e3:.1f} ms for your code against {reference_s * 1e3:.1f} ms for the "
                        "reference's identical one. All work must happen inside the call.",
                    )

    # -- the report ---------------------------------------------------------------

    def _summarise(self) -> None:
        report = self.report
        report["verdict"] = feedback.ACCEPTED
        report["first_call_s"] = self.first_call_s
        if self.job.mode == "check":
            report["hint"] = "Submit to see how fast your code is compared with the reference."
            return
        entries = [per_size.summary(record) for record in self.records.values()]
        report["sizes"] = entries
        # Headline: the largest size. That is the regime these exercises are
        # about, it is least diluted by fixed per-call costs (IPC, JIT guards),
        # and it comes with its own paired interval. A geometric mean over
        # sizes would mix regimes and have no honest interval.
        headline = max(entries, key=lambda entry: entry["size"])
        speedup = _measured(headline["speedup"])
        peak = max(_measured(entry["peak_memory_bytes"]) for entry in entries)
        reference_peak = max(_measured(entry["reference_peak_memory_bytes"]) for entry in entries)
        times = [_measured(entry["time_s"]) for entry in entries]
        report["speedup"] = speedup
        report["speedup_ci"] = headline["speedup_ci"]
        report["peak_memory_bytes"] = peak
        report["reference_peak_memory_bytes"] = reference_peak
        sizes = [entry["size"] for entry in entries]
        report["scaling_exponent"] = stats.scaling_exponent(sizes, times)
        report["reference_scaling_exponent"] = stats.scaling_exponent(
            sizes, [_measured(entry["reference_time_s"]) for entry in entries]
        )
        report["message"] = feedback.accepted_message(
            len(entries),
            self.edge_count,
            headline["size"],
            speedup,
            headline["speedup_ci"],
            peak,
            reference_peak,
            self.job.graded_on,
        )
        shortened = {
            entry["size"]: _measured(entry["pairs"]) for entry in entries if entry["stopped"] == per_size.STOPPED_BUDGET
        }
        if shortened:
            report["message"] += " " + feedback.shortened_note(shortened, self.job.repeats)
        busy = per_size.busy_sizes(self.records.values())
        if busy:
            report["message"] += " " + feedback.busy_note(busy)
        if self.job.target == "gpu":
            report["message"] += " " + GPU_TIMING_NOTE
        report["hint"] = feedback.accepted_hint(
            speedup,
            peak,
            reference_peak,
            self.first_call_s,
            min(times),
            report["scaling_exponent"],
            report["reference_scaling_exponent"],
            self.job.graded_on,
        )

    def _finish(
        self, verdict: str, message: str, failure: Mapping[str, object] | None = None, hint: str | None = None
    ) -> None:
        report = self.report
        report["verdict"] = verdict
        report["message"] = message
        report["failure"] = failure
        report["hint"] = hint or feedback.HINTS.get(verdict, "")
        report["speedup"] = report["speedup_ci"] = None
        report["first_call_s"] = self.first_call_s
        try:
            report["sizes"] = [
                per_size.summary(record)
                if record.correct and record.times["submission"]
                else per_size.entry(record.size, correct=False)
                for record in self.records.values()
            ]
        except Exception:
            report["sizes"] = []

    def _make_inputs(self, size: int) -> tuple[object, ...]:
        seed = int.from_bytes(os.urandom(4), "little")
        args = self.inputs.make_inputs(size, seed)
        return tuple(args) if isinstance(args, (tuple, list)) else (args,)

    def _cleanup(self) -> None:
        for side in self.sides.values():
            side.kill()
        procs.kill_all_descendants()
        for side in self.sides.values():
            if side.process is not None:
                try:
                    side.process.wait(timeout=2)
                except Exception:
                    pass
            if side.drain is not None:
                side.drain.join(timeout=1)
        if self.scratch:
            shutil.rmtree(self.scratch, ignore_errors=True)


def _pin_cpus(preferred: Iterable[int] = (), count: int = 1) -> set[int]:
    """Pins the supervisor off the CPUs its runners will get; returns those CPUs (a set).

    Both runners run on the same `count` CPUs (one unless the exercise
    declares more; fewer when the sandbox has fewer): the code under test
    gets what the reference gets, and both sides are timed on the same cores
    (on a virtual machine two vCPUs can run at different speeds). They are
    the ones the host claimed for this grading (`preferred`, see
    grader/sandbox/cpuslots.py) where the sandbox may use them, then the one
    the supervisor is on, then the lowest others. The supervisor's own threads
    (memory sampling during calls) go to the sandbox's other CPUs, so they
    never compete with a timed call. Called before the supervisor starts any
    thread: affinity is per thread and new threads inherit their creator's.
    When the runners get every CPU there is nothing to move."""
    allowed = os.sched_getaffinity(0)
    here = procs.current_cpu()
    order = [cpu for cpu in preferred if cpu in allowed]
    order += [here if here in allowed else max(allowed), *sorted(allowed)]
    runner_cpus = set(list(dict.fromkeys(order))[:count])
    if allowed - runner_cpus:
        os.sched_setaffinity(0, allowed - runner_cpus)
    return runner_cpus


def _profile_entry(
    status: str,
    reason: str,
    size: int | None = None,
    seconds: float | None = None,
    functions: Iterable[ProfileRow] = (),
    lines: Iterable[ProfileRow] = (),
    traced_s: float | None = None,
) -> ProfileEntry:
    """`seconds` is the profiled call as the harness timed it (its transfers
    included); `traced_s` the learner's function alone, of which each line's
    seconds are a share."""
    return {
        "status": status,
        "reason": reason,
        "size": size,
        "seconds": seconds,
        "functions": list(functions),
        "lines": list(lines),
        "traced_s": traced_s,
    }


def copy_phase_overrun(submission_s: float, reference_s: float) -> bool:
    """Whether the submission's median untimed copy phase is too much longer
    than the reference's to be the copy alone (see COPY_PHASE_SLACK)."""
    seconds, fraction = COPY_PHASE_SLACK
    return submission_s - reference_s > max(seconds, fraction * reference_s)


def _where(exc: BaseException) -> str:
    """Exception type, message and innermost frame, for the host's logs."""
    import traceback

    frames = traceback.extract_tb(exc.__traceback__)
    place = f" at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno}" if frames else ""
    return f"{type(exc).__name__}: {str(exc)[:300]}{place}"


def _measured(figure: T | None) -> T:
    """A figure of a timed size's report entry: per_size.summary fills in every
    one (the entry's type allows None for the sizes that were never timed)."""
    assert figure is not None
    return figure


def _returned_bytes(value: object) -> int:
    if isinstance(value, np.ndarray):
        return value.nbytes
    if isinstance(value, tuple):
        return sum(_returned_bytes(item) for item in value)
    return 0


def _load_trusted_module(source: str, filename: str, name: str) -> types.ModuleType:
    """The module `name` run from `source` (a trusted job file, kept in memory only)."""
    module = types.ModuleType(name)
    module.__file__ = filename
    exec(compile(source, filename, "exec", dont_inherit=True), module.__dict__)
    return module
