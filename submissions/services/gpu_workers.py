"""Whether a GPU worker is online: it records a heartbeat in the shared cache every
GPU_HEARTBEAT_INTERVAL_S, which expires after GPU_HEARTBEAT_TTL_S without one. Each
heartbeat also records, with no expiry, that this install has had a GPU worker, so the
pages tell "the GPU worker is offline" from "there has never been one"."""

from django.core.cache import cache
from django.utils import timezone

from ..states import Status

GPU_HEARTBEAT_KEY = "submissions:gpu-worker-heartbeat"
GPU_HEARTBEAT_INTERVAL_S = 20
GPU_HEARTBEAT_TTL_S = 3 * GPU_HEARTBEAT_INTERVAL_S
#: When a GPU worker was last seen, kept with no expiry.
GPU_SEEN_KEY = "submissions:gpu-worker-seen"
NO_GPU_WORKER_MESSAGE = (
    "No GPU worker is online right now, so this GPU exercise cannot be graded. Your code is kept; "
    "submit again once a GPU worker is back."
)
NEVER_A_GPU_WORKER_MESSAGE = (
    "This Hotpath has no GPU worker (none has ever connected), so its GPU exercises cannot be graded here. "
    "You can read the exercise and write your code, which is kept; grading it needs a server with a GPU "
    "running `manage.py gpu_worker`."
)


def record_gpu_heartbeat(details):
    now = timezone.now().isoformat()
    cache.set(GPU_HEARTBEAT_KEY, {**details, "at": now}, timeout=GPU_HEARTBEAT_TTL_S)
    cache.set(GPU_SEEN_KEY, now, timeout=None)


def clear_gpu_heartbeat():
    cache.delete(GPU_HEARTBEAT_KEY)


def gpu_worker_online():
    return cache.get(GPU_HEARTBEAT_KEY) is not None


def no_gpu_worker_message():
    """Why a GPU exercise cannot be graded while no GPU worker is online: it is offline,
    or this install has never had one."""
    return NO_GPU_WORKER_MESSAGE if cache.get(GPU_SEEN_KEY) else NEVER_A_GPU_WORKER_MESSAGE


def waiting_for_gpu(submission):
    return submission.status == Status.QUEUED and submission.queue == "gpu" and not gpu_worker_online()
