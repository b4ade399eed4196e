"""Issue 30, item 6: an accepted answer whose interval reaches 1 (or, with none, whose
figure is at most 1) is correct but not faster than the reference: no entry, no points,
no "faster than N%". The unchanged starter never ranks, whatever its figure."""

from django.urls import reverse

from leaderboards import services
from leaderboards.models import LeaderboardEntry, TopicScore, UserScore
from questions.models import ExerciseVersion
from submissions.models import Submission

STARTER = "def transform(x):\n    out = []\n    for v in x:\n        out.append(v)\n    return out\n"


def test_an_interval_that_includes_1_gets_no_entry_and_no_points(make_user, make_exercise, make_submission):
    exercise, alice = make_exercise(), make_user("alice")
    submission = make_submission(alice, exercise, speedup=1.08, ci=(0.97, 1.2))

    assert not LeaderboardEntry.objects.exists()
    assert not UserScore.objects.exists() and not TopicScore.objects.exists()
    assert services.standing(submission) is None


def test_without_an_interval_the_figure_decides(make_user, make_exercise, make_submission):
    exercise = make_exercise()
    make_submission(make_user("level"), exercise, speedup=1.0)
    make_submission(make_user("slower"), exercise, speedup=0.6)
    make_submission(make_user("faster"), exercise, speedup=1.2)

    assert [entry.user.username for entry in services.exercise_board(exercise.question, "cpu")] == ["faster"]


def test_a_program_whose_middle_grading_is_not_faster_leaves_the_board(make_user, make_exercise, make_submission):
    exercise, alice = make_exercise(), make_user("alice")
    code = "def transform(x):\n    return x * 1\n"
    make_submission(alice, exercise, speedup=1.5, ci=(1.2, 1.8), code=code)
    assert LeaderboardEntry.objects.get(user=alice).speedup == 1.5
    assert UserScore.objects.get(user=alice).points > 0

    # Two more gradings of the same code read no faster: its middle grading is not faster.
    make_submission(alice, exercise, speedup=1.05, ci=(0.9, 1.2), code=code)
    make_submission(alice, exercise, speedup=1.0, ci=(0.8, 1.1), code=code)

    assert not LeaderboardEntry.objects.filter(user=alice).exists()
    assert not UserScore.objects.filter(user=alice).exists()
    assert not TopicScore.objects.filter(user=alice).exists()


def test_a_not_faster_program_does_not_hide_a_faster_one(make_user, make_exercise, make_submission):
    exercise, alice = make_exercise(), make_user("alice")
    faster = make_submission(alice, exercise, speedup=1.6, ci=(1.3, 1.9))
    make_submission(alice, exercise, speedup=1.9, ci=(0.9, 2.6))  # higher figure, but its interval reaches 1

    assert LeaderboardEntry.objects.get(user=alice).submission_id == faster.pk


def test_the_unchanged_starter_never_ranks_even_above_1(make_user, make_exercise, make_submission):
    exercise, alice = make_exercise(), make_user("alice")
    ExerciseVersion.objects.filter(pk=exercise.pk).update(starter_code=STARTER)
    tidied = STARTER.replace("out", "result") + "# unchanged, renamed\n"
    lucky = make_submission(alice, exercise, speedup=1.3, ci=(1.1, 1.5), code=tidied)

    assert not LeaderboardEntry.objects.exists()
    assert services.standing(lucky) is None


def test_rebuild_applies_the_same_rule(make_user, make_exercise, make_submission):
    exercise = make_exercise()
    ExerciseVersion.objects.filter(pk=exercise.pk).update(starter_code=STARTER)
    make_submission(make_user("noise"), exercise, speedup=1.1, ci=(0.95, 1.25), signal=False)
    make_submission(make_user("starter"), exercise, speedup=1.3, ci=(1.1, 1.5), code=STARTER, signal=False)
    make_submission(make_user("fast"), exercise, speedup=3.0, ci=(2.5, 3.5), signal=False)
    # An entry recorded under the old rule, before issue 30: the rebuild drops it.
    old = Submission.objects.get(user__username="noise")
    LeaderboardEntry.objects.create(
        user=old.user,
        question=exercise.question,
        hardware="cpu",
        submission=old,
        speedup=old.speedup,
        achieved_at=old.created_at,
    )

    assert services.rebuild() == (1, 1)
    entry = LeaderboardEntry.objects.get()
    assert entry.user.username == "fast"
    assert (entry.speedup_ci_low, entry.speedup_ci_high) == (2.5, 3.5)


def test_faster_than_counts_only_answers_distinguishably_slower(make_user, make_exercise, make_submission):
    exercise = make_exercise()
    make_submission(make_user("clearly-slower"), exercise, speedup=2.0, ci=(1.8, 2.2))
    make_submission(make_user("overlapping"), exercise, speedup=3.8, ci=(3.0, 4.5))
    make_submission(make_user("faster"), exercise, speedup=9.0, ci=(8.0, 10.0))
    mine = make_submission(make_user("me"), exercise, speedup=4.0, ci=(3.5, 4.6))

    result = services.standing(mine)
    assert result["compared_with"] == 3
    assert result["faster_than_pct"] == 33  # the overlapping one is not "beaten"


def test_the_submission_page_says_correct_but_not_faster(client, make_user, make_exercise, make_submission):
    alice = make_user("alice")
    submission = make_submission(alice, make_exercise(), speedup=1.02, ci=(0.95, 1.1))
    Submission.objects.filter(pk=submission.pk).update(
        report={
            "verdict": "accepted",
            "speedup": 1.02,
            "speedup_ci": [0.95, 1.1],
            "peak_memory_bytes": 1000,
            "reference_peak_memory_bytes": 1000,
            "mode": "full",
        },
    )
    client.force_login(alice)

    page = client.get(reverse("submissions:detail", args=[submission.pk])).content.decode()
    assert "Correct, but not faster than the reference (95% interval 0.950–1.10×)" in page
    assert "not ranked on the leaderboard" in page
    assert "faster than the reference (median of paired runs)" not in page
    assert "How it compares" not in page and "Faster than" not in page


def test_the_submission_page_names_the_unchanged_starter(client, make_user, make_exercise, make_submission):
    alice, exercise = make_user("alice"), make_exercise()
    ExerciseVersion.objects.filter(pk=exercise.pk).update(starter_code=STARTER)
    submission = make_submission(alice, exercise, speedup=1.3, ci=(1.1, 1.5), code=STARTER)
    Submission.objects.filter(pk=submission.pk).update(
        report={
            "verdict": "accepted",
            "speedup": 1.3,
            "speedup_ci": [1.1, 1.5],
            "peak_memory_bytes": 1000,
            "reference_peak_memory_bytes": 1000,
            "mode": "full",
        },
    )
    client.force_login(alice)

    page = client.get(reverse("submissions:detail", args=[submission.pk])).content.decode()
    assert "Correct, but the starter code unchanged (95% interval 1.10–1.50×)" in page
    assert "not ranked on the leaderboard" in page


def test_a_faster_answer_keeps_its_figure_on_the_page(client, make_user, make_exercise, make_submission):
    alice = make_user("alice")
    submission = make_submission(alice, make_exercise(), speedup=3.0, ci=(2.5, 3.5))
    Submission.objects.filter(pk=submission.pk).update(
        report={
            "verdict": "accepted",
            "speedup": 3.0,
            "speedup_ci": [2.5, 3.5],
            "peak_memory_bytes": 1000,
            "reference_peak_memory_bytes": 1000,
            "mode": "full",
        },
    )
    client.force_login(alice)

    page = client.get(reverse("submissions:detail", args=[submission.pk])).content.decode()
    assert "faster than the reference (median of paired runs)" in page and "not faster" not in page
