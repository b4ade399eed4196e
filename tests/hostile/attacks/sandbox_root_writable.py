"""Write outside /tmp inside the sandbox's own root: /, /etc, /home, /root,
/var/tmp, /dev/shm. These live in bubblewrap's private root tmpfs, not on the
host, but they are not under the /tmp size cap: only /tmp should be writable."""
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
    for directory in ("/", "/etc", "/home", "/root", "/var/tmp", "/dev/shm", "/proc", "/job/.."):
        path = os.path.join(directory, "pwned")
        try:
            with open(path, "wb") as handle:
                handle.write(b"x")
            found.append(f"wrote {path}")
        except OSError:
            pass
    return found


_FINDINGS = _probe()


def transform(x):
    return np.sqrt(x * x + 1.0) * 2.0 - x
