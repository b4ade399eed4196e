"""Shared fixtures: a candidate, an outsider and staff. Team fixtures (a hiring-team
member) live in tests/teams/conftest.py beside the tests that use them."""
import pytest
from django.contrib.auth import get_user_model

from tests.sandbox_backends import BACKENDS, require_backend


@pytest.fixture(scope="session", params=BACKENDS)
def sandbox_backend(request):
    """'bwrap' or 'docker': a test that takes it runs on both (tests/sandbox_backends.py)."""
    require_backend(request.param)
    return request.param


@pytest.fixture
def make_user(db):
    def make(username, **extra):
        return get_user_model().objects.create_user(
            username=username, email=f"{username}@example.com", password="correct-horse-battery", **extra
        )

    return make


@pytest.fixture
def candidate(make_user):
    return make_user("candidate")


@pytest.fixture
def outsider(make_user):
    return make_user("outsider")


@pytest.fixture
def staff_author(make_user):
    return make_user("author", is_staff=True)


@pytest.fixture
def candidate_client(client, candidate):
    client.force_login(candidate)
    return client
