"""Plant symlinks and hard links in /tmp and the working directory pointing at
host paths (the canary the test planted, the project, /etc/passwd), under
names a careless host might read or clean up (report.json, stdout, result).
The host must never follow them: the canary file must come out unchanged."""
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


CANARY = "/tmp/hotpath-hostile-canary/secret.txt"
HOST_TARGETS = (CANARY, "/tmp/hotpath-hostile-canary", "/etc/passwd", "/", "/work", "/root")
NAMES = ("report.json", "stdout", "stderr", "result", "output", "job.json", "submission.py", "harness", "tmp", "x")


def _plant(os, directory):
    planted = 0
    for name in NAMES:
        for index, target in enumerate(HOST_TARGETS):
            try:
                os.symlink(target, os.path.join(directory, f"{name}.{index}" if index else name))
                planted += 1
            except OSError:
                pass
    try:
        os.link(CANARY, os.path.join(directory, "hardlink"))
    except OSError:
        pass
    return planted


def _probe():
    os = _load("os")
    planted = _plant(os, "/tmp") + _plant(os, os.getcwd())
    found = []
    try:
        with open("/tmp/report.json", "rb") as handle:  # only dangerous if the host's canary is visible here
            found.append(f"followed to host canary: {handle.read(80)!r}")
    except OSError:
        pass
    return planted, found


_PLANTED, _FINDINGS = _probe()


def transform(x):
    if _FINDINGS:
        raise RuntimeError("ESCAPED: " + "; ".join(_FINDINGS))
    return np.sqrt(x * x + 1.0) * 2.0 - x
