import uuid

import pytest


@pytest.fixture(autouse=True)
def private_cache(settings):
    """Each test gets a cache of its own: heartbeats and counters live in the cache, and the file
    cache of a bare pytest is shared with `make run` and other test runs, whose workers and mail
    tasks count too. And each test scrapes afresh (ops.metrics reuses a scrape for a few seconds)."""
    from ops import metrics

    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": f"ops-{uuid.uuid4().hex}"}
    }
    metrics.COLLECTOR._cached_at = None
    yield
    metrics.COLLECTOR._cached_at = None


@pytest.fixture
def exercise_version(db):
    """A coding exercise to hang submissions on (nothing here grades it)."""
    from questions.models import ExerciseVersion, Kind, Question

    question = Question.objects.create(
        slug="ops-scale",
        title="Scale an array",
        topic="Algorithmic Complexity & Code-Level Optimization",
        difficulty="easy",
        kind=Kind.CODING,
        prompt="Return `x * 3 + 1`.",
    )
    return ExerciseVersion.objects.create(
        question=question,
        number=1,
        spec={"target": "cpu", "entry_point": "scale"},
        reference_code="",
        starter_code="",
        inputs_code="",
        solution_code="",
        content_hash="ops",
    )
