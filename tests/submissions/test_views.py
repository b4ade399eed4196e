"""Submission pages: who sees what, CSRF, bad input kept and explained, rate limit."""

import pytest
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from django.urls import reverse

from submissions.models import Purpose, Submission
from submissions.services import gpu_workers
from submissions.states import Status, Verdict

CODE = "def scale(x):\n    return x * 3.0 + 1.0\n"
REPORT = {
    "verdict": Verdict.ACCEPTED,
    "message": "Correct on every input.",
    "speedup": 12.5,
    "speedup_ci": [11.0, 14.0],
    "peak_memory_bytes": 8 * 1024**2,
    "reference_peak_memory_bytes": 16 * 1024**2,
    "hardware": "cpu",
    "mode": "full",
    "first_call_s": 0.002,
    "scaling_exponent": 1.0,
    "reference_scaling_exponent": 1.01,
    "hint": "Try in-place operations.",
    "failure": None,
    "sizes": [
        {
            "size": 2000,
            "time_s": 1e-5,
            "reference_time_s": 1e-3,
            "speedup": 100.0,
            "speedup_ci": [90.0, 110.0],
            "peak_memory_bytes": 1024**2,
            "reference_peak_memory_bytes": 1024**2,
            "correct": True,
            "first_call_s": 1e-4,
            "reference_first_call_s": 1e-3,
        },
        {
            "size": 8000,
            "time_s": 4e-5,
            "reference_time_s": 4e-3,
            "speedup": 100.0,
            "speedup_ci": [95.0, 105.0],
            "peak_memory_bytes": 2 * 1024**2,
            "reference_peak_memory_bytes": 2 * 1024**2,
            "correct": True,
            "first_call_s": 1e-4,
            "reference_first_call_s": 4e-3,
        },
    ],
}


@pytest.fixture(autouse=True)
def isolated_cache(settings):
    """Rate-limit counters and heartbeats in a cache of this test's own."""
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "grader-views"}
    }
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def submission(candidate, exercise_version):
    return Submission.objects.create(user=candidate, exercise=exercise_version, code=CODE)


def submit_url(exercise_version):
    return reverse("submissions:submit", args=[exercise_version.question.slug])


# -- permissions -------------------------------------------------------------------


def test_owner_sees_their_submission(candidate_client, submission):
    response = candidate_client.get(reverse("submissions:detail", args=[submission.pk]))
    assert response.status_code == 200
    assert "return x * 3.0 + 1.0" in response.content.decode()
    assert reverse("submissions:status", args=[submission.pk]) in response.content.decode()


def test_outsider_gets_404_on_page_and_status(client, outsider, submission):
    client.force_login(outsider)
    assert client.get(reverse("submissions:detail", args=[submission.pk])).status_code == 404
    assert client.get(reverse("submissions:status", args=[submission.pk])).status_code == 404


def test_staff_may_look(client, staff_author, submission):
    client.force_login(staff_author)
    response = client.get(reverse("submissions:detail", args=[submission.pk]))
    assert response.status_code == 200 and response.context["submission"] == submission
    assert "return x * 3.0 + 1.0" in response.content.decode()


def test_anonymous_is_sent_to_sign_in(client, submission, exercise_version):
    for response in (
        client.get(reverse("submissions:detail", args=[submission.pk])),
        client.get(reverse("submissions:list")),
        client.post(submit_url(exercise_version), {"code": CODE}),
    ):
        assert response.status_code == 302 and reverse("login") in response["Location"]
    assert Submission.objects.count() == 1


def test_list_shows_only_my_submissions(candidate_client, outsider, exercise_version, submission):
    Submission.objects.create(user=outsider, exercise=exercise_version, code="# outsider's\n")
    response = candidate_client.get(reverse("submissions:list"))
    assert list(response.context["page_obj"].object_list) == [submission]


# -- status and report ------------------------------------------------------------


def test_status_json_while_queued_and_when_done(candidate_client, submission):
    url = reverse("submissions:status", args=[submission.pk])
    data = candidate_client.get(url).json()
    assert data["status"] == Status.QUEUED and data["is_final"] is False and "report_html" not in data

    Submission.objects.filter(pk=submission.pk).update(
        status=Status.DONE, verdict=Verdict.ACCEPTED, report=REPORT, message=REPORT["message"], speedup=12.5
    )
    data = candidate_client.get(url).json()
    assert data["is_final"] and data["verdict"] == Verdict.ACCEPTED
    html = data["report_html"]
    assert "12.5×" in html and "11.0–14.0×" in html and "scaling-data" in html and "Try in-place operations." in html
    assert "8.0 MiB" in html and "0.500×" in html  # memory vs reference


CALLS = {
    "reference_s": [0.0011, 0.0010, 0.0012],
    "submission_s": [0.00011, 0.0001, 0.00012],
    "echo_s": [1e-6, 1e-6, 2e-6],
}
TIMED_REPORT = {
    **REPORT,
    "harness_version": "1.5",
    "sizes": [{**entry, "pairs": 3, "calls": CALLS} for entry in REPORT["sizes"]],
}


def test_timings_download_has_every_call_for_the_owner_only(candidate_client, client, outsider, submission):
    Submission.objects.filter(pk=submission.pk).update(
        status=Status.DONE, verdict=Verdict.ACCEPTED, report=TIMED_REPORT
    )
    url = reverse("submissions:timings", args=[submission.pk])
    response = candidate_client.get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="submission-{submission.pk}-timings.json"'
    data = response.json()
    assert (
        data["submission"] == submission.pk and data["harness_version"] == "1.5" and data["speedup_ci"] == [11.0, 14.0]
    )
    assert [entry["size"] for entry in data["sizes"]] == [2000, 8000]
    assert all(entry["calls"] == CALLS and entry["pairs"] == 3 for entry in data["sizes"])
    assert "peak_memory_bytes" not in data["sizes"][0]  # timings only; the rest of the report is on the page
    page = candidate_client.get(reverse("submissions:detail", args=[submission.pk])).content.decode()
    assert url in page and "Download every timed call" in page
    client.force_login(outsider)
    assert client.get(url).status_code == 404


def test_timings_download_is_404_without_timed_calls(candidate_client, submission):
    url = reverse("submissions:timings", args=[submission.pk])
    assert candidate_client.get(url).status_code == 404  # still queued
    Submission.objects.filter(pk=submission.pk).update(status=Status.DONE, verdict=Verdict.ACCEPTED, report=REPORT)
    assert candidate_client.get(url).status_code == 404  # a report from before calls were kept
    assert (
        "Download every timed call"
        not in candidate_client.get(reverse("submissions:detail", args=[submission.pk])).content.decode()
    )


def test_waiting_for_gpu_notice(candidate_client, submission, exercise_version):
    exercise_version.spec = {**exercise_version.spec, "target": "gpu"}
    exercise_version.save()
    gpu_workers.clear_gpu_heartbeat()
    page = candidate_client.get(reverse("submissions:detail", args=[submission.pk])).content.decode()
    assert "Waiting for a GPU worker: none is online right now" in page
    assert candidate_client.get(reverse("submissions:status", args=[submission.pk])).json()["waiting_for_gpu"] is True
    gpu_workers.record_gpu_heartbeat({"gpu": "test"})
    assert candidate_client.get(reverse("submissions:status", args=[submission.pk])).json()["waiting_for_gpu"] is False


def test_failure_details_are_shown(candidate_client, submission):
    report = {
        **REPORT,
        "verdict": Verdict.WRONG_ANSWER,
        "sizes": [],
        "speedup": None,
        "message": "Your function returned a wrong result.",
        "failure": {"index": 2, "expected": "[1.0]", "got": "[0.0]", "tolerance": {"rtol": 1e-12}},
    }
    Submission.objects.filter(pk=submission.pk).update(status=Status.DONE, verdict=Verdict.WRONG_ANSWER, report=report)
    page = candidate_client.get(reverse("submissions:detail", args=[submission.pk])).content.decode()
    assert "Wrong answer" in page and "[0.0]" in page and "[1.0]" in page


# -- submitting ---------------------------------------------------------------------


def test_submit_creates_and_redirects(candidate_client, exercise_version, queued, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = candidate_client.post(submit_url(exercise_version), {"code": CODE, "purpose": "check"})
    submission = Submission.objects.get()
    assert response.status_code == 302 and response["Location"] == submission.get_absolute_url()
    assert submission.purpose == Purpose.QUICK_CHECK and submission.code == CODE
    assert queued == [([submission.pk], "check")]


def test_submit_cannot_choose_other_purposes(candidate_client, exercise_version, queued):
    candidate_client.post(submit_url(exercise_version), {"code": CODE, "purpose": "assessment"})
    assert Submission.objects.get().purpose == Purpose.PRACTICE


def test_the_exercise_pages_quick_check_gets_json_back(candidate_client, exercise_version, queued):
    """static/js/quick-check.js asks for JSON: the new check's addresses, or the refusal's words."""
    json_post = {"HTTP_ACCEPT": "application/json"}
    sent = candidate_client.post(submit_url(exercise_version), {"code": CODE, "purpose": "check"}, **json_post)
    check = Submission.objects.get()
    assert sent.status_code == 201 and check.purpose == Purpose.QUICK_CHECK
    assert sent.json() == {
        "id": check.pk,
        "url": check.get_absolute_url(),
        "status_url": reverse("submissions:status", args=[check.pk]),
    }
    refused = candidate_client.post(submit_url(exercise_version), {"code": "x\ufffd", "purpose": "check"}, **json_post)
    assert refused.status_code == 400 and "not valid UTF-8" in refused.json()["error"]


def test_csrf_is_enforced(candidate, exercise_version, queued):
    client = Client(enforce_csrf_checks=True)
    client.force_login(candidate)
    response = client.post(submit_url(exercise_version), {"code": CODE})
    assert response.status_code == 403 and not Submission.objects.exists()


@pytest.mark.parametrize(
    "body, message, kept",
    [
        ({"code": "x = 1\n" * 20000}, "the limit is", "x = 1\nx = 1"),
        ({"code": "print('a\x00b')\n"}, "NUL", "print("),
    ],
)
def test_bad_code_is_explained_and_kept(candidate_client, exercise_version, queued, body, message, kept, settings):
    settings.SUBMISSION_MAX_BYTES = 64 * 1024
    response = candidate_client.post(submit_url(exercise_version), body)
    page = response.content.decode()
    assert response.status_code == 400 and message in page
    assert 'id="code-editor"' in page and kept in page
    assert not Submission.objects.exists()


def test_non_utf8_body_is_rejected_with_the_code_kept(candidate_client, exercise_version, queued):
    body = b"purpose=practice&code=def+f%28%29%3A%0A++return+%27%FF%FE%27%0A"
    response = candidate_client.post(
        submit_url(exercise_version), body, content_type="application/x-www-form-urlencoded"
    )
    page = response.content.decode()
    assert response.status_code == 400 and "not valid UTF-8" in page and "def f():" in page
    assert not Submission.objects.exists()


def test_rate_limit(candidate_client, exercise_version, queued, settings):
    settings.SUBMISSION_RATE = "2/m"
    settings.SUBMISSION_MAX_QUEUED_PER_USER = 10
    statuses = [candidate_client.post(submit_url(exercise_version), {"code": CODE}).status_code for _ in range(3)]
    assert statuses == [302, 302, 429]
    assert Submission.objects.count() == 2


def test_too_much_work_in_flight_is_explained(candidate_client, exercise_version, queued, settings):
    settings.SUBMISSION_MAX_QUEUED_PER_USER = 1
    candidate_client.post(submit_url(exercise_version), {"code": CODE})
    response = candidate_client.post(submit_url(exercise_version), {"code": "# second\n" + CODE})
    assert response.status_code == 400 and "waiting to be graded" in response.content.decode()
    assert "# second" in response.content.decode()


def test_coding_panel_renders_starter_limits_and_history(candidate, exercise_version, submission):
    request = RequestFactory().get("/")
    request.user = candidate
    html = render_to_string(
        "submissions/coding_panel.html",
        {"question": exercise_version.question, "exercise": exercise_version, "user": candidate},
        request=request,
    )
    assert 'id="code-editor"' in html and 'data-language="python"' in html and 'name="code"' in html
    assert "Run on small inputs" in html and "Submit for grading" in html
    assert "Return x * 3 + 1, faster than a loop." in html
    assert "40 s" in html and "512 MiB" in html and "2000, 8000" in html
    assert submission.get_absolute_url() in html


def test_exercise_page_includes_the_coding_panel(candidate_client, exercise_version):
    page = candidate_client.get(reverse("questions:detail", args=[exercise_version.question.slug])).content.decode()
    assert 'id="code-editor"' in page and reverse("submissions:submit", args=["tiny-scale"]) in page
