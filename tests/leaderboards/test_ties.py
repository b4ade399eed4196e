"""Issue 30, item 7: entries whose 95% intervals overlap cannot be told apart, so they
share a rank ("=2") instead of being ordered by noise. The rule (submissions.speed.shared_ranks):
walk the board in order; an entry whose interval overlaps the interval of the first entry
of the current group joins it, else it starts a new group; a group's rank is its first
entry's place."""

import importlib
import re

from django.apps import apps
from django.contrib.auth import get_user_model
from django.urls import reverse

from leaderboards import services
from leaderboards.models import LeaderboardEntry


def rank_cells(html):
    return re.findall(r'<td class="num rank"[^>]*>([^<]*)</td>', html)


def tied_board(make_user, make_exercise, make_submission, public):
    exercise = make_exercise(slug="tied-sums")
    for name, speedup, ci in [
        ("ada", 10.0, (9.0, 11.0)),
        ("bo", 9.2, (8.5, 9.9)),  # overlaps ada's: =1
        ("cy", 6.0, (5.5, 6.5)),  # 3, alone
        ("di", 4.0, (3.6, 4.4)),  # overlaps eve's: =4
        ("eve", 3.9, (3.7, 4.1)),
        ("fay", 2.0, (1.9, 2.1)),  # 6
    ]:
        make_submission(public(make_user(name), name.title()), exercise, speedup=speedup, ci=ci)
    return exercise


def test_overlapping_intervals_share_a_rank(make_user, make_exercise, make_submission, public):
    exercise = tied_board(make_user, make_exercise, make_submission, public)

    ranks = services.board_ranks(exercise.question_id, "cpu", 6)
    assert [rank.label for rank in ranks] == ["=1", "=1", "3", "=4", "=4", "6"]
    # Asking for fewer still says whether the last one shares its rank with the next.
    assert [rank.label for rank in services.board_ranks(exercise.question_id, "cpu", 4)] == ["=1", "=1", "3", "=4"]


def test_an_entrys_rank_says_whether_it_is_tied(make_user, make_exercise, make_submission, public):
    exercise = tied_board(make_user, make_exercise, make_submission, public)

    ranks = {entry.user.username: services.rank_of_entry(entry).label for entry in LeaderboardEntry.objects.all()}
    assert ranks == {"ada": "=1", "bo": "=1", "cy": "3", "di": "=4", "eve": "=4", "fay": "6"}


def test_entries_keep_their_interval(make_user, make_exercise, make_submission):
    exercise = make_exercise()
    make_submission(make_user("alice"), exercise, speedup=3.0, ci=(2.5, 3.5))
    entry = LeaderboardEntry.objects.get()
    assert (entry.speedup_ci_low, entry.speedup_ci_high) == (2.5, 3.5)


def test_without_intervals_only_equal_figures_tie(make_user, make_exercise, make_submission):
    exercise = make_exercise()
    make_submission(make_user("a"), exercise, speedup=3.0)
    make_submission(make_user("b"), exercise, speedup=3.0)
    make_submission(make_user("c"), exercise, speedup=2.9)

    assert [rank.label for rank in services.board_ranks(exercise.question_id, "cpu", 3)] == ["=1", "=1", "3"]


def test_the_board_page_shows_shared_ranks(client, make_user, make_exercise, make_submission, public):
    tied_board(make_user, make_exercise, make_submission, public)
    client.force_login(get_user_model().objects.get(username="di"))

    html = client.get(reverse("leaderboards:exercise", args=["tied-sums"])).content.decode()
    assert rank_cells(html) == ["=1", "=1", "3", "=4", "=4", "6"]
    assert "95% intervals overlap" in html
    assert "Your best on CPU sandbox: <strong>=4</strong>" in html


def test_a_shared_rank_spans_pages(client, make_user, make_exercise, make_submission, monkeypatch):
    monkeypatch.setattr(services, "PAGE_SIZE", 2)
    exercise = make_exercise(slug="paged")
    for index, (speedup, ci) in enumerate([(5.0, (4.8, 5.2)), (3.0, (2.8, 3.2)), (2.9, (2.7, 3.1)), (1.5, (1.4, 1.6))]):
        make_submission(make_user(f"p{index}"), exercise, speedup=speedup, ci=ci)

    first = client.get(reverse("leaderboards:exercise", args=["paged"])).content.decode()
    second = client.get(reverse("leaderboards:exercise", args=["paged"]), {"page": 2}).content.decode()
    assert rank_cells(first) == ["1", "=2"]
    assert rank_cells(second) == ["=2", "4"]


def test_the_api_gives_the_shared_rank_and_says_it_is_tied(client, make_user, make_exercise, make_submission, public):
    tied_board(make_user, make_exercise, make_submission, public)

    body = client.get("/api/v1/leaderboards/exercises/tied-sums/").json()
    assert [(row["rank"], row["tied"], row["position"]) for row in body["results"]] == [
        (1, True, 1),
        (1, True, 2),
        (3, False, 3),
        (4, True, 4),
        (4, True, 5),
        (6, False, 6),
    ]
    assert body["results"][0]["speedup_ci"] == [9.0, 11.0]


def test_the_migration_copies_each_entrys_interval_from_its_counted_grading(make_user, make_exercise, make_submission):
    migration = importlib.import_module("leaderboards.migrations.0004_entry_speedup_interval")
    make_submission(make_user("alice"), make_exercise(), speedup=3.0, ci=(2.5, 3.5))
    LeaderboardEntry.objects.update(speedup_ci_low=None, speedup_ci_high=None)  # as before the columns existed

    migration.copy_intervals(apps, None)

    assert LeaderboardEntry.objects.values_list("speedup_ci_low", "speedup_ci_high").get() == (2.5, 3.5)
