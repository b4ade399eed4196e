"""Site-wide pages without a browser: the landing page, error pages, the sign-up redirect."""

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client, RequestFactory
from django.views import defaults

from questions.models import Question

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-test-passphrase-17"


@pytest.fixture
def first_question():
    return Question.objects.create(
        slug="what-is-a-cache-line",
        title="What is a cache line?",
        topic="Technical Foundation and Self Assessment",
        difficulty="easy",
        kind="concept",
        prompt="Explain.",
        rubric=["a", "b", "c", "d"],
    )


def test_home_says_what_hotpath_is_and_starts_a_newcomer_in_one_click(client, first_question):
    page = client.get("/").content.decode()
    assert "Practise the performance interview" in page
    assert "1 concept question<" in page and "0 coding exercises" in page
    assert 'href="/accounts/signup/?next=/questions/what-is-a-cache-line/">Start practising' in page


def test_home_starts_a_signed_in_learner_on_the_question(client, first_question, candidate):
    client.force_login(candidate)
    page = client.get("/").content.decode()
    assert 'href="/questions/what-is-a-cache-line/">Start practising' in page


def test_navigation_marks_the_current_section(client):
    page = client.get("/leaderboards/").content.decode()
    assert 'href="/leaderboards/" aria-current="page">Leaderboards' in page
    assert 'href="/questions/" aria-current' not in page


def test_sign_up_returns_to_the_page_it_came_from(client, first_question):
    response = client.post(
        "/accounts/signup/?next=/questions/what-is-a-cache-line/",
        {"username": "newcomer", "email": "new@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302 and response.url == "/questions/what-is-a-cache-line/"


def test_sign_up_never_redirects_to_another_site(client):
    response = client.post(
        "/accounts/signup/?next=https://evil.example/phish",
        {"username": "newcomer", "email": "new@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302 and response.url == "/questions/"


def test_unknown_page_gets_a_helpful_404_in_the_site_layout(client):
    response = client.get("/no-such-page/")
    page = response.content.decode()
    assert response.status_code == 404
    assert "We could not find that page" in page
    assert 'href="/questions/"' in page and 'class="site-header"' in page


def test_forbidden_page_offers_sign_in_to_visitors(rf_anonymous):
    response = defaults.permission_denied(rf_anonymous, PermissionDenied())
    page = response.content.decode()
    assert response.status_code == 403
    assert "You do not have access to this page" in page
    assert 'href="/accounts/login/?next=/teams/org/acme/"' in page


def test_server_error_page_needs_no_context():
    response = defaults.server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    assert "Something went wrong on our side" in response.content.decode()


def test_expired_form_explains_what_to_do():
    response = Client(enforce_csrf_checks=True).post("/accounts/signup/", {"username": "x"})
    page = response.content.decode()
    assert response.status_code == 403
    assert "This form has expired" in page and "blocked our cookie" in page


@pytest.fixture
def rf_anonymous():
    from django.contrib.auth.models import AnonymousUser

    request = RequestFactory().get("/teams/org/acme/")
    request.user = AnonymousUser()
    return request
