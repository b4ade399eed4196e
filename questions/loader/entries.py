"""One parsed bank entry, its content hashes, and the errors a bank can have."""

import hashlib
import json
from dataclasses import dataclass

from .canonical import render_question_markdown


@dataclass(frozen=True)
class BankError:
    path: str
    reason: str

    def __str__(self):
        return f"{self.path}: {self.reason}"


class BankFileInvalid(Exception):
    """One bank entry is bad; `reasons` lists everything wrong with it."""

    def __init__(self, reasons):
        super().__init__("; ".join(reasons))
        self.reasons = list(reasons)


class BankLoadError(Exception):
    """The bank was rejected as a whole; nothing was written."""

    def __init__(self, errors):
        super().__init__(f"{len(errors)} problem(s) in the question bank; nothing was loaded")
        self.errors = list(errors)


@dataclass
class BankEntry:
    """One parsed question: the Question field values, and for a coding exercise
    its spec and code files."""

    path: str  # relative to the bank root, POSIX style
    fields: dict
    spec: dict | None = None
    files: dict | None = None

    @property
    def slug(self):
        return self.fields["slug"]

    @property
    def content_hash(self):
        return _sha256({"markdown": render_question_markdown(self.fields, self.spec), "files": self.files})

    @property
    def exercise_hash(self):
        if self.spec is None:
            return None
        return exercise_content_hash(self.spec, self.files)


def exercise_content_hash(spec, files):
    return _sha256({"spec": spec, "files": files})


def _sha256(data):
    canonical = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()
