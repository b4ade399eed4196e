"""Walk the caller's frames and the garbage collector for the expected output
or anything that looks like the per-run key: in a split supervisor/runner
harness, the submission's process holds neither."""
import gc
import sys

import numpy as np

SUSPECT_NAMES = ("secret", "key", "expected", "want", "reference_output", "hmac")


def _scan(x):
    found = []
    frame = sys._getframe(1)
    while frame is not None:
        for name, value in frame.f_locals.items():
            if any(word in name.lower() for word in SUSPECT_NAMES) and isinstance(value, (bytes, str, np.ndarray)):
                if isinstance(value, np.ndarray) and value.shape == x.shape and value is not x:
                    found.append(f"frame {frame.f_code.co_name} holds {name} (array like the output)")
                elif isinstance(value, (bytes, str)) and 16 <= len(value) <= 256:
                    found.append(f"frame {frame.f_code.co_name} holds {name}={value[:12]!r}...")
        frame = frame.f_back
    for obj in gc.get_objects():
        if isinstance(obj, dict) and "secret" in obj and isinstance(obj.get("secret"), (bytes, str)):
            found.append("a dict with a 'secret' entry")
            break
    return found


def transform(x):
    findings = _scan(x)
    if findings:
        raise RuntimeError("ESCAPED: " + "; ".join(findings))
    return np.sqrt(x * x + 1.0) * 2.0 - x
