"""Starts a Celery worker for the `gpu` queue, only where CuPy sees a CUDA device,
measures that device's limits for the roofline first (grader.host_limits), and
keeps a heartbeat in the cache so the site can tell learners whether a GPU
worker is online."""

import socket
import threading

from celery import current_app
from django.core.management.base import BaseCommand, CommandError

from grader import host_limits
from grader.gpu import NoGPU
from grader.gpu import detect_gpu as detect_device
from submissions.services import gpu_workers


def detect_gpu():
    try:
        return detect_device()
    except NoGPU as exc:
        raise CommandError(f"{exc} Not starting a GPU worker.") from None


class Heartbeat(threading.Thread):
    def __init__(self, details):
        super().__init__(name="gpu-heartbeat", daemon=True)
        self.details = details
        self.stopped = threading.Event()

    def run(self):
        while not self.stopped.is_set():
            gpu_workers.record_gpu_heartbeat(self.details)
            self.stopped.wait(gpu_workers.GPU_HEARTBEAT_INTERVAL_S)

    def stop(self):
        self.stopped.set()
        gpu_workers.clear_gpu_heartbeat()


class Command(BaseCommand):
    help = "Run a Celery worker on the gpu queue (only if CuPy sees a CUDA device)."

    def add_arguments(self, parser):
        parser.add_argument("--loglevel", default="INFO")

    def handle(self, *args, **options):
        gpu = detect_gpu()
        self.stdout.write(f"GPU found: {gpu}. Measuring its limits for the roofline, then starting the gpu worker.")
        host_limits.measure_at_worker_start("gpu")
        heartbeat = Heartbeat({"gpu": gpu, "host": socket.gethostname()})
        heartbeat.start()
        try:
            # The project's Celery app (configured from settings when Django starts).
            current_app.worker_main(
                ["worker", "-Q", "gpu", "--concurrency", "1", "-n", "gpu@%h", "--loglevel", options["loglevel"]]
            )
        finally:
            heartbeat.stop()
