"""A small bank for mock interviews: one question of each kind in one topic."""

import pytest

from questions.models import Kind

from .bank import make_coding, make_concept, make_numeric


@pytest.fixture
def small_bank(db):
    """{kind: question}: one concept, one numeric and one CPU coding exercise, all easy."""
    return {
        Kind.CONCEPT: make_concept("doubling-table"),
        Kind.NUMERIC: make_numeric("gib-in-bytes"),
        Kind.CODING: make_coding("square-values"),
    }


@pytest.fixture
def learner(make_user):
    return make_user("mock-learner")
