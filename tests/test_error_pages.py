"""Our own 404 and 500 pages whenever DEBUG is off (the default), and our 404 page with DEBUG
on too (`make run` turns it on), which otherwise keeps Django's debug pages."""

import pytest
from django.test import RequestFactory, override_settings
from django.urls import reverse
from django.views.defaults import server_error

from interview_platform.not_found import NotFoundPageMiddleware

OURS = "We could not find that page"
DJANGOS = "You’re seeing this error because you have <code>DEBUG = True</code>"


@pytest.mark.django_db
def test_a_missing_page_is_our_404(client, settings):
    settings.DEBUG = False
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "We could not find that page" in html and "Browse the questions" in html


def test_a_server_error_is_our_500_without_the_database(settings):
    settings.DEBUG = False
    response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    assert "Something went wrong on our side" in response.content.decode()


@pytest.mark.django_db
@override_settings(DEBUG=True)
def test_with_debug_on_a_url_that_matches_nothing_is_our_404(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert OURS in html and DJANGOS not in html and "Using the URLconf" not in html


@pytest.mark.django_db
@override_settings(DEBUG=True)
def test_with_debug_on_a_view_raising_http404_is_our_404_for_the_signed_in(client, candidate):
    client.force_login(candidate)
    response = client.get(reverse("questions:detail", args=["no-such-question"]))
    assert response.status_code == 404
    html = response.content.decode()
    assert OURS in html and DJANGOS not in html
    assert candidate.username in html  # the page knows who is signed in, as production's does


@pytest.mark.django_db
@override_settings(DEBUG=True, APPEND_SLASH=True)
def test_with_debug_on_a_missing_slash_still_redirects(client):
    response = client.get(reverse("questions:browse").rstrip("/"))
    assert response.status_code == 301 and response["Location"] == reverse("questions:browse")


@override_settings(DEBUG=True)
def test_with_debug_on_other_errors_are_left_to_the_debug_page():
    middleware = NotFoundPageMiddleware(lambda request: None)
    assert middleware.process_exception(RequestFactory().get("/"), ZeroDivisionError("boom")) is None
