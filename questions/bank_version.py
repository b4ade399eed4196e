"""The bank's version: a short string that changes whenever a question or an exercise
version is added, edited, retired, restored or deleted. The public pages cache what they
render from the bank under it, so a changed question shows on the next request and no
cached page has to be found and invalidated by hand.

The version is a fingerprint of the two tables and of BankRevision's number (three small
queries), remembered in the process for VERSION_MEMO_S so a page view usually costs no query
at all. Saving or deleting a Question or an ExerciseVersion raises that number and forgets the
version at once in the process that did it (signals connected in QuestionsConfig.ready;
load_bank calls record_bank_change after it retires questions with a queryset update); the
other processes, on this machine or another, see the change within VERSION_MEMO_S. The
number is what makes an edit visible whatever the clocks say (models.BankRevision says
why). The version is not kept in the shared cache: processes on different databases may
share one cache (tests, a bench beside a dev server), and one must never read another's.

The version also names the release (release_version: the project's templates and Python
files), so a deploy never serves a fragment that older templates rendered."""

import functools
import hashlib
import os
import time
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.db.models import Count, F, Max

from .models import BankRevision, ExerciseVersion, Question

VERSION_MEMO_S = 2.0
RELEASE_SUFFIXES = (".py", ".html")
RELEASE_SKIPPED = {"node_modules", "tests", "bench", "staticfiles", "bank", "frontend", "sandbox_images", "__pycache__"}


@functools.lru_cache(maxsize=1)
def release_version():
    """A hash of the name, size and modification time of every template and Python file of the
    project (not the virtual environment): the same in every process of one deploy, new after one."""
    root = Path(settings.BASE_DIR)
    digest = hashlib.sha1()
    for folder, folders, files in os.walk(root):
        folders[:] = sorted(name for name in folders if not name.startswith(".") and name not in RELEASE_SKIPPED)
        for name in sorted(files):
            if name.endswith(RELEASE_SUFFIXES):
                path = Path(folder) / name
                stat = path.stat()
                digest.update(f"{path.relative_to(root)}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:12]


_memo = {"version": None, "until": 0.0}


def _fingerprint():
    questions = Question.objects.aggregate(
        count=Count("id"),
        last_id=Max("id"),
        changed=Max("updated_at"),
        retired=Count("retired_at"),
        last_retired=Max("retired_at"),
    )
    versions = ExerciseVersion.objects.aggregate(count=Count("id"), last_id=Max("id"))
    revision = BankRevision.objects.filter(pk=1).values_list("number", flat=True).first()
    facts = (
        questions["count"],
        questions["last_id"],
        questions["changed"],
        questions["retired"],
        questions["last_retired"],
        versions["count"],
        versions["last_id"],
        revision,
    )
    return hashlib.sha1(repr(facts).encode()).hexdigest()[:16]


def bank_version():
    now = time.monotonic()
    if _memo["version"] is None or now >= _memo["until"]:
        _memo["version"] = f"{release_version()}-{_fingerprint()}"
        _memo["until"] = now + VERSION_MEMO_S
    return _memo["version"]


def record_bank_change(**_signal_arguments):
    """The bank changed: raise the revision every process reads, and forget the version here."""
    if not BankRevision.objects.filter(pk=1).update(number=F("number") + 1):
        BankRevision.objects.get_or_create(pk=1)  # the first change ever (or since a test's flush)
        BankRevision.objects.filter(pk=1).update(number=F("number") + 1)
    forget_bank_version()


def forget_bank_version():
    """The bank changed: the next bank_version() reads the tables again (now, and once more when
    the transaction commits, so a read in between is not kept)."""
    _memo["version"] = None
    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(lambda: _memo.update(version=None))
