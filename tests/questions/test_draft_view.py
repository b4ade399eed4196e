import pytest
from django.urls import reverse

from questions.models import Draft
from questions.services.answering import MAX_ANSWER_CHARS

DRAFT_URL = reverse("questions:save_draft", args=["amortised-doubling"])


@pytest.mark.django_db
def test_save_then_restore(candidate_client, candidate, loaded_bank):
    response = candidate_client.post(DRAFT_URL, {"text": "First thoughts"})
    assert response.status_code == 200
    assert response.json()["saved"] is True
    candidate_client.post(DRAFT_URL, {"text": "Better thoughts"})
    assert Draft.objects.get(user=candidate).text == "Better thoughts"
    assert Draft.objects.count() == 1
    page = candidate_client.get(reverse("questions:detail", args=["amortised-doubling"])).content.decode()
    assert "Better thoughts</textarea>" in page


@pytest.mark.django_db
def test_drafts_are_private(client, candidate, outsider, loaded_bank):
    Draft.objects.create(user=candidate, question=loaded_bank["concept"], text="my secret plan")
    client.force_login(outsider)
    page = client.get(reverse("questions:detail", args=["amortised-doubling"])).content.decode()
    assert "my secret plan" not in page


@pytest.mark.django_db
def test_anonymous_cannot_save(client, loaded_bank):
    response = client.post(DRAFT_URL, {"text": "x"})
    assert response.status_code == 403
    assert not Draft.objects.exists()


@pytest.mark.django_db
def test_too_long_is_refused_with_a_message(candidate_client, loaded_bank):
    response = candidate_client.post(DRAFT_URL, {"text": "x" * (MAX_ANSWER_CHARS + 1)})
    assert response.status_code == 400
    assert "limited to" in response.json()["error"]
    assert not Draft.objects.exists()


@pytest.mark.django_db
def test_only_post_and_only_live_concept_questions(candidate_client, loaded_bank):
    assert candidate_client.get(DRAFT_URL).status_code == 405
    numeric_url = reverse("questions:save_draft", args=["gib-in-bytes"])
    assert candidate_client.post(numeric_url, {"text": "x"}).status_code == 404


@pytest.mark.django_db
def test_a_draft_with_a_nul_character_is_refused_not_a_server_error(candidate_client, loaded_bank):
    """PostgreSQL text cannot hold NUL (the autosave was a 500 there, and so was a
    refused submission whose code is kept as a draft)."""
    response = candidate_client.post(DRAFT_URL, {"text": "half\x00way"})
    assert response.status_code == 400 and "NUL" in response.json()["error"]
    assert not Draft.objects.exists()
