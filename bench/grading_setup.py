"""What the grading benchmark's parts share: the bench's environment and database,
the machine it ran on, the bank exercise and submission files, a sandbox backend
that records each run's wall time, and the time a report spent in measured calls."""

import os
import platform
import statistics
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

from common import ROOT, create_database

SUBMISSIONS = ROOT / "bench" / "submissions"
BENCH_USERNAME = "grading-bench"


def bench_environment(database_url, redis_url):
    """Environment for this process and every worker it starts. The bench user may
    have the whole throughput queue in flight, so the per-user queued limit is raised."""
    return dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="interview_platform.settings",
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        SUBMISSION_MAX_QUEUED_PER_USER="1000",
        CELERY_TASK_ALWAYS_EAGER="0",
    )


def prepare_database(environment):
    """Create the bench database if missing, migrate it and load the bank (no validation)."""
    create_database(environment["DATABASE_URL"])
    for command in (["migrate", "--noinput"], ["load_bank", "--skip-validation"]):
        done = subprocess.run(
            [sys.executable, "manage.py", *command], cwd=ROOT, env=environment, capture_output=True, text=True
        )
        if done.returncode:
            raise SystemExit(f"manage.py {' '.join(command)} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")


def reset_queue():
    """Start from an empty queue and no rows of earlier bench runs (the bench owns
    this database and this Redis db)."""
    from django.contrib.auth import get_user_model

    from interview_platform.celery import app
    from submissions.models import Submission

    app.control.purge()
    user, _ = get_user_model().objects.get_or_create(username=BENCH_USERNAME)
    Submission.objects.filter(user=user).delete()
    return user


def current_version(slug):
    from questions.models import Question

    version = Question.objects.get(slug=slug).current_exercise()
    if version is None:
        raise SystemExit(f"{slug} has no exercise version in the bench database")
    return version


def machine_facts():
    from grader.host_limits import (
        SHMEM_HUGE_PAGES,
        cpu_model,
        hardware_identity,
        transparent_huge_pages,
    )  # after Django

    facts = {
        "cpus": os.cpu_count(),
        "cpu_model": cpu_model(),
        "transparent_huge_pages": transparent_huge_pages(),
        "shmem_huge_pages": transparent_huge_pages(SHMEM_HUGE_PAGES),
        "inputs_in_huge_pages": hardware_identity()["inputs_in_huge_pages"],
        "python": platform.python_version(),
        "kernel": platform.release(),
        "openblas_env": {
            name: os.environ.get(name) for name in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "OPENBLAS_NUM_THREADS")
        },
        "page_reporting": page_reporting_state(),
    }
    try:
        import numpy

        facts["numpy"] = numpy.__version__
    except ImportError:
        pass
    return facts


def page_reporting_state():
    """The guest's free page reporting knobs (virtio-balloon), or None where it has none.
    min_free_ms is how long freed memory stays with the guest before the hypervisor
    takes it back; scripts/tune_grading_host.sh explains why it matters for timing."""
    directory = Path("/sys/module/page_reporting/parameters")
    if not directory.is_dir():
        return None
    state = {}
    for name in ("min_free_ms", "page_reporting_order", "reported_kib"):
        try:
            state[name] = int((directory / name).read_text().strip())
        except (OSError, ValueError):
            pass
    return state


def load_average():
    return [round(value, 2) for value in os.getloadavg()]


def bank_exercise(slug):
    from grader.grading import Exercise
    from questions.loader import default_bank_dir, read_bank

    entries, _errors = read_bank(default_bank_dir())  # problems in other files do not matter here
    for entry in entries:
        if entry.slug == slug and entry.spec is not None:
            return Exercise(slug=slug, spec=entry.spec, files=entry.files)
    raise SystemExit(f"No coding exercise {slug!r} in questions/bank/")


def submission_code(slug, filename):
    return (SUBMISSIONS / slug / filename).read_text(encoding="utf-8")


def timed_backend():
    """The configured sandbox backend, subclassed to record each run's wall time."""
    from grader.sandbox import resolve_backend

    base = resolve_backend()

    class Timed(base):
        runs = []

        def run(self, command, stdin=b"", **options):
            result = super().run(command, stdin=stdin, **options)
            Timed.runs.append(result.wall_s)
            return result

    return Timed


#: The lists of a size's `calls` that are whole measured calls (per_size.py).
MEASURED_CALLS = ("reference_s", "submission_s", "echo_s")


def benchmark_seconds(report):
    """The time the harness spent in measured calls, from the report: per size, the
    warm-up pair (first_call_s, reference_first_call_s) plus every timed call as run
    (raw, transfer included) and the echo calls that measure the transfer (`calls`). The
    calls' `*_waited_s` lists are parts of those same seconds (time the CPU went to another
    process), so they are not added again."""
    total = 0.0
    for entry in report.get("sizes") or []:
        if entry.get("time_s") is None:
            continue
        total += (entry.get("first_call_s") or 0.0) + (entry.get("reference_first_call_s") or 0.0)
        calls = entry.get("calls") or {}
        total += sum(sum(calls.get(key) or ()) for key in MEASURED_CALLS)
    return total


def host_tuning():
    """`scripts/tune_grading_host.sh --check`'s lines: what the host's settings are."""
    completed = subprocess.run(
        ["bash", str(ROOT / "scripts" / "tune_grading_host.sh"), "--check"], capture_output=True, text=True
    )
    return completed.stdout.strip().splitlines()


def host_state(tuning=None):
    """The host state: tuned when the tuning script has nothing left to advise, else untuned."""
    lines = host_tuning() if tuning is None else tuning
    return "untuned" if any(line.startswith("advise") for line in lines) else "tuned"


def medians_with_host(times, tuning):
    """A one-process bench's result fields: the median of each named series of
    seconds in milliseconds, the load average now, and the host's state from
    `tuning` (host_tuning's lines, read before the measurement)."""
    return {
        "median_ms": {name: round(statistics.median(values) * 1e3, 2) for name, values in times.items()},
        "load_average": [round(value, 2) for value in os.getloadavg()],
        "host": {"state": host_state(tuning), "tuning": tuning},
    }


@contextmanager
def other_work(processes):
    """`processes` busy loops (`yes > /dev/null`) beside whatever runs inside: the
    other work a shared grading host has."""
    busy = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(processes)]
    try:
        yield
    finally:
        for process in busy:
            process.kill()
            process.wait()
