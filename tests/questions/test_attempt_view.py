import pytest
from django.urls import reverse

from questions.models import Attempt


def attempt_url(attempt):
    return reverse("questions:attempt", args=[attempt.question.slug, attempt.pk])


@pytest.fixture
def concept_attempt(loaded_bank, candidate):
    return Attempt.objects.create(
        user=candidate, question=loaded_bank["concept"], answer_text="Copies <b>sum</b> to 2n", confidence=4
    )


@pytest.mark.django_db
def test_reveal_shows_sample_answer_rubric_and_the_confidence_given_before(candidate_client, concept_attempt):
    html = candidate_client.get(attempt_url(concept_attempt)).content.decode()
    assert "Each doubling copies all items" in html  # the sample answer
    assert "Copies &lt;b&gt;sum&lt;/b&gt; to 2n" in html  # their own answer, escaped
    assert html.count('type="checkbox" name="covered"') == 4
    assert 'name="confidence"' not in html  # asked before the reveal, not after
    assert "Your confidence before the reveal: 4 / 5." in html


@pytest.mark.django_db
def test_saving_marks_scores_ticked_over_total(candidate_client, concept_attempt):
    response = candidate_client.post(attempt_url(concept_attempt), {"covered": ["0", "2", "3"], "confidence": "1"})
    assert response.status_code == 302
    concept_attempt.refresh_from_db()
    assert concept_attempt.rubric_checked == [0, 2, 3]
    assert concept_attempt.score == 0.75
    assert concept_attempt.confidence == 4  # what was given before the reveal; marking cannot change it
    html = candidate_client.get(attempt_url(concept_attempt)).content.decode()
    assert "Score: 3 of 4 points (75%)" in html


@pytest.mark.django_db
def test_out_of_range_rubric_points_are_refused(candidate_client, concept_attempt):
    response = candidate_client.post(attempt_url(concept_attempt), {"covered": ["7"], "confidence": "4"})
    assert response.status_code == 200
    concept_attempt.refresh_from_db()
    assert concept_attempt.score is None


@pytest.mark.django_db
def test_numeric_result_shows_expected_value_and_explanation(candidate_client, loaded_bank, candidate):
    attempt = Attempt.objects.create(
        user=candidate,
        question=loaded_bank["numeric"],
        numeric_input="4 GiB",
        numeric_correct=True,
        score=1.0,
        confidence=3,
    )
    html = candidate_client.get(attempt_url(attempt)).content.decode()
    assert "<h2>Correct</h2>" in html
    assert "4 GiB (read as gibibytes) = 4.29497e+09 bytes" in html
    assert "4.29497e+09 bytes (within 1%)" in html
    assert '<span class="math inline">\\(4 \\times 2^{30} = 2^{32}\\)</span>' in html
    assert "3 / 5" in html


@pytest.mark.django_db
def test_a_unit_slip_is_named_on_a_wrong_numeric_answer(candidate_client, loaded_bank, candidate):
    slipped = Attempt.objects.create(
        user=candidate,
        question=loaded_bank["numeric"],
        numeric_input="4 MiB",
        numeric_correct=False,
        score=0.0,
        confidence=3,
    )
    html = " ".join(candidate_client.get(attempt_url(slipped)).content.decode().split())
    assert "<h2>Not quite</h2>" in html
    assert "<strong>Your answer is 1/1,024 of the expected value:</strong>" not in html  # 1,024 is not a power of 1,000
    assert 'class="unit-slip"' not in html
    thousandfold = Attempt.objects.create(
        user=candidate,
        question=loaded_bank["numeric"],
        numeric_input="4.295e12",
        numeric_correct=False,
        score=0.0,
        confidence=3,
    )
    html = " ".join(candidate_client.get(attempt_url(thousandfold)).content.decode().split())
    assert "<strong>Your answer is 1,000 times the expected value:</strong> most likely a unit that slipped" in html
    assert "A bare number is read in bytes;" in html
    right = Attempt.objects.create(
        user=candidate,
        question=loaded_bank["numeric"],
        numeric_input="4 GiB",
        numeric_correct=True,
        score=1.0,
        confidence=3,
    )
    assert 'class="unit-slip"' not in candidate_client.get(attempt_url(right)).content.decode()


@pytest.mark.django_db
def test_only_the_owner_sees_an_attempt(client, concept_attempt, outsider):
    url = attempt_url(concept_attempt)
    assert client.get(url).status_code == 302  # anonymous: sent to sign in
    client.force_login(outsider)
    assert client.get(url).status_code == 404
    assert client.post(url, {"covered": ["0"], "confidence": "5"}).status_code == 404
