"""Adding a question says so; adding a GPU exercise while no GPU worker is online
warns the manager that candidates' code for it could not be graded."""

import pytest
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.urls import reverse

from submissions.services import gpu_workers
from teams.models import Assessment
from teams.views import NO_GPU_WORKER_WARNING

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def isolated_cache(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "teams-gpu"}}
    cache.clear()


@pytest.fixture
def empty_draft(draft_assessment):
    return Assessment.objects.create(
        organisation=draft_assessment.organisation,
        title="GPU screen",
        time_limit_minutes=30,
        opens_at=draft_assessment.opens_at,
        closes_at=draft_assessment.closes_at,
        created_by=draft_assessment.created_by,
    )


def add(client, hiring_manager, assessment, question):
    client.force_login(hiring_manager)
    response = client.post(
        reverse("teams:add_question", args=[assessment.organisation.slug, assessment.pk]), {"question": question.pk}
    )
    return [str(message) for message in get_messages(response.wsgi_request)]


def test_a_gpu_exercise_without_a_gpu_worker_warns(client, hiring_manager, empty_draft, coding_question):
    version = coding_question.current_exercise()
    version.spec = {**version.spec, "target": "gpu"}
    version.save()
    said = add(client, hiring_manager, empty_draft, coding_question)
    assert said == [f"Added “{coding_question}” as question 1.", NO_GPU_WORKER_WARNING]


def test_no_warning_for_a_cpu_exercise(client, hiring_manager, empty_draft, coding_question):
    assert add(client, hiring_manager, empty_draft, coding_question) == [f"Added “{coding_question}” as question 1."]


def test_no_warning_while_a_gpu_worker_is_online(client, hiring_manager, empty_draft, coding_question):
    version = coding_question.current_exercise()
    version.spec = {**version.spec, "target": "gpu"}
    version.save()
    gpu_workers.record_gpu_heartbeat({"gpu": "test"})
    assert add(client, hiring_manager, empty_draft, coding_question) == [f"Added “{coding_question}” as question 1."]
