"""Our own 404 and 500 pages whenever DEBUG is off (the default; `make run` turns it on)."""
import pytest
from django.test import RequestFactory
from django.views.defaults import server_error


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
