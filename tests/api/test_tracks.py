"""GET /api/v1/tracks/ and /api/v1/tracks/<slug>/: the paths, with the caller's progress."""

import pytest
from django.urls import reverse

from questions.models import Track

from .conftest import bearer


@pytest.fixture
def track(exercise_version):
    return Track.objects.create(slug="numpy", name="NumPy", position=0, question_slugs=["tiny-scale"])


def test_anonymous_sees_tracks_without_progress(client, track):
    [row] = client.get(reverse("api:tracks")).json()
    assert row == {
        "slug": "numpy",
        "name": "NumPy",
        "description": "",
        "prerequisites": [],
        "questions": 1,
        "solved": 0,
        "practised": 0,
        "next": "tiny-scale",
    }


def test_detail_counts_the_callers_accepted_practice(client, read_token, track, graded_submission):
    body = client.get(reverse("api:track", args=["numpy"]), **bearer(read_token)).json()
    assert body["solved"] == 1 and body["next"] is None
    assert body["items"] == [
        {
            "slug": "tiny-scale",
            "title": "Scale an array",
            "kind": "coding",
            "difficulty": "easy",
            "practised": True,
            "solved": True,
        }
    ]


def test_unknown_track_is_a_404_that_names_it(client, db):
    response = client.get(reverse("api:track", args=["nope"]))
    assert response.status_code == 404 and "'nope'" in response.json()["message"]
