"""The mock interview pages: start, the timed question pages, finishing, the report and history."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from mock_interviews import sittings
from mock_interviews.models import MockInterview
from questions.models import Kind

pytestmark = pytest.mark.django_db


@pytest.fixture
def learner_client(client, learner):
    client.force_login(learner)
    return client


def started(learner, minutes_ago=0):
    return sittings.start_interview(learner, 20, now=timezone.now() - timedelta(minutes=minutes_ago))


def test_the_start_form_offers_the_bank_topics_and_starts_the_clock(small_bank, learner_client, learner):
    assert reverse("mock_interviews:index") in learner_client.get(reverse("home")).text  # linked from the home page
    page = learner_client.get(reverse("mock_interviews:index"))
    assert page.status_code == 200 and "No mock interviews yet" in page.text
    assert 'value="Algorithmic Complexity &amp; Code-Level Optimization"' in page.text  # a topic to tick

    response = learner_client.post(reverse("mock_interviews:start"), {"minutes": "20", "difficulty": ""})
    interview = MockInterview.objects.get(user=learner)
    assert response.status_code == 302 and response.url == reverse("mock_interviews:question", args=[interview.pk, 1])
    question = learner_client.get(response.url)
    assert question.status_code == 200 and 'class="countdown"' in question.text and "teams/take.js" in question.text
    again = learner_client.post(reverse("mock_interviews:start"), {"minutes": "20"}, follow=True)
    assert "finish it before you start another" in again.text  # one at a time: back to the running one
    assert MockInterview.objects.filter(user=learner).count() == 1


def test_nothing_to_draw_is_said_on_the_form(db, learner_client):
    response = learner_client.post(reverse("mock_interviews:start"), {"minutes": "45"})
    assert response.status_code == 400 and "No question matches" in response.text


def test_another_learners_interview_is_not_found(small_bank, learner, make_user, client):
    interview = started(learner)
    client.force_login(make_user("someone-else"))
    question = reverse("mock_interviews:question", args=[interview.pk, 1])
    for url in (question, reverse("mock_interviews:report", args=[interview.pk])):
        assert client.get(url).status_code == 404


def test_a_save_after_the_deadline_is_refused_and_the_report_shown(small_bank, learner_client, learner):
    interview = started(learner, minutes_ago=21)
    number = interview.items.get(question__kind=Kind.NUMERIC).number
    url = reverse("mock_interviews:save_answer", args=[interview.pk, number])
    response = learner_client.post(url, {"numeric_input": "4 GiB"}, HTTP_ACCEPT="application/json")
    assert response.status_code == 409 and "Time is up" in response.json()["error"]
    page = learner_client.get(reverse("mock_interviews:question", args=[interview.pk, number]))
    assert page.url == reverse("mock_interviews:report", args=[interview.pk])


def test_a_finished_interview_reports_marks_and_lists_in_history(small_bank, learner_client, learner):
    interview = started(learner)
    concept = interview.items.get(question__kind=Kind.CONCEPT).number
    save = reverse("mock_interviews:save_answer", args=[interview.pk, concept])
    answer = {"text": "A geometric series.", "confidence": "4"}
    saved = learner_client.post(save, answer, HTTP_ACCEPT="application/json")
    assert saved.json()["saved"] is True
    assert learner_client.post(save, {"text": "x", "confidence": "9"}).status_code == 302  # refused with a message

    finished = learner_client.post(reverse("mock_interviews:finish", args=[interview.pk]))
    report_url = reverse("mock_interviews:report", args=[interview.pk])
    assert finished.url == report_url
    report = learner_client.get(report_url)
    assert "Tick the rubric points" in report.text and "Geometric series" in report.text
    assert "not marked yet" in report.text

    learner_client.post(reverse("mock_interviews:mark", args=[interview.pk, concept]), {"rubric": ["0", "1"]})
    report = learner_client.get(report_url)
    assert "Calibration error" in report.text and "not marked yet" not in report.text
    history = learner_client.get(reverse("mock_interviews:index"))
    assert report_url in history.text and "1.0 / 3" in history.text


def test_code_is_submitted_for_grading_and_its_status_polled(small_bank, learner_client, learner):
    interview = started(learner)
    number = interview.items.get(question__kind=Kind.CODING).number
    code = "def transform(values):\n    return [v * v for v in values]\n"
    response = learner_client.post(reverse("mock_interviews:submit_code", args=[interview.pk, number]), {"code": code})
    assert response.url.endswith("#submissions")
    status = learner_client.get(reverse("mock_interviews:submission_status", args=[interview.pk, number]))
    [row] = status.json()["submissions"]
    assert row["status"] == "queued" and row["final"] is False
    page = learner_client.get(reverse("mock_interviews:question", args=[interview.pk, number]))
    assert f'data-submission="{row["id"]}"' in page.text and "v * v" in page.text  # the code stays in the editor


def test_a_running_interviews_questions_are_closed_in_practice_until_it_ends(small_bank, learner_client, learner):
    interview = started(learner)
    practice_page = small_bank[Kind.CONCEPT].get_absolute_url()
    refused = learner_client.get(practice_page)
    assert refused.status_code == 403 and "in your mock interview" in refused.text
    learner_client.post(reverse("mock_interviews:finish", args=[interview.pk]))
    assert learner_client.get(practice_page).status_code == 200
