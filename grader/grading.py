"""Grading on the host: build a job, run the harness in a sandbox, and turn what
comes back into a report. No Celery and no database writes here (services.py
does those), so `manage.py grade` and exercise validation use it directly.

The only thing trusted from inside the sandbox is the harness's HMAC-signed
report line (grader.harness.protocol). Everything else the sandbox produced is
evidence for a verdict the host decides itself: time, memory or output limits,
or "rejected" when the harness never reported.
"""

import json
import os
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NotRequired, Protocol, TypedDict

from . import harness, roofline
from .errors import PlatformError
from .harness.input_rules import quick_check_sizes
from .harness.protocol import Progress, ProgressReader, format_stdin, parse_report
from .sandbox import Limits, resolve_backend
from .sandbox.base import Sandbox, SandboxResult, harness_memory_cap
from .sandbox.cpuslots import claim_runner_cpus
from .verdicts import Verdict

HARNESS_DIR = Path(harness.__file__).resolve().parent
MODES = ("full", "check")

#: Exercise `limits` front matter: defaults, and ceilings so one bad exercise cannot take a worker down.
DEFAULT_LIMITS = {"time_s": 60, "memory_mb": 1024, "processes": 32, "output_kb": 256, "disk_mb": 64}
MAX_LIMITS = {"time_s": 600, "memory_mb": 8192, "processes": 256, "output_kb": 4096, "disk_mb": 1024}
#: A quick check runs small inputs for correctness only, so it gets a shorter budget.
CHECK_TIME_S = 30
#: The sandbox's wall limit is the harness budget plus this, for interpreter start-up,
#: imports and the report; the harness stops itself within its budget.
WALL_MARGIN_S = 20
#: The longest any sandbox run can take; Celery's time limits sit above it.
MAX_SANDBOX_WALL_S = MAX_LIMITS["time_s"] + WALL_MARGIN_S
STDERR_TAIL_CHARS = 2000
#: Harness verdicts for a process that died; the host refines them to memory_limit on an OOM kill.
KILLED_VERDICTS = (Verdict.RUNTIME_ERROR, Verdict.REJECTED)

MESSAGES = {
    Verdict.ACCEPTED: "Correct on every input.",
    Verdict.WRONG_ANSWER: "Your function returned a wrong result.",
    Verdict.SYNTAX_ERROR: "Python could not read your code, so it did not run.",
    Verdict.RUNTIME_ERROR: "Your code raised an exception.",
    Verdict.TIME_LIMIT: "Grading ran past the time limit of {time_s} s, so it was stopped. Look for a loop that never ends or work that grows too fast.",
    Verdict.MEMORY_LIMIT: "Grading used more than the memory limit of {memory_mb} MiB, so it was stopped. Avoid large temporary arrays.",
    Verdict.OUTPUT_LIMIT: "Your code printed more than {output_kb} KiB, so it was stopped. Remove debugging output.",
    Verdict.REJECTED: "Grading did not complete: the process ended before the grader could report (exit {exit}).",
    Verdict.INTERNAL_ERROR: PlatformError.PUBLIC_MESSAGE,
}

#: Every key a report has, whatever produced it (see the grading contract in the docs).
REPORT_KEYS = (
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
    "roofline",
)

#: A report: the harness's signed one (JSON) or the host's own, with every REPORT_KEYS key.
Report = dict[str, Any]
#: The `limits` a job carries, in harness units (DEFAULT_LIMITS' keys); front matter may give floats.
JobLimits = dict[str, float]


class Job(TypedDict):
    """job.json for the harness (grader.harness.job reads it); the spec's values travel as given."""

    slug: str
    mode: str
    entry_point: Any
    sizes: list[int]
    check_sizes: list[int]
    edge_sizes: list[Any]
    tolerance: dict[str, Any]
    repeats: Any
    target: str
    allowed_imports: list[Any]
    graded_on: list[Any]
    limits: JobLimits
    cpus: int
    custom_input: NotRequired[object]
    runner_cpus: NotRequired[list[int]]


class _Question(Protocol):
    @property
    def slug(self) -> str: ...


class ExerciseVersionLike(Protocol):
    """What Exercise.from_version reads of a questions.models.ExerciseVersion (the judge imports no Django)."""

    @property
    def question(self) -> _Question: ...
    @property
    def spec(self) -> dict[str, Any]: ...
    @property
    def reference_code(self) -> str: ...
    @property
    def inputs_code(self) -> str: ...
    @property
    def solution_code(self) -> str: ...
    @property
    def starter_code(self) -> str: ...
    @property
    def check_code(self) -> str: ...


@dataclass(frozen=True)
class Exercise:
    """What grading needs from an exercise, wherever it came from (a bank folder,
    an ExerciseVersion row, or an author's files under validation)."""

    slug: str
    spec: dict[str, Any]
    #: "reference.py", "inputs.py", optional "check.py", "solution.py"...
    files: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_version(cls, version: ExerciseVersionLike) -> "Exercise":
        files = {
            "reference.py": version.reference_code,
            "inputs.py": version.inputs_code,
            "solution.py": version.solution_code,
            "starter.py": version.starter_code,
        }
        if version.check_code.strip():
            files["check.py"] = version.check_code
        return cls(slug=version.question.slug, spec=dict(version.spec), files=files)

    @property
    def target(self) -> str:
        target: str = self.spec.get("target", "cpu")
        return target


def as_exercise(exercise: Exercise | ExerciseVersionLike) -> Exercise:
    if isinstance(exercise, Exercise):
        return exercise
    if hasattr(exercise, "reference_code"):  # questions.models.ExerciseVersion
        return Exercise.from_version(exercise)
    raise TypeError(f"Cannot grade against {exercise!r}: expected an Exercise or an ExerciseVersion")


def exercise_limits(spec: dict[str, Any], mode: str = "full") -> JobLimits:
    """The exercise's limits front matter, defaulted and clamped (harness units)."""
    given = spec.get("limits") or {}
    limits: JobLimits = {}
    for key, default in DEFAULT_LIMITS.items():
        value = given.get(key, default)
        limits[key] = min(max(value, 1), MAX_LIMITS[key])
    if mode == "check":
        limits["time_s"] = min(limits["time_s"], CHECK_TIME_S)
    return limits


def sandbox_limits(job_limits: JobLimits, cpus: float = 1.0) -> Limits:
    """The sandbox's Limits for a harness run of a job with `job_limits` (harness units).
    Its memory cap is the whole sandbox's (base.harness_memory_cap): the job's
    memory_mb for each runner, the tmpfs and the supervisor's allowance; the
    harness holds each runner to memory_mb itself."""
    wall_s = job_limits["time_s"] + WALL_MARGIN_S
    disk_bytes = int(job_limits["disk_mb"] * 1024**2)
    return Limits(
        wall_time_s=wall_s,
        cpu_time_s=wall_s * max(1.0, cpus),
        memory_bytes=harness_memory_cap(int(job_limits["memory_mb"] * 1024**2), disk_bytes),
        processes=int(job_limits["processes"]),
        output_bytes=int(job_limits["output_kb"] * 1024),
        disk_bytes=disk_bytes,
        cpus=cpus,
    )


def exercise_cpus(spec: dict[str, Any]) -> int:
    """How many CPUs the exercise's code gets on this worker: its `cpus` front
    matter (a count, or "all"), at most the CPUs this process may run on; one
    when it declares none. GPU exercises get one."""
    if spec.get("target", "cpu") != "cpu":
        return 1
    wanted = spec.get("cpus", 1)
    available = len(os.sched_getaffinity(0))
    return available if wanted == "all" else max(1, min(int(wanted), available))


def build_job(exercise: Exercise, mode: str, custom_input: object = None) -> Job:
    """job.json for the harness. In check mode `sizes` are the small check sizes;
    `custom_input`, the learner's own input (check mode only), travels as sent
    and the harness checks it (grader/harness/custom_input.py)."""
    if custom_input is not None and mode != "check":
        raise ValueError("a custom input is run in check mode only")
    spec = exercise.spec
    check_sizes = quick_check_sizes(spec)
    job: Job = {
        "slug": exercise.slug,
        "mode": mode,
        "entry_point": spec["entry_point"],
        "sizes": check_sizes if mode == "check" else list(spec["sizes"]),
        "check_sizes": check_sizes,
        "edge_sizes": list(spec.get("edge_sizes") or []),
        "tolerance": dict(spec.get("tolerance") or {}),
        "repeats": spec.get("repeats", 11),
        "target": exercise.target,
        "allowed_imports": list(spec.get("allowed_imports") or []),
        "graded_on": list(spec.get("graded_on") or ["time"]),
        "limits": exercise_limits(spec, mode),
        "cpus": exercise_cpus(spec),
    }
    if custom_input is not None:
        job["custom_input"] = custom_input
    return job


def harness_files() -> Iterator[tuple[str, str]]:
    """(relative path, text) for every source file of the harness package."""
    for path in sorted(HARNESS_DIR.rglob("*.py")):
        if "__pycache__" not in path.parts:
            yield f"harness/{path.relative_to(HARNESS_DIR).as_posix()}", path.read_text(encoding="utf-8")


def trusted_files(exercise: Exercise, job: Job) -> dict[str, str]:
    """The job's files only the trusted side reads, by name (protocol.TRUSTED_FILES):
    they go to the harness on stdin, never into the sandbox's filesystem."""
    files = {
        "job.json": json.dumps(job),
        "reference.py": exercise.files["reference.py"],
        "inputs.py": exercise.files["inputs.py"],
    }
    if exercise.files.get("check.py"):
        files["check.py"] = exercise.files["check.py"]
    return files


def new_secret() -> tuple[bytes, bytes]:
    """A fresh per-run key. The harness reads it as one stdin line; the key is
    that line's text (64 hex characters), on both sides."""
    text = secrets.token_bytes(32).hex()
    return text.encode("ascii"), (text + "\n").encode("ascii")


def grade(
    exercise: Exercise | ExerciseVersionLike,
    code: str,
    mode: str = "full",
    backend: str | type[Sandbox] | None = None,
    progress: Callable[[Progress], object] | None = None,
    custom_input: object = None,
) -> Report:
    """Grade `code` against `exercise` and return the report dict. `custom_input`
    (check mode): run it on the learner's own input instead (build_job).

    `progress`, when given, is called with each progress dict the harness
    reports while it works (protocol.parse_progress: phase, counts, elapsed and
    estimated seconds), at most about once a second.
    Raises PlatformError when the platform could not grade (retry later); any
    problem with the code itself comes back as a verdict in the report."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    exercise = as_exercise(exercise)
    if "reference.py" not in exercise.files or "inputs.py" not in exercise.files:
        raise PlatformError("grading.exercise_incomplete", f"{exercise.slug} lacks reference.py or inputs.py")
    job = build_job(exercise, mode, custom_input)
    limits = sandbox_limits(job["limits"], cpus=job["cpus"])
    key, stdin_line = new_secret()
    backend_class = resolve_backend(backend)
    try:
        with (
            claim_runner_cpus(job["cpus"]) as runner_cpus,
            backend_class(limits=limits, target=exercise.target) as sandbox,
        ):
            job["runner_cpus"] = runner_cpus
            for relative_path, text in harness_files():
                sandbox.write_file(relative_path, text)
            sandbox.write_file("submission.py", code)
            on_stdout = ProgressReader(key, progress).feed if progress is not None else None
            stdin = format_stdin(stdin_line, trusted_files(exercise, job))
            result = sandbox.run(list(harness.COMMAND), stdin=stdin, on_stdout=on_stdout)
    except PlatformError:
        raise
    except OSError as exc:
        raise PlatformError("sandbox.io", f"sandbox I/O failed: {exc}") from exc
    report = interpret(result, parse_report(key, result.stdout), exercise, job)
    report["roofline"] = roofline.for_report(exercise.spec, report)
    return report


def interpret(result: SandboxResult, signed_report: dict[str, object] | None, exercise: Exercise, job: Job) -> Report:
    """The report from a SandboxResult and the verified report (or None)."""
    if signed_report is not None:
        report: Report = dict(signed_report)
        if report.get("verdict") not in Verdict.ALL:
            raise PlatformError(
                "grading.bad_report", f"the harness reported an unknown verdict {report.get('verdict')!r}"
            )
        if result.oom_killed and report["verdict"] in KILLED_VERDICTS:
            # The harness saw a process die of SIGKILL; only the host's cgroup knows it was the OOM killer.
            report["verdict"] = Verdict.MEMORY_LIMIT
            report["message"] = None
    else:
        if result.details.get("sandbox_started") is False:
            bwrap_error = result.details.get("bwrap_error")
            assert bwrap_error is None or isinstance(bwrap_error, str)  # only bwrap says it did not start: its stderr
            raise PlatformError("sandbox.setup_failed", bwrap_error or "the sandbox did not start")
        report = {"verdict": _verdict_without_report(result)}
        report["failure"] = _failure_without_report(result)
    for key in REPORT_KEYS:
        report.setdefault(key, None)
    report["sizes"] = report["sizes"] or []
    report["mode"] = job["mode"]
    report["hardware"] = _hardware(exercise.target, report)
    if not report["message"]:
        report["message"] = learner_message(report["verdict"], job["limits"], result)
    if report["peak_memory_bytes"] is None and signed_report is None:
        report["peak_memory_bytes"] = result.peak_memory_bytes
    return report


def _verdict_without_report(result: SandboxResult) -> str:
    if result.timed_out:
        return Verdict.TIME_LIMIT
    if result.oom_killed:
        return Verdict.MEMORY_LIMIT
    if result.output_exceeded:
        return Verdict.OUTPUT_LIMIT
    return Verdict.REJECTED


def _failure_without_report(result: SandboxResult) -> dict[str, object]:
    stderr = result.stderr.decode("utf-8", errors="replace")
    return {
        "exit_code": result.exit_code,
        "signal": result.signal,
        "wall_s": round(result.wall_s, 3),
        "stderr_tail": stderr[-STDERR_TAIL_CHARS:],
    }


def _hardware(target: str, report: Report) -> str:
    if target != "gpu":
        return "cpu"
    return str(report.get("hardware") or report.get("gpu_name") or "gpu")[:80]


def learner_message(verdict: str, job_limits: JobLimits, result: SandboxResult | None = None) -> str:
    exit_description = "unknown"
    if result is not None:
        exit_description = f"signal {result.signal}" if result.signal else f"code {result.exit_code}"
    return MESSAGES[verdict].format(exit=exit_description, **job_limits)
