"""Entry point inside the sandbox:  python3 -I -B /job/harness/main.py /job

Reads stdin to its end (the per-run secret's line, then the job's trusted
files: protocol.format_stdin), closes it, grades the submission in the
directory given as the argument and prints the signed report as the last
stdout line. It exits 0 whenever it printed a report, whatever the verdict.
"""

import math
import os
import signal
import sys
import time
from collections.abc import Mapping
from typing import overload


def _bootstrap_package() -> None:
    """-I leaves the script's folder off sys.path; load the package by path.
    Each entry script (main.py, runner.py) carries this copy: until it has run
    there is no package to import it from, and putting /job on sys.path instead
    would make the job's other files (the reference among them) importable."""
    import importlib.util

    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(
        "harness", os.path.join(here, "__init__.py"), submodule_search_locations=[here]
    )
    assert spec is not None and spec.loader is not None  # a .py file's spec always has its loader
    package = importlib.util.module_from_spec(spec)
    sys.modules["harness"] = package
    spec.loader.exec_module(package)


if __name__ == "__main__":
    _bootstrap_package()
    __package__ = "harness"

from . import HARNESS_VERSION, feedback, procs, protocol, supervisor  # noqa: E402


def read_stdin() -> bytes:
    """All of stdin (at most protocol.MAX_STDIN_BYTES); stdin is closed afterwards
    so nothing can read on."""
    chunks: list[bytes] = []
    size = 0
    while size <= protocol.MAX_STDIN_BYTES:
        chunk = os.read(0, 1 << 20)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    return b"".join(chunks)


@overload
def json_safe(value: Mapping[str, object]) -> Mapping[str, object]: ...
@overload
def json_safe(value: object) -> object: ...
def json_safe(value: object) -> object:
    """Non-finite floats have no JSON form; they become null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(item) for item in value]
    return value


def _print_line(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main(argv: list[str]) -> int:
    started_ns = time.perf_counter_ns()
    # Before the secret is in memory: same-uid processes must not read it via
    # ptrace or /proc/<pid>/mem, fd or environ.
    procs.set_dumpable(False)
    procs.become_subreaper()
    # Python turns SIGINT into KeyboardInterrupt. With the default action instead, the
    # kernel drops a SIGINT sent from inside the sandbox to the supervisor, its pid
    # namespace's init, as it drops every signal init has no handler for.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    data = read_stdin()
    secret = data.partition(b"\n")[0].strip()
    sys.setswitchinterval(0.0005)
    job_dir = os.path.abspath(argv[1] if len(argv) > 1 else "/job")
    try:
        _, files = protocol.parse_stdin(data)
        report = supervisor.grade(
            job_dir, files, started_ns, lambda progress: _print_line(protocol.format_progress(secret, progress))
        )
    except BaseException as exc:  # never leave without a signed report
        report = supervisor.empty_report()
        report["message"] = f"The grader failed unexpectedly ({type(exc).__name__})."
        report["hint"] = feedback.HINTS[feedback.INTERNAL_ERROR]
    procs.kill_all_descendants()
    try:
        line = protocol.format_report(secret, json_safe(report))
    except (TypeError, ValueError):
        fallback = supervisor.empty_report()
        fallback.update({"message": "The grader could not encode its report.", "harness_version": HARNESS_VERSION})
        line = protocol.format_report(secret, fallback)
    sys.stdout.write("\n" + line + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
