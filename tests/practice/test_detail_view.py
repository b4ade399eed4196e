import pytest
from django.template import TemplateDoesNotExist
from django.urls import reverse

from practice import views
from questions.models import Attempt, Draft, Question


def detail_url(slug):
    return reverse("questions:detail", args=[slug])


@pytest.mark.django_db
class TestAnonymous:
    def test_reads_the_rendered_prompt_and_is_invited_to_sign_in(self, client, loaded_bank):
        response = client.get(detail_url("amortised-doubling"))
        html = response.content.decode()
        assert response.status_code == 200
        assert '<span class="math inline">\\(O(1)\\)</span>' in html
        assert '<span class="c1"># a comment, not a section</span>' in html
        assert "Sign in</a>" in html and "?next=/questions/amortised-doubling/" in html
        assert "<textarea" not in html
        assert "vendor/katex/katex.min.js" in html

    def test_cannot_post_an_answer(self, client, loaded_bank):
        response = client.post(detail_url("gib-in-bytes"), {"value": "4 GiB", "confidence": "3"})
        assert response.status_code == 302
        assert not Attempt.objects.exists()

    def test_unknown_slug_is_404(self, client, db):
        assert client.get(detail_url("no-such-question")).status_code == 404


@pytest.mark.django_db
class TestConcept:
    def test_answer_box_restores_the_draft(self, candidate_client, candidate, loaded_bank):
        Draft.objects.create(user=candidate, question=loaded_bank["concept"], text="Copies sum to 2n")
        html = candidate_client.get(detail_url("amortised-doubling")).content.decode()
        assert "Copies sum to 2n</textarea>" in html
        assert 'data-draft-url="/questions/amortised-doubling/draft/"' in html
        assert "Reveal sample answer" in html

    def test_reveal_records_the_attempt_and_clears_the_draft(self, candidate_client, candidate, loaded_bank):
        question = loaded_bank["concept"]
        Draft.objects.create(user=candidate, question=question, text="draft")
        response = candidate_client.post(
            detail_url(question.slug), {"answer": "Geometric series of copies", "confidence": "2"}
        )
        attempt = Attempt.objects.get(user=candidate, question=question)
        assert attempt.confidence == 2  # asked before the sample answer is shown
        assert response.status_code == 302
        assert response.url == reverse("questions:attempt", args=[question.slug, attempt.pk])
        assert attempt.answer_text == "Geometric series of copies"
        assert attempt.score is None
        assert not Draft.objects.exists()

    def test_confidence_is_asked_before_the_reveal(self, candidate_client, candidate, loaded_bank):
        question = loaded_bank["concept"]
        html = candidate_client.get(detail_url(question.slug)).content.decode()
        assert html.index('type="radio" name="confidence"') < html.index("Reveal sample answer")
        response = candidate_client.post(detail_url(question.slug), {"answer": "No confidence given"})
        assert response.status_code == 200 and "Pick how confident you are" in response.content.decode()
        assert not Attempt.objects.exists()


@pytest.mark.django_db
class TestNumeric:
    def test_correct_answer_with_unit(self, candidate_client, candidate, loaded_bank):
        response = candidate_client.post(detail_url("gib-in-bytes"), {"value": "4 GiB", "confidence": "4"})
        attempt = Attempt.objects.get(user=candidate)
        assert response.status_code == 302
        assert (attempt.numeric_correct, attempt.score, attempt.confidence, attempt.numeric_input) == (
            True,
            1.0,
            4,
            "4 GiB",
        )

    def test_incorrect_answer_scores_zero(self, candidate_client, candidate, loaded_bank):
        candidate_client.post(detail_url("gib-in-bytes"), {"value": "3.2e9 bytes", "confidence": "5"})
        attempt = Attempt.objects.get(user=candidate)
        assert (attempt.numeric_correct, attempt.score) == (False, 0.0)

    @pytest.mark.parametrize(
        ("value", "message"),
        [
            ("150 ms", "Expected a value in bytes, got seconds."),
            ("lots", "Could not read &#x27;lots&#x27; as a number"),
        ],
    )
    def test_uncomparable_input_is_explained_and_not_recorded(self, candidate_client, loaded_bank, value, message):
        response = candidate_client.post(detail_url("gib-in-bytes"), {"value": value, "confidence": "3"})
        assert response.status_code == 200
        assert message in response.content.decode()
        assert not Attempt.objects.exists()

    def test_confidence_is_required(self, candidate_client, loaded_bank):
        response = candidate_client.post(detail_url("gib-in-bytes"), {"value": "4 GiB"})
        assert "Pick how confident you are" in response.content.decode()
        assert not Attempt.objects.exists()


@pytest.mark.django_db
def test_retired_question_shows_a_notice_and_refuses_answers(candidate_client, loaded_bank):
    Question.objects.filter(slug="gib-in-bytes").update(retired_at="2026-01-01T00:00:00Z")
    html = candidate_client.get(detail_url("gib-in-bytes")).content.decode()
    assert "has been retired" in html
    assert "Check my answer" not in html
    candidate_client.post(detail_url("gib-in-bytes"), {"value": "4 GiB", "confidence": "3"})
    assert not Attempt.objects.exists()


@pytest.mark.django_db
class TestCoding:
    def test_includes_the_grader_panel_when_it_exists(self, candidate_client, loaded_bank, settings, tmp_path):
        templates = tmp_path / "templates"
        (templates / "submissions").mkdir(parents=True)
        (templates / "submissions" / "coding_panel.html").write_text(
            "PANEL for {{ question.slug }} v{{ exercise.number }}"
        )
        settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [templates, *settings.TEMPLATES[0]["DIRS"]]}]
        html = candidate_client.get(detail_url("square-values")).content.decode()
        assert "PANEL for square-values v1" in html
        assert "Square every value." in html
        assert "Vectorise." in html  # hints

    def test_renders_without_the_panel(self, candidate_client, loaded_bank, monkeypatch):
        def missing(names):
            raise TemplateDoesNotExist(names[0])

        monkeypatch.setattr(views, "select_template", missing)
        response = candidate_client.get(detail_url("square-values"))
        assert response.status_code == 200
        assert "coding_panel_template" not in response.context
        assert "The code editor is not available yet." in response.content.decode()
