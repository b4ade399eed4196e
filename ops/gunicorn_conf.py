"""gunicorn's settings for the web container: `gunicorn -c python:ops.gunicorn_conf interview_platform.wsgi`.

With PROMETHEUS_MULTIPROC_DIR set, each gunicorn worker writes its request metrics there and
/metrics adds them up (ops.metrics), whichever worker answers the scrape; the folder is emptied
when gunicorn starts and a dead worker's gauges are dropped. The access log is Django's
(ops.logs.RequestIdMiddleware, logger hotpath.access: with the request id, JSON with
LOG_FORMAT=json), so gunicorn's own is off."""

import os
import shutil
from pathlib import Path

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", "3"))
accesslog = None


def on_starting(server):
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        Path(folder).mkdir(parents=True, exist_ok=True)


def child_exit(server, worker):
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
