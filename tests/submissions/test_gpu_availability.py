"""A GPU exercise says when no GPU worker is online (the heartbeat in the cache),
before anyone submits, and submitting is refused until one is."""

import pytest
from django.core.cache import cache
from django.urls import reverse

from submissions.models import Submission
from submissions.services import gpu_workers, queueing

CODE = "def scale(x):\n    return x * 3.0 + 1.0\n"


@pytest.fixture(autouse=True)
def isolated_cache(settings):
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "gpu-availability"}
    }
    cache.clear()


@pytest.fixture
def gpu_exercise(exercise_version):
    exercise_version.spec = {**exercise_version.spec, "target": "gpu"}
    exercise_version.save()
    return exercise_version


def buttons(html):
    return [line for line in html.splitlines() if 'type="submit"' in line and "data-action=" in line]


def test_no_gpu_worker_warns_and_disables_submitting(candidate_client, gpu_exercise, monkeypatch):
    """An install that never had a GPU worker says so, rather than "once it is back"; one whose
    worker went offline says it is offline."""
    monkeypatch.setattr(queueing, "enqueue", lambda submission: None)
    submit = reverse("submissions:submit", args=[gpu_exercise.question.slug])
    for message in (gpu_workers.NEVER_A_GPU_WORKER_MESSAGE, gpu_workers.NO_GPU_WORKER_MESSAGE):
        html = candidate_client.get(gpu_exercise.question.get_absolute_url()).content.decode()
        assert message in html and ("once a GPU worker is back" in html) == (
            message == gpu_workers.NO_GPU_WORKER_MESSAGE
        )
        # Submit, Run on small inputs and Run my input: none can be used.
        assert len(buttons(html)) == 3 and all(" disabled" in line for line in buttons(html))
        response = candidate_client.post(submit, {"code": CODE, "purpose": "practice"})
        assert response.status_code == 400 and message in response.content.decode()
        assert not Submission.objects.exists()
        gpu_workers.record_gpu_heartbeat({"gpu": "test"})
        gpu_workers.clear_gpu_heartbeat()  # seen once, offline now


def test_with_a_gpu_worker_online_it_is_an_ordinary_exercise(candidate_client, gpu_exercise):
    gpu_workers.record_gpu_heartbeat({"gpu": "test"})
    html = candidate_client.get(gpu_exercise.question.get_absolute_url()).content.decode()
    assert gpu_workers.NO_GPU_WORKER_MESSAGE not in html
    assert not any(" disabled" in line for line in buttons(html))


def test_cpu_exercises_never_wait_for_a_gpu(candidate_client, exercise_version):
    html = candidate_client.get(exercise_version.question.get_absolute_url()).content.decode()
    assert gpu_workers.NO_GPU_WORKER_MESSAGE not in html and not any(" disabled" in line for line in buttons(html))


def test_a_gpu_exercise_says_how_the_gpu_is_measured(candidate_client, gpu_exercise):
    html = candidate_client.get(gpu_exercise.question.get_absolute_url()).content.decode()
    assert 'id="gpu-measurement"' in html
    assert "memory pool is kept between timed calls" in html and "inputs' device copies" in html


def test_a_cpu_exercise_does_not(candidate_client, exercise_version):
    html = candidate_client.get(exercise_version.question.get_absolute_url()).content.decode()
    assert 'id="coding-panel-title"' in html and 'id="gpu-measurement"' not in html
