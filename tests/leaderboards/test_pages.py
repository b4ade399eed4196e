"""The leaderboard pages, signed in and out, full and empty."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from leaderboards import services
from leaderboards.models import UserScore

from .conftest import START


@pytest.fixture
def populated(make_user, make_exercise, make_submission, public):
    exercise = make_exercise(slug="prefix-sums", difficulty="medium", topic="GPU Programming")
    pat = public(make_user("pat"), "Pat the Profiler")
    make_submission(pat, exercise, speedup=6.0, memory=2048)
    make_submission(make_user("secretsam"), exercise, speedup=3.0, memory=1024)
    make_submission(pat, exercise, speedup=25.0, memory=4096, hardware="NVIDIA H100 80GB HBM3")
    return exercise


def test_global_board_renders_for_anonymous_visitors(client, populated):
    response = client.get(reverse("leaderboards:index"))

    assert response.status_code == 200
    html = response.content.decode()
    assert "Pat the Profiler" in html and "Anonymous" in html
    assert "secretsam" not in html  # usernames of people who did not opt in never leak
    assert "How points work" in html
    assert reverse("leaderboards:exercise", args=["prefix-sums"]) in html
    assert reverse("leaderboards:topic", args=["gpu-programming"]) in html
    assert "Sign in</a> to see your place" in html


def test_signed_in_person_sees_their_place(client, populated, make_user, make_submission):
    me = make_user("me")
    make_submission(me, populated, speedup=4.0)
    client.force_login(me)

    html = client.get(reverse("leaderboards:index")).content.decode()
    assert "You are <strong>#2</strong> with 24 points" in html  # 25x GPU (28) > 4x (24) > 3x (22)
    assert "show your name" in html
    exercise_html = client.get(reverse("leaderboards:exercise", args=["prefix-sums"])).content.decode()
    assert "Your best on CPU sandbox: <strong>#2</strong>" in exercise_html


def test_exercise_board_has_hardware_tabs(client, populated):
    url = reverse("leaderboards:exercise", args=["prefix-sums"])

    cpu = client.get(url).content.decode()
    assert 'aria-current="page" class="tab-current">CPU sandbox' in cpu
    assert "?hardware=NVIDIA%20H100%2080GB%20HBM3" in cpu
    assert cpu.index("Pat the Profiler") < cpu.index("Anonymous")
    assert "6.00×" in cpu and "25.0×" not in cpu

    gpu = client.get(url, {"hardware": "NVIDIA H100 80GB HBM3"}).content.decode()
    assert "25.0×" in gpu and "6.00×" not in gpu

    unknown = client.get(url, {"hardware": "TPU v5"}).content.decode()
    assert "No accepted submissions on TPU v5 yet." in unknown


def test_a_program_graded_several_times_shows_its_middle_grading(client, populated, make_user, make_submission):
    me, code = make_user("me"), "def transform(x):\n    return x * 2\n"
    for speedup in (4.0, 12.0, 5.0):
        make_submission(me, populated, speedup=speedup, code=code)
    client.force_login(me)

    html = client.get(reverse("leaderboards:exercise", args=["prefix-sums"])).content.decode()
    assert '5.00×<br><span class="muted">middle of 3 gradings</span>' in html
    assert "12.0×" not in html
    assert (
        "Your best on CPU sandbox: <strong>#2</strong>,\n  5.00× faster than the reference (the middle of your 3 gradings of that code)."
        in html
    )
    rows = client.get("/api/v1/leaderboards/exercises/prefix-sums/").json()["results"]
    assert [(row["speedup"], row["gradings"]) for row in rows] == [(6.0, 1), (5.0, 3), (3.0, 1)]


def test_topic_board_renders(client, populated):
    response = client.get(reverse("leaderboards:topic", args=["gpu-programming"]))

    assert response.status_code == 200
    assert "Pat the Profiler" in response.content.decode()
    assert client.get(reverse("leaderboards:topic", args=["no-such-topic"])).status_code == 404


def test_pages_paginate(client, make_user, make_exercise, make_submission, monkeypatch):
    monkeypatch.setattr(services, "PAGE_SIZE", 2)
    exercise = make_exercise(slug="dot")
    for index in range(5):
        make_submission(make_user(f"person{index}"), exercise, speedup=float(index + 2))

    first = client.get(reverse("leaderboards:exercise", args=["dot"])).content.decode()
    assert "Page 1 of 3" in first and "5.00×" in first and "4.00×" not in first
    last = client.get(reverse("leaderboards:exercise", args=["dot"]), {"page": 3}).content.decode()
    assert "2.00×" in last and "5.00×" not in last
    assert '<td class="num rank">5</td>' in last  # ranks continue across pages
    assert "Page 3 of 3" in client.get(reverse("leaderboards:index"), {"page": "999"}).content.decode()


def test_empty_states(client, candidate_client, make_exercise):
    make_exercise(slug="empty-exercise", topic="GPU Programming")

    assert "No accepted submissions yet" in client.get(reverse("leaderboards:index")).content.decode()
    exercise_html = candidate_client.get(reverse("leaderboards:exercise", args=["empty-exercise"])).content.decode()
    assert "No accepted submissions yet. Be the first" in exercise_html
    topic_html = client.get(reverse("leaderboards:topic", args=["gpu-programming"])).content.decode()
    assert "Nobody has solved an exercise in this topic yet." in topic_html
    assert client.get(reverse("leaderboards:exercise", args=["missing"])).status_code == 404


def test_standing_fragment_is_for_the_submitter_only(client, make_user, make_exercise, make_submission):
    owner, other = make_user("owner"), make_user("other")
    submission = make_submission(owner, make_exercise(), speedup=2.0)
    url = reverse("leaderboards:standing", args=[submission.pk])

    assert client.get(url).status_code == 302  # sign in first
    client.force_login(other)
    assert client.get(url).status_code == 404
    client.force_login(owner)
    response = client.get(url)
    assert response.status_code == 200
    assert "No one else has an accepted solution on the" in response.content.decode()


def test_a_board_page_holds_fifty_people(client, db):
    people = get_user_model().objects.bulk_create(get_user_model()(username=f"person{index}") for index in range(51))
    UserScore.objects.bulk_create(UserScore(user=person, points=10, solved=1, reached_at=START) for person in people)

    page = client.get(reverse("leaderboards:index")).context["page_obj"]
    assert len(page) == 50 and page.paginator.num_pages == 2
    assert len(client.get(reverse("leaderboards:index"), {"page": 2}).context["page_obj"]) == 1


def test_the_exercise_page_marks_the_grading_the_board_counts(client, make_user, make_exercise, make_submission):
    exercise, me = make_exercise(), make_user("me")
    code = "def transform(x):\n    return x * 2\n"
    gradings = [make_submission(me, exercise, speedup=speedup, code=code) for speedup in (4.0, 12.0, 5.0)]
    client.force_login(me)

    html = client.get(exercise.question.get_absolute_url()).content.decode()

    rows = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0].split("<tr>")[1:]
    assert [("on the leaderboard" in row) for row in rows] == [True, False, False]  # newest first: 5.0, 12.0, 4.0
    assert gradings[2].get_absolute_url() in rows[0]
