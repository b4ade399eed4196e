"""Starts the web server, the grading worker and the quick-check worker together; Ctrl-C stops them all."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent


def commands():
    """The web server (uvicorn: pages and the interview rooms' websockets), the grading worker,
    and the worker kept for quick checks."""
    celery = [
        str(VENV_BIN / "celery"),
        "-A",
        "interview_platform",
        "worker",
        "--concurrency",
        "1",
        "--loglevel",
        "INFO",
    ]
    return [
        [
            sys.executable,
            "-m",
            "uvicorn",
            "interview_platform.asgi:application",
            "--host",
            "127.0.0.1",
            "--port",
            "8000",
            "--reload",
            "--lifespan",
            "off",
        ],
        # -B runs the beat scheduler in the worker: the stuck-submission sweep and assessment deadlines.
        # It takes quick checks too when it is idle.
        [*celery, "-B", "-Q", "cpu,check", "-n", "cpu@%h", "--schedule", str(ROOT / ".run" / "celerybeat-schedule")],
        # A slot kept for quick checks (submissions.models.queue_for): one never waits behind a full grading.
        [*celery, "-Q", "check", "-n", "check@%h"],
    ]


def main():
    os.chdir(ROOT)
    (ROOT / ".run").mkdir(exist_ok=True)
    # The local demo: debug pages and the built-in SECRET_KEY (DEBUG is off by default everywhere else).
    environment = {"DEBUG": "1", **os.environ}
    worker_environment = dict(environment)
    if os.geteuid() == 0:
        # Root on purpose: the worker makes a cgroup per grading and starts each sandbox as
        # user nobody (docs/sandbox.md, layer 1). Celery's warning about root says nothing more.
        worker_environment["PYTHONWARNINGS"] = "ignore:You're running the worker with superuser privileges"
        print(
            "The worker runs as root, to give each grading its own cgroup and drop the sandbox to user nobody.",
            flush=True,
        )
    environments = [environment, worker_environment, worker_environment]
    children = [subprocess.Popen(cmd, env=env, start_new_session=True) for cmd, env in zip(commands(), environments)]
    print("Hotpath is running on http://127.0.0.1:8000 (Ctrl-C stops the server and the workers)", flush=True)

    def stop(*_):
        for child in children:
            if child.poll() is None:
                os.killpg(child.pid, signal.SIGTERM)
        for child in children:
            try:
                child.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(child.pid, signal.SIGKILL)
        sys.exit(0)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    while True:
        for child in children:
            if child.poll() is not None:
                print(f"{child.args[0]} exited with {child.returncode}; stopping.", file=sys.stderr)
                stop()
        time.sleep(0.5)


if __name__ == "__main__":
    main()
