"""Whether a GPU worker is online: it records a heartbeat in the shared cache every
GPU_HEARTBEAT_INTERVAL_S, which expires after GPU_HEARTBEAT_TTL_S without one."""
from django.core.cache import cache
from django.utils import timezone

from ..states import Status

GPU_HEARTBEAT_KEY = "submissions:gpu-worker-heartbeat"
GPU_HEARTBEAT_INTERVAL_S = 20
GPU_HEARTBEAT_TTL_S = 3 * GPU_HEARTBEAT_INTERVAL_S
NO_GPU_WORKER_MESSAGE = (
    "No GPU worker is online right now, so this GPU exercise cannot be graded. Your code is kept; "
    "submit again once a GPU worker is back."
)


def record_gpu_heartbeat(details):
    cache.set(GPU_HEARTBEAT_KEY, {**details, "at": timezone.now().isoformat()}, timeout=GPU_HEARTBEAT_TTL_S)


def clear_gpu_heartbeat():
    cache.delete(GPU_HEARTBEAT_KEY)


def gpu_worker_online():
    return cache.get(GPU_HEARTBEAT_KEY) is not None


def waiting_for_gpu(submission):
    return submission.status == Status.QUEUED and submission.queue == "gpu" and not gpu_worker_online()
