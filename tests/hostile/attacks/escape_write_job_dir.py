"""Tamper with the job the host wrote: overwrite the harness, the reference and
job.json, drop new files into /job, rename the reference away. /job is the
host's directory bound read-only: nothing written here may reach the host."""
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
    found = []
    targets = ["/job/harness/__init__.py", "/job/harness/main.py", "/job/reference.py", "/job/job.json",
               "/job/inputs.py", "/job/pwned", "/job/harness/pwned.py", "/usr/pwned", "/usr/lib/pwned"]
    for path in targets:
        try:
            with open(path, "ab") as handle:
                handle.write(b"")
            found.append(f"opened {path} for writing")
        except OSError:
            pass
    for path in ("/job/reference.py", "/job/harness"):
        try:
            os.rename(path, path + ".moved")
            found.append(f"renamed {path}")
        except OSError:
            pass
    return found


_FINDINGS = _probe()


def transform(x):
    if _FINDINGS:
        raise RuntimeError("ESCAPED: " + "; ".join(_FINDINGS))
    return np.sqrt(x * x + 1.0) * 2.0 - x
