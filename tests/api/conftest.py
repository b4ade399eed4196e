"""API fixtures: tokens of each scope for the candidate, and a graded submission."""

from datetime import timedelta

import pytest
from django.utils import timezone

from api import tokens
from api.models import Scope
from submissions.models import Purpose, Submission
from submissions.states import Status, Verdict
from tests.submissions.conftest import TINY_FILES, exercise_version, queued  # noqa: F401  (fixtures)

GRADED_REPORT = {
    "verdict": "accepted",
    "harness_version": "test",
    "speedup": 41.5,
    "speedup_ci": [39.0, 44.0],
    "peak_memory_bytes": 2_000_000,
    "reference_peak_memory_bytes": 1_000_000,
    "sizes": [
        {
            "size": 8000,
            "pairs": 2,
            "speedup": 41.5,
            "speedup_ci": [39.0, 44.0],
            "time_s": 0.001,
            "reference_time_s": 0.0415,
            "transfer_overhead_s": 0.0001,
            "calls": [[0.0011, 0.0416, 0.0001], [0.0010, 0.0414, 0.0001]],
        }
    ],
}


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def own_cache(settings, request):
    """A cache of this test's own, so rate-limit counts never leak between tests (or runs)."""
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": request.node.nodeid}
    }


@pytest.fixture
def make_token():
    def make(user, scope=Scope.SUBMIT, lifetime_days=30, name="laptop"):
        return tokens.create_token(user, name, scope, lifetime_days)[1]

    return make


@pytest.fixture
def submit_token(candidate, make_token):
    return make_token(candidate, Scope.SUBMIT)


@pytest.fixture
def read_token(candidate, make_token):
    return make_token(candidate, Scope.READ, name="read-only")


def bearer(token):
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


@pytest.fixture
def graded_submission(candidate, exercise_version):
    """A practice submission as a worker leaves it: done, accepted, with its report."""
    return Submission.objects.create(
        user=candidate,
        exercise=exercise_version,
        code=TINY_FILES["solution.py"],
        purpose=Purpose.PRACTICE,
        status=Status.DONE,
        verdict=Verdict.ACCEPTED,
        report=GRADED_REPORT,
        speedup=41.5,
        speedup_ci_low=39.0,
        speedup_ci_high=44.0,
        peak_memory_bytes=2_000_000,
        reference_peak_memory_bytes=1_000_000,
        hardware="cpu",
        started_at=timezone.now() - timedelta(seconds=5),
        finished_at=timezone.now(),
    )
