"""The admin edits tags and rubric points as plain text, not JSON."""

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from questions.admin import QuestionAdminForm


def test_tags_are_comma_separated_and_rubric_points_one_per_line():
    form = QuestionAdminForm()
    assert form.fields["tags"].clean(" numpy,  vectorisation ,, ") == ["numpy", "vectorisation"]
    assert form.fields["tags"].prepare_value(["numpy", "simd"]) == "numpy, simd"
    assert form.fields["rubric"].clean("Copies n items, then 2n\n\n Amortised O(1) \n") == [
        "Copies n items, then 2n",
        "Amortised O(1)",
    ]
    assert form.fields["rubric"].prepare_value(["a, b", "c"]) == "a, b\nc"


@pytest.mark.django_db
def test_the_change_form_shows_tags_as_text(client, staff_author, loaded_bank):
    staff_author.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label="questions", codename__in=["view_question", "change_question"]
        )
    )
    client.force_login(staff_author)
    html = client.get(reverse("admin:questions_question_change", args=[loaded_bank["concept"].pk])).content.decode()
    assert 'value="hashing, amortised-analysis"' in html and "Enter a valid JSON" not in html
