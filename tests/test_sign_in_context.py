"""A signed-out visitor sent to sign in is told why, and sign-up keeps where they were going."""

import pytest
from django.urls import reverse


@pytest.mark.django_db
def test_set_a_timed_assessment_signed_out_explains_the_sign_in(client):
    response = client.get(reverse("teams:index"), follow=True)
    html = response.content.decode()
    assert "Hiring teams set timed assessments" in html
    assert f"{reverse('accounts:signup')}?next=/teams/" in html


@pytest.mark.django_db
def test_a_plain_sign_in_says_nothing_extra(client):
    html = client.get(reverse("login")).content.decode()
    assert "Hiring teams set" not in html and "Sign in to continue" not in html
