"""The one channel the host trusts: the last stdout line of the harness,
`HOTPATH-REPORT <hmac-sha256-hex> <json>`, keyed with a secret the host sends
on stdin for this run only. Submitted code never sees the secret, so any line
it prints (or any report it forges) fails verification."""
import hashlib
import hmac
import json

REPORT_PREFIX = "HOTPATH-REPORT"


def sign(secret: bytes, payload: str) -> str:
    return hmac.new(secret, payload.encode("utf-8"), hashlib.sha256).hexdigest()


def format_report(secret: bytes, report: dict) -> str:
    payload = json.dumps(report, separators=(",", ":"), sort_keys=True, allow_nan=False)
    return f"{REPORT_PREFIX} {sign(secret, payload)} {payload}"


def parse_report(secret: bytes, stdout: bytes):
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
            report = json.loads(payload)
        except ValueError:
            return None
        return report if isinstance(report, dict) else None
    return None
