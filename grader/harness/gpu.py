"""Everything GPU-specific, kept apart so the CPU path never imports CuPy.

Runner side (`Device`): inputs are copied to the device inside the timed
window (so a GPU answer pays for its transfers exactly as the reference
does), the runner synchronises the whole device and copies the result to host
memory before it replies, and it returns CuPy's pooled blocks after each call
so the next call's device-memory baseline is not hiding a cache.

Supervisor side (`MemoryProbe`): device memory comes from NVML, i.e. from the
driver, never from numbers a runner reports. In a PID namespace NVML's
per-process list shows host pids, so the probe reads device-wide "used"
memory; the supervisor turns that into a per-call peak over the baseline
taken just before the call (the other runner is stopped and idle then).
Without pynvml the probe reports nothing and the host figures are used.
"""


class Device:
    def __init__(self):
        import cupy

        self.cupy = cupy
        self.name = cupy.cuda.runtime.getDeviceProperties(0)["name"]
        if isinstance(self.name, bytes):
            self.name = self.name.decode("utf-8", "replace")

    def to_device(self, args):
        cupy = self.cupy
        return tuple(cupy.asarray(a) if type(a).__name__ == "ndarray" and type(a).__module__ == "numpy" else a for a in args)

    def to_host(self, value):
        """Waits for all queued device work, then brings CuPy arrays home."""
        cupy = self.cupy
        cupy.cuda.runtime.deviceSynchronize()
        if type(value) is cupy.ndarray:
            return cupy.asnumpy(value)
        if type(value) is tuple:
            return tuple(self.to_host(item) for item in value)
        return value

    def release_pool(self):
        self.cupy.get_default_memory_pool().free_all_blocks()
        self.cupy.get_default_pinned_memory_pool().free_all_blocks()


class MemoryProbe:
    def __init__(self):
        self.handle = None
        try:
            import pynvml

            pynvml.nvmlInit()
            self._pynvml = pynvml
            self.handle = pynvml.nvmlDeviceGetHandleByIndex(0)
        except Exception:  # no pynvml, no driver: host figures only
            self.handle = None

    @property
    def available(self):
        return self.handle is not None

    def used_bytes(self):
        if self.handle is None:
            return None
        try:
            return int(self._pynvml.nvmlDeviceGetMemoryInfo(self.handle).used)
        except Exception:
            return None
