"""Author-side check of an exercise: its model solution must be accepted when
graded against its reference, through the same sandbox and harness learners get.
The question loader calls this before it publishes a new exercise version."""

from dataclasses import dataclass
from typing import Any

from . import config
from .errors import PlatformError
from .gpu import NoGPU, detect_gpu
from .grading import Exercise, Report, grade
from .sandbox.base import Sandbox
from .verdicts import Verdict


@dataclass
class ValidationResult:
    ok: bool
    message: str
    report: Report | None


def validate_exercise(
    spec: dict[str, Any], files: dict[str, str], backend: str | type[Sandbox] | None = None, slug: str | None = None
) -> ValidationResult:
    """Grade files["solution.py"] against files["reference.py"]; ok only if accepted."""
    missing = [name for name in ("reference.py", "inputs.py", "solution.py") if not files.get(name)]
    if missing:
        return ValidationResult(False, f"missing {', '.join(missing)}", None)
    if spec.get("target") == "gpu" and (backend or config.current().backend) == "bwrap":
        try:
            detect_gpu()
        except NoGPU as exc:
            # Honest deferral: nothing was measured, and the report says so. A GPU host
            # (scripts/gpu_check.sh, or the author validation page there) validates it.
            return ValidationResult(True, f"not validated on this machine: {exc}", {"skipped": str(exc)})
    exercise = Exercise(slug=slug or spec.get("slug", "exercise"), spec=spec, files=files)
    try:
        report = grade(exercise, files["solution.py"], mode="full", backend=backend)
    except PlatformError as exc:
        return ValidationResult(False, f"the grader could not run it ({exc.error_id}: {exc.message})", None)
    if report["verdict"] != Verdict.ACCEPTED:
        return ValidationResult(False, refusal_message(report), report)
    return ValidationResult(True, f"solution.py accepted (speedup {report.get('speedup')})", report)


def refusal_message(report: Report) -> str:
    """Why validation failed, as lines of text an author reads: which file is at
    fault, the message, then the details (a traceback names the file and line)."""
    failure = report.get("failure") or {}
    if report["verdict"] == Verdict.INTERNAL_ERROR and failure.get("reference"):
        # The reference could not run: nothing about solution.py was learnt.
        printed = (failure.get("reference_output") or "").rstrip()
        return (
            f"reference.py failed, so nothing could be compared. {report['message']}\n{failure['reference'].rstrip()}"
            + (f"\nreference.py printed:\n{printed}" if printed else "")
        )
    lines = [f"solution.py was graded {report['verdict']}: {report['message']}"]
    if failure.get("line"):
        lines.append(f"solution.py, line {failure['line']}")
    if failure.get("traceback"):
        lines.append(failure["traceback"].rstrip())
    if failure.get("expected") is not None:
        where = f" at position {failure['index']}" if failure.get("index") else ""
        lines.append(f"expected {failure['expected']}, got {failure.get('got')}{where}")
    if failure.get("arguments"):
        lines.append("called with:\n" + "\n".join(failure["arguments"]))
    if failure.get("stderr_tail"):
        lines.append(f"stderr:\n{failure['stderr_tail'].rstrip()}")
    return "\n".join(lines)
