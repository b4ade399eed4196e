"""The one channel the host trusts: the last stdout line of the harness,
`HOTPATH-REPORT <hmac-sha256-hex> <json>`, keyed with a secret the host sends
on stdin for this run only. Submitted code never sees the secret, so any line
it prints (or any report it forges) fails verification. The same stdin brings
the job's trusted files (format_stdin), which the submission never sees either."""

import hashlib
import hmac
import json
from collections.abc import Callable, Mapping

REPORT_PREFIX = "HOTPATH-REPORT"
#: The job's files that only the trusted side may read. They never touch the sandbox's
#: filesystem, where the submission runs with the supervisor's uid: the host writes them
#: to the harness's stdin after the secret's line, as one JSON object, and the harness
#: keeps them in its own (non-dumpable) memory.
TRUSTED_FILES = ("job.json", "reference.py", "inputs.py", "check.py")
MAX_STDIN_BYTES = 16 << 20


def format_stdin(secret_line: bytes, files: Mapping[str, str]) -> bytes:
    """What the host writes to the harness's stdin: the secret's line, then `files`
    (names from TRUSTED_FILES mapped to their text) as JSON."""
    unknown = set(files) - set(TRUSTED_FILES)
    if unknown:
        raise ValueError(f"not trusted job files: {sorted(unknown)}")
    return secret_line + json.dumps(files).encode("utf-8")


def parse_stdin(data: bytes) -> tuple[bytes, dict[str, str]]:
    """(secret, files) from what format_stdin wrote. ValueError when the files
    part is not such an object (the secret is still returned by the caller's
    first line, so the failure can be reported signed)."""
    line, _, rest = data.partition(b"\n")
    files: object = json.loads(rest.decode("utf-8")) if rest.strip() else {}
    if not isinstance(files, dict) or not all(
        name in TRUSTED_FILES and isinstance(text, str) for name, text in files.items()
    ):
        raise ValueError("the trusted job files are not a JSON object of known names and texts")
    return line.strip(), files


def sign(secret: bytes, payload: str) -> str:
    return hmac.new(secret, payload.encode("utf-8"), hashlib.sha256).hexdigest()


def format_report(secret: bytes, report: Mapping[str, object]) -> str:
    payload = json.dumps(report, separators=(",", ":"), sort_keys=True, allow_nan=False)
    return f"{REPORT_PREFIX} {sign(secret, payload)} {payload}"


def parse_report(secret: bytes, stdout: bytes) -> dict[str, object] | None:
    """Returns the verified report dict from the harness output, or None."""
    for raw_line in reversed(stdout.splitlines()):
        line = raw_line.decode("utf-8", errors="replace").strip()
        if not line.startswith(REPORT_PREFIX + " "):
            continue
        parts = line.split(" ", 2)
        if len(parts) != 3:
            return None
        _, digest, payload = parts
        if not hmac.compare_digest(digest, sign(secret, payload)):
            return None
        try:
            report: object = json.loads(payload)
        except ValueError:
            return None
        return report if isinstance(report, dict) else None
    return None


#: Progress lines, printed by the supervisor while it works: `HOTPATH-PROGRESS <hmac> <json>`,
#: signed like the report so nothing else in the sandbox can fake the page's progress bar.
PROGRESS_PREFIX = "HOTPATH-PROGRESS"
PROGRESS_PHASES = ("loading", "checking", "timing", "profiling", "comparing")
PROGRESS_COUNTS = ("size_index", "sizes", "pair", "pairs")
PROGRESS_SECONDS = ("elapsed_s", "eta_s")
MAX_PROGRESS_LINE = 4096
#: A verified progress line: its phase, counts (int) and seconds (float), None where not given.
Progress = dict[str, str | int | float | None]


def format_progress(secret: bytes, progress: Mapping[str, object]) -> str:
    payload = json.dumps(progress, separators=(",", ":"), sort_keys=True, allow_nan=False)
    return f"{PROGRESS_PREFIX} {sign(secret, payload)} {payload}"


def parse_progress(secret: bytes, line: str) -> Progress | None:
    """The verified, well-formed progress dict in `line`, or None."""
    parts = line.strip().split(" ", 2)
    if len(parts) != 3 or parts[0] != PROGRESS_PREFIX or not hmac.compare_digest(parts[1], sign(secret, parts[2])):
        return None
    try:
        progress: object = json.loads(parts[2])
    except ValueError:
        return None
    if not isinstance(progress, dict) or progress.get("phase") not in PROGRESS_PHASES:
        return None
    clean: Progress = {"phase": progress["phase"]}
    for name in PROGRESS_COUNTS:
        value = progress.get(name)
        clean[name] = value if type(value) is int and value >= 0 else None
    for name in PROGRESS_SECONDS:
        value = progress.get(name)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < 1e6:
            clean[name] = float(value)
        else:
            clean[name] = None
    return clean


class ProgressReader:
    """Feeds on the sandbox's stdout as it arrives and calls `callback` with each
    verified progress dict. The report itself is parsed from the whole output at
    the end (parse_report), not here."""

    def __init__(self, secret: bytes, callback: Callable[[Progress], object]) -> None:
        self.secret = secret
        self.callback = callback
        self.pending = b""

    def feed(self, chunk: bytes) -> None:
        self.pending += chunk
        *lines, self.pending = self.pending.split(b"\n")
        if len(self.pending) > MAX_PROGRESS_LINE:
            self.pending = b""  # a long line is never a progress line
        for raw in lines:
            if raw.startswith(PROGRESS_PREFIX.encode()) and len(raw) <= MAX_PROGRESS_LINE:
                progress = parse_progress(self.secret, raw.decode("utf-8", "replace"))
                if progress is not None:
                    self.callback(progress)
