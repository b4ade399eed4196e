import json

import pytest
from django.urls import reverse

from questions.models import Attempt
from submissions.models import Submission
from submissions.states import Status, Verdict

PROGRESS = reverse("questions:progress")


@pytest.mark.django_db
def test_anonymous_is_sent_to_sign_in(client):
    response = client.get(PROGRESS)
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


@pytest.mark.django_db
def test_empty_progress(candidate_client, loaded_bank):
    html = candidate_client.get(PROGRESS).content.decode()
    assert "No answers yet." in html
    assert "No coding submissions yet." in html
    assert "calibration-chart" not in html
    assert "chart.umd.min.js" not in html


@pytest.mark.django_db
def test_shows_attempts_submissions_coverage_and_calibration(candidate_client, candidate, outsider, loaded_bank):
    concept, numeric, coding = loaded_bank["concept"], loaded_bank["numeric"], loaded_bank["coding"]
    Attempt.objects.create(user=candidate, question=concept, confidence=4, score=0.75)
    Attempt.objects.create(user=candidate, question=numeric, confidence=5, score=0.0, numeric_correct=False)
    Attempt.objects.create(user=outsider, question=numeric, confidence=1, score=1.0)
    submission = Submission.objects.create(
        user=candidate,
        exercise=coding.current_exercise(),
        code="x",
        status=Status.DONE,
        verdict=Verdict.ACCEPTED,
        speedup=8.25,
    )

    response = candidate_client.get(PROGRESS)
    html = response.content.decode()

    assert html.count("Amortised cost of a doubling hash table") == 1
    assert '<span class="verdict verdict-accepted">Accepted</span>' in html
    assert "8.25×" in html
    assert reverse("submissions:detail", args=[submission.pk]) in html

    coverage = {row.topic: (row.practised, row.total) for row in response.context["coverage"]}
    assert coverage == {
        "Algorithmic Complexity & Code-Level Optimization": (1, 1),
        "Performance Cost Optimization & Resource Efficiency": (1, 1),
        "Technical Foundation and Self Assessment": (1, 1),
    }
    assert '<progress max="1" value="1"' in html

    calibration = response.context["calibration"]
    assert calibration.count == 2
    assert calibration.error == pytest.approx((0.0 + 1.0) / 2)  # |0.75-0.75| and |1-0|
    chart = json.loads(html.split('<script id="calibration-data" type="application/json">')[1].split("</script>")[0])
    assert chart["mean_scores"] == [None, None, None, 0.75, 0.0]
    assert chart["counts"] == [0, 0, 0, 1, 1]
    assert "vendor/chartjs/chart.umd.min.js" in html
    # The same figures as an accessible table.
    assert (
        '<tr><th scope="row">4</th><td class="num">1</td><td class="num">75%</td><td class="num">75%</td></tr>' in html
    )


@pytest.mark.django_db
def test_coverage_counts_each_question_once(candidate_client, candidate, loaded_bank, outsider):
    concept = loaded_bank["concept"]
    Attempt.objects.create(user=candidate, question=concept)
    Attempt.objects.create(user=candidate, question=concept)
    Attempt.objects.create(user=outsider, question=loaded_bank["numeric"])
    coverage = {row.topic: (row.practised, row.total) for row in candidate_client.get(PROGRESS).context["coverage"]}
    assert coverage["Algorithmic Complexity & Code-Level Optimization"] == (1, 1)
    assert coverage["Technical Foundation and Self Assessment"] == (0, 1)
