"""job.json, validated. The host sends it (protocol.format_stdin); a bad one is an internal error."""

import json
import re
from dataclasses import dataclass
from typing import TypedDict

IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
MODULE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
#: The most CPUs a job may ask for.
MAX_CPUS = 1024


class JobError(Exception):
    pass


class Tolerance(TypedDict):
    """How far a floating-point answer may be from the reference's (np.isclose's terms)."""

    rtol: float
    atol: float


@dataclass(frozen=True)
class Job:
    mode: str
    entry_point: str
    sizes: tuple[int, ...]
    edge_sizes: tuple[int, ...]
    rtol: float
    atol: float
    repeats: int
    target: str
    allowed_imports: list[str]
    graded_on: tuple[str, ...]
    time_s: float
    memory_mb: float
    processes: int
    output_kb: float
    allow_input_mutation: bool
    #: CPUs the code under test gets (the exercise's `cpus`, at most what the host has).
    cpus: int = 1
    #: The CPUs the host claimed for the runners (grader/sandbox/cpuslots.py); may be fewer than `cpus`.
    runner_cpus: tuple[int, ...] = ()
    #: The learner's own input (check mode only), as sent: custom_input.py checks what it holds.
    custom_input: dict[str, object] | None = None

    @property
    def memory_limit_bytes(self) -> int:
        return int(self.memory_mb * 1024 * 1024)

    @property
    def output_limit_bytes(self) -> int:
        return int(self.output_kb * 1024)

    @property
    def tolerance(self) -> Tolerance:
        return {"rtol": self.rtol, "atol": self.atol}


def load_job(text: str | None) -> Job:
    """The Job that `text` (job.json's content) describes; JobError when it is
    missing or invalid."""
    if not isinstance(text, str):
        raise JobError("job.json is missing")
    try:
        raw: object = json.loads(text)
    except ValueError as exc:
        raise JobError(f"cannot read job.json: {exc}") from None
    if not isinstance(raw, dict):
        raise JobError("job.json is not an object")
    mode = _choice(raw.get("mode", "full"), ("full", "check"), "mode")
    # In check mode the host may pass the exercise's check_sizes separately.
    sizes_key = "check_sizes" if mode == "check" and "check_sizes" in raw else "sizes"
    tolerance = raw.get("tolerance") or {}
    limits = raw.get("limits") or {}
    entry_point = raw.get("entry_point")
    if not isinstance(entry_point, str) or not IDENTIFIER.match(entry_point):
        raise JobError("entry_point must be an identifier")
    allowed = raw.get("allowed_imports", [])
    if not isinstance(allowed, list) or not all(isinstance(m, str) and MODULE_NAME.match(m) for m in allowed):
        raise JobError("allowed_imports must be a list of module names")
    job = Job(
        mode=mode,
        entry_point=entry_point,
        sizes=_sizes(raw.get(sizes_key, []), sizes_key),
        edge_sizes=_sizes(raw.get("edge_sizes", []), "edge_sizes"),
        rtol=_number(tolerance.get("rtol", 1e-9), "tolerance.rtol"),
        atol=_number(tolerance.get("atol", 0.0), "tolerance.atol"),
        repeats=int(_number(raw.get("repeats", 11), "repeats", minimum=1, maximum=1000)),
        target=_choice(raw.get("target", "cpu"), ("cpu", "gpu"), "target"),
        allowed_imports=[m.split(".")[0] for m in allowed],
        graded_on=tuple(str(g) for g in raw.get("graded_on", ["time"])),
        time_s=_number(limits.get("time_s", 60), "limits.time_s", minimum=1),
        memory_mb=_number(limits.get("memory_mb", 1024), "limits.memory_mb", minimum=16),
        processes=int(_number(limits.get("processes", 32), "limits.processes", minimum=2)),
        output_kb=_number(limits.get("output_kb", 256), "limits.output_kb", minimum=1),
        allow_input_mutation=bool(raw.get("allow_input_mutation", False)),
        cpus=int(_number(raw.get("cpus", 1), "cpus", minimum=1, maximum=MAX_CPUS)),
        runner_cpus=_cpu_list(raw.get("runner_cpus", [])),
        custom_input=_custom_input(raw.get("custom_input"), mode),
    )
    if job.mode == "full" and not job.sizes:
        raise JobError("a full run needs at least one size")
    return job


def _choice(value: object, choices: tuple[str, ...], name: str) -> str:
    if value not in choices:
        raise JobError(f"{name} must be one of {', '.join(choices)}")
    return value


def _number(value: object, name: str, minimum: float = 0.0, maximum: float = float("inf")) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not minimum <= value <= maximum:
        raise JobError(f"{name} must be a number between {minimum} and {maximum}")
    return float(value)


def _cpu_list(value: object) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in value):
        raise JobError("runner_cpus must be a list of CPU numbers")
    return tuple(value)


def _custom_input(value: object, mode: str) -> dict[str, object] | None:
    """The learner's own input as sent; what it holds is checked where a bad one
    gets the learner a message (custom_input.run), not as a broken job."""
    if value is None:
        return None
    if mode != "check":
        raise JobError("custom_input is for check mode only")
    if not isinstance(value, dict):
        raise JobError("custom_input must be an object")
    return value


def _sizes(value: object, name: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in value):
        raise JobError(f"{name} must be a list of non-negative integers")
    return tuple(value)
