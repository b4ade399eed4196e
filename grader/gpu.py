"""Host-side GPU detection: whether this machine can grade GPU exercises itself."""


class NoGPU(Exception):
    """Raised with the reason this machine has no usable CUDA device."""


def detect_gpu() -> str:
    """The first CUDA device's name, or raise NoGPU saying why there is none."""
    try:
        import cupy
    except ImportError:
        raise NoGPU(
            "CuPy is not installed, so this machine cannot grade GPU exercises (pip install cupy-cuda12x)."
        ) from None
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:  # CUDARuntimeError when there is no driver or device
        raise NoGPU(f"CuPy sees no CUDA device ({exc}).") from None
    if count < 1:
        raise NoGPU("CuPy sees no CUDA device.")
    name = cupy.cuda.runtime.getDeviceProperties(0)["name"]
    return name.decode() if isinstance(name, bytes) else str(name)
