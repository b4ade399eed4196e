"""Watching a runner from the outside: its memory while it works and the
output it writes. Both run as threads in the supervisor."""

import os
import signal
import threading
import time
from collections.abc import Callable, Iterable
from typing import Protocol

from . import procs


class DeviceProbe(Protocol):
    """Reads the device memory in use (gpu.DeviceProbe): None when it cannot be read."""

    def used_bytes(self) -> int | None: ...


class Sampler(threading.Thread):
    """Polls the resident memory of a runner's whole process tree (and the
    scratch tmpfs, and device memory on GPU) every ~2 ms; kills the tree the
    moment it passes the memory limit. What the tree holds outside every
    resident set (procs.unmapped_shared_bytes: memfds kept open, unmapped) is
    read at the first sample and the last, outside the timed window: reading a
    process's maps takes its memory-map lock, which would slow the very calls
    being timed, and only the submission's maps are readable."""

    INTERVAL_S = 0.002
    RESCAN_S = 0.02

    def __init__(
        self,
        root_pid: int,
        limit_bytes: int,
        scratch: str | None = None,
        device_probe: DeviceProbe | None = None,
        trusted_roots: Iterable[int] = (),
    ) -> None:
        super().__init__(daemon=True, name="hotpath-sampler")
        self.root_pid = root_pid
        self.trusted_roots = tuple(trusted_roots)
        self.limit_bytes = limit_bytes
        self.scratch = scratch
        self.device_probe = device_probe
        self.peak_tree_bytes = 0
        self.peak_scratch_bytes = 0
        self.peak_device_bytes: int | None = None
        self.breached_bytes: int | None = None
        self.held_bytes = 0
        self._stop_event = threading.Event()
        # Set once the first sample is in: the caller starts its clock after
        # that, so the thread's start-up and first /proc scan are not timed.
        self.first_sample_taken = threading.Event()

    def members(self) -> list[int]:
        """The pids whose memory counts against the runner (procs.accountable)."""
        pids: list[int] = procs.accountable(self.root_pid, self.trusted_roots)
        return pids

    def run(self) -> None:
        members = self.members()
        rescanned = time.monotonic()
        self.held_bytes = procs.unmapped_shared_bytes(members)
        breached = self._sample(members)
        self.first_sample_taken.set()
        if breached:
            return
        while True:
            if self._stop_event.wait(self.INTERVAL_S):
                members = self.members()
                self.held_bytes = procs.unmapped_shared_bytes(members)
                self._sample(members)
                return
            if time.monotonic() - rescanned > self.RESCAN_S:
                members = self.members()
                rescanned = time.monotonic()
            if self._sample(members):
                return

    def _sample(self, members: list[int]) -> bool:
        total: int = procs.tree_rss_bytes(members) + self.held_bytes
        self.peak_tree_bytes = max(self.peak_tree_bytes, total)
        if self.scratch is not None:
            self.peak_scratch_bytes = max(self.peak_scratch_bytes, scratch_used_bytes(self.scratch))
        if self.device_probe is not None:
            used = self.device_probe.used_bytes()
            if used is not None:
                self.peak_device_bytes = max(self.peak_device_bytes or 0, used)
        if self.limit_bytes and total > self.limit_bytes:
            self.breached_bytes = total
            procs.kill_tree(self.root_pid)
            procs.send_signal([pid for pid in members if pid != self.root_pid], signal.SIGKILL)
            return True
        return False

    def finish(self) -> None:
        self._stop_event.set()
        self.join()


def scratch_used_bytes(path: str) -> int:
    stats = os.statvfs(path)
    return (stats.f_blocks - stats.f_bfree) * stats.f_frsize


def on_tmpfs(path: str) -> bool:
    """Whether `path` lives on a tmpfs (only then is its growth this job's own)."""
    best, fstype = "", None
    real = os.path.realpath(path)
    try:
        with open("/proc/self/mounts") as handle:
            for line in handle:
                parts = line.split()
                if len(parts) >= 3:
                    mount = parts[1].replace("\\040", " ")
                    if (real == mount or real.startswith(mount.rstrip("/") + "/")) and len(mount) >= len(best):
                        best, fstype = mount, parts[2]
    except OSError:
        return False
    return fstype == "tmpfs"


class OutputDrain(threading.Thread):
    """Reads a runner's stdout+stderr pipe; past `limit_bytes` it kills the
    runner's tree. Keeps the last few KB to show the learner with an error."""

    TAIL_BYTES = 2000

    def __init__(self, fd: int, limit_bytes: int, on_exceeded: Callable[[], object]) -> None:
        super().__init__(daemon=True, name="hotpath-output")
        self.fd = fd
        self.limit_bytes = limit_bytes
        self.on_exceeded = on_exceeded
        self.total_bytes = 0
        self.exceeded = False
        self.tail = b""

    def run(self) -> None:
        try:
            while True:
                chunk = os.read(self.fd, 65536)
                if not chunk:
                    return
                self.total_bytes += len(chunk)
                self.tail = (self.tail + chunk)[-self.TAIL_BYTES :]
                if self.total_bytes > self.limit_bytes and not self.exceeded:
                    self.exceeded = True
                    self.on_exceeded()
        finally:
            os.close(self.fd)

    def tail_text(self) -> str:
        return self.tail.decode("utf-8", "replace")
