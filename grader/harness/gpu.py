"""Everything GPU-specific, kept apart so the CPU path never imports CuPy.

Runner side (`Device`): a GPU call has three phases (see sides.py). Staging
copies the inputs to the device and synchronises it, untimed; the timed
window holds only the entry point and a synchronisation of the whole device,
so queued kernels cannot hide; the result is copied to host memory after the
window closes. Host<->device copies cost the same for both sides and would
otherwise swamp the kernels being compared.

CuPy's memory pool is kept from call to call on inputs of one shape, as in
any CuPy program after its first call (and in a learner's own timing loop),
so a timed call allocates from the pool, not with cudaMalloc: fresh device
allocations in every timed call would cost more than small kernels take and
hide the difference between the two sides. The pool is emptied (the "release" message, untimed) only before a call on a new
input: an edge input, a check size, a timed size's warm-up. What the pool
keeps counts as the runner's memory (DeviceHoldings).

The inputs' host copies are kept until "fetch", which checks that the device
copies still match them (untimed, on both sides alike) and reports where the
answer's arrays live; the supervisor compares that with the reference's.

Supervisor side (`MemoryProbe`): device memory comes from NVML, i.e. from the
driver, never from numbers a runner reports. In a PID namespace NVML's
per-process list shows host pids, so the probe reads device-wide "used"
memory, taken while the other runner is stopped and idle, so that a change
across a call is this runner's; DeviceHoldings adds those changes up into
what the runner holds, so a call's peak counts the pool it began with and
what the module allocated on the device at import (Side.wait_hello).
Without pynvml the probe reports nothing and the host figures are used.
"""

from collections.abc import Iterable
from typing import Literal, cast

import numpy as np
import numpy.typing as npt

#: Where an answer's array lives (Device.placement).
Placement = Literal["device", "host"]


class Device:
    """The runner's side of a GPU call. CuPy has no type information here (it is
    imported only on a GPU worker), so its objects are Any to mypy."""

    def __init__(self) -> None:
        import cupy

        # Bound before the submission's module runs, so code that replaces
        # cupy.asarray and friends cannot run inside the untimed copies.
        self._asarray = cupy.asarray
        self._asnumpy = cupy.asnumpy
        self._ndarray = cupy.ndarray
        self._pools = (cupy.get_default_memory_pool(), cupy.get_default_pinned_memory_pool())
        self.synchronize = cupy.cuda.runtime.deviceSynchronize
        name = cupy.cuda.runtime.getDeviceProperties(0)["name"]
        self.name: str = name.decode("utf-8", "replace") if isinstance(name, bytes) else name
        # The first allocation makes the CUDA context (hundreds of MB of device
        # memory), before the supervisor's memory baseline: it is not the module's.
        self.to_device((np.zeros(1),))
        self.release_pool()

    def to_device(self, args: Iterable[object]) -> tuple[object, ...]:
        """Copies NumPy arguments to the device and waits until they are there."""
        staged = tuple(
            self._asarray(a) if type(a).__name__ == "ndarray" and type(a).__module__ == "numpy" else a for a in args
        )
        self.synchronize()
        return staged

    def to_host(self, value: object) -> object:
        """CuPy arrays (also inside a tuple) as NumPy arrays; anything else unchanged."""
        if type(value) is self._ndarray:
            return self._asnumpy(value)
        if type(value) is tuple:
            return tuple(self.to_host(item) for item in value)
        return value

    def placement(self, value: object) -> list[Placement | None]:
        """Where each array of `value` lives, in order: "device", "host" or None
        (not an array). The supervisor compares the submission's with the
        reference's: a NumPy answer where the reference returns a CuPy array
        skipped the device work (and the copy back) that the exercise measures."""
        if type(value) is tuple:
            return [where for item in value for where in self.placement(item)]
        if type(value) is self._ndarray:
            return ["device"]
        if type(value).__name__ == "ndarray" and type(value).__module__ == "numpy":
            return ["host"]
        return [None]

    def modified_arguments(self, staged: Iterable[object], originals: Iterable[object]) -> list[int]:
        """Positions of device arguments whose contents no longer match the host
        arrays they were staged from (the inputs must be left unchanged on the
        device as on the host)."""
        changed: list[int] = []
        for position, (on_device, original) in enumerate(zip(staged, originals)):
            if type(on_device) is self._ndarray:
                original = cast("npt.NDArray[np.generic]", original)  # to_device staged it from this NumPy array
                now = self._asnumpy(on_device)
                if now.shape != original.shape or not np.array_equal(now, original, equal_nan=True):
                    changed.append(position)
        return changed

    def release_pool(self) -> None:
        for pool in self._pools:
            pool.free_all_blocks()


class MemoryProbe:
    """Device memory in use, read from NVML (pynvml, which has no type information:
    its handle is an opaque object)."""

    def __init__(self) -> None:
        self.handle: object | None = None
        try:
            import pynvml

            pynvml.nvmlInit()
            self._pynvml = pynvml
            self.handle = pynvml.nvmlDeviceGetHandleByIndex(0)
        except Exception:  # no pynvml, no driver: host figures only
            self.handle = None

    @property
    def available(self) -> bool:
        return self.handle is not None

    def used_bytes(self) -> int | None:
        if self.handle is None:
            return None
        try:
            return int(self._pynvml.nvmlDeviceGetMemoryInfo(self.handle).used)
        except Exception:
            return None


class DeviceHoldings:
    """The device memory one runner holds, counted from its module's first line.

    NVML reads the whole device, so only changes read while this runner alone
    works (the other is stopped, or idle with its work synchronised) are its
    own: loading its module, each call, each emptying of its pool. The tally
    starts at zero when the module's first line runs and never goes below it."""

    def __init__(self) -> None:
        self.held_bytes = 0

    def changed(self, before_bytes: int, after_bytes: int) -> None:
        self.held_bytes = max(0, self.held_bytes + after_bytes - before_bytes)

    def call_peak(self, before_bytes: int, sampled_peak_bytes: int, after_bytes: int) -> int:
        """The most this runner held during a call that began at `before_bytes`
        (device-wide), peaked at `sampled_peak_bytes` as sampled, and ended at
        `after_bytes`; the tally moves on to the call's end. A peak between two
        samples is still bounded below by what the pool holds at the end."""
        during = self.held_bytes + max(0, sampled_peak_bytes - before_bytes)
        self.changed(before_bytes, after_bytes)
        return max(during, self.held_bytes)
