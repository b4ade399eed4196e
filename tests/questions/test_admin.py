"""Question admin for staff authors (with permissions, not superusers) and the preview endpoint."""

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from questions.models import BankProblem, Question

PREVIEW = reverse("questions:preview")


@pytest.fixture
def author_client(client, staff_author):
    staff_author.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label="questions", codename__in=["view_question", "change_question"]
        )
    )
    client.force_login(staff_author)
    return client


@pytest.mark.django_db
def test_changelist_filters_and_search(author_client, loaded_bank):
    Question.objects.filter(slug="gib-in-bytes").update(retired_at="2026-01-01T00:00:00Z")
    url = reverse("admin:questions_question_changelist")
    response = author_client.get(url)
    assert response.status_code == 200
    assert len(response.context["cl"].result_list) == 3
    assert [q.slug for q in author_client.get(url, {"retired": "yes"}).context["cl"].result_list] == ["gib-in-bytes"]
    assert len(author_client.get(url, {"retired": "no"}).context["cl"].result_list) == 2
    assert [q.slug for q in author_client.get(url, {"kind": "coding"}).context["cl"].result_list] == ["square-values"]
    assert [q.slug for q in author_client.get(url, {"q": "doubling"}).context["cl"].result_list] == [
        "amortised-doubling"
    ]


@pytest.mark.django_db
def test_change_form_shows_rendered_preview_and_versions(author_client, loaded_bank):
    coding = loaded_bank["coding"]
    html = author_client.get(
        reverse("admin:questions_question_change", args=[loaded_bank["concept"].pk])
    ).content.decode()
    assert '<span class="math inline">\\(O(1)\\)</span>' in html
    assert f'data-url="{PREVIEW}"' in html
    assert "questions/admin-preview.js" in html

    html = author_client.get(reverse("admin:questions_question_change", args=[coding.pk])).content.decode()
    assert "exercise version" in html.lower()
    assert 'name="exercise_versions-0-number"' not in html  # shown read-only


@pytest.mark.django_db
def test_preview_renders_sanitised_markdown_for_staff(author_client):
    response = author_client.post(PREVIEW, {"text": "**Hi** $x$ <script>alert(1)</script>"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "<strong>Hi</strong>" in html
    assert '<span class="math inline">\\(x\\)</span>' in html
    assert "<script>" not in html


@pytest.mark.django_db
def test_preview_is_staff_only_and_post_only(candidate):
    anonymous = Client()
    assert anonymous.post(PREVIEW, {"text": "x"}).status_code == 403
    signed_in = Client()
    signed_in.force_login(candidate)
    assert signed_in.post(PREVIEW, {"text": "x"}).status_code == 403
    assert signed_in.get(PREVIEW).status_code == 405


@pytest.mark.django_db
def test_the_entries_the_last_load_left_out_are_listed_read_only(client, make_user):
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    problem = BankProblem.objects.create(path="concepts/broken.md", reason="no rubric section")
    BankProblem.objects.create(path="exercises/other/exercise.yaml", reason="the reference fails its own check")
    listing = client.get(reverse("admin:questions_bankproblem_changelist"), {"q": "rubric"})
    assert [row.pk for row in listing.context["cl"].result_list] == [problem.pk]
    html = client.get(reverse("admin:questions_bankproblem_change", args=[problem.pk])).content.decode()
    assert "no rubric section" in html and 'name="reason"' not in html
    assert client.get(reverse("admin:questions_bankproblem_add")).status_code == 403
