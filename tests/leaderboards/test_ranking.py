"""What gets on a board, in what order, and how points add up."""
from io import StringIO

import pytest
from django.core.management import call_command

from grader.models import Purpose
from grader.states import Verdict
from interview_platform.leaderboards import services
from interview_platform.leaderboards.models import LeaderboardEntry, TopicScore, UserScore


def board_users(question, hardware="cpu"):
    return [entry.user.username for entry in services.exercise_board(question, hardware)]


def test_board_orders_by_speedup_then_memory_then_time(make_user, make_exercise, make_submission):
    exercise = make_exercise()
    slow, lean, fat, late_twin, early_twin = (make_user(name) for name in ["slow", "lean", "fat", "late", "early"])
    make_submission(slow, exercise, speedup=1.5, memory=10)
    make_submission(fat, exercise, speedup=4.0, memory=5000)
    make_submission(lean, exercise, speedup=4.0, memory=100)
    make_submission(late_twin, exercise, speedup=3.0, memory=100, minutes=50)
    make_submission(early_twin, exercise, speedup=3.0, memory=100, minutes=10)

    assert board_users(exercise.question) == ["lean", "fat", "early", "late", "slow"]


def test_unknown_memory_ranks_after_measured_memory(make_user, make_exercise, make_submission):
    exercise = make_exercise()
    unmeasured, measured = make_user("unmeasured"), make_user("measured")
    make_submission(unmeasured, exercise, speedup=2.0, memory=None, minutes=1)
    make_submission(measured, exercise, speedup=2.0, memory=10**9, minutes=2)

    assert board_users(exercise.question) == ["measured", "unmeasured"]
    entry = LeaderboardEntry.objects.get(user=unmeasured)
    assert services.position_of_entry(entry) == 2


def test_one_entry_per_person_holding_their_best(make_user, make_exercise, make_submission):
    exercise, alice = make_exercise(), make_user("alice")
    make_submission(alice, exercise, speedup=2.0)
    best = make_submission(alice, exercise, speedup=5.0)
    make_submission(alice, exercise, speedup=3.0)
    leaner_tie = make_submission(alice, exercise, speedup=5.0, memory=10)
    make_submission(alice, exercise, speedup=5.0, memory=10)  # later, otherwise equal: not better

    entry = LeaderboardEntry.objects.get(user=alice)
    assert best.pk != leaner_tie.pk
    assert entry.submission_id == leaner_tie.pk
    assert (entry.speedup, entry.peak_memory_bytes) == (5.0, 10)
    assert LeaderboardEntry.objects.count() == 1


def test_new_exercise_version_shares_the_board(make_user, make_exercise, make_submission):
    first = make_exercise(slug="sum-rows")
    second = make_exercise(question=first.question, version=2)
    alice = make_user("alice")
    make_submission(alice, first, speedup=2.0)
    make_submission(alice, second, speedup=3.0)

    entry = LeaderboardEntry.objects.get()
    assert entry.speedup == 3.0 and entry.submission.exercise == second


def test_hardware_gets_separate_boards(make_user, make_exercise, make_submission):
    exercise, alice, bob = make_exercise(), make_user("alice"), make_user("bob")
    make_submission(alice, exercise, speedup=3.0, hardware="cpu")
    make_submission(alice, exercise, speedup=40.0, hardware="NVIDIA H100 80GB HBM3")
    make_submission(bob, exercise, speedup=9.0, hardware="NVIDIA H100 80GB HBM3")

    assert board_users(exercise.question, "cpu") == ["alice"]
    assert board_users(exercise.question, "NVIDIA H100 80GB HBM3") == ["alice", "bob"]
    assert services.hardware_for(exercise.question) == ["cpu", "NVIDIA H100 80GB HBM3"]
    # On the global board the exercise counts once, with the best hardware.
    assert UserScore.objects.get(user=alice).solved == 1
    assert UserScore.objects.get(user=alice).points == services.points_for("easy", 40.0)


@pytest.mark.parametrize(
    "purpose, verdict, speedup",
    [
        (Purpose.ASSESSMENT, Verdict.ACCEPTED, 50.0),
        (Purpose.QUICK_CHECK, Verdict.ACCEPTED, 50.0),
        (Purpose.VALIDATION, Verdict.ACCEPTED, 50.0),
        (Purpose.PRACTICE, Verdict.WRONG_ANSWER, 50.0),
        (Purpose.PRACTICE, Verdict.TIME_LIMIT, None),
        (Purpose.PRACTICE, Verdict.ACCEPTED, None),
    ],
)
def test_only_accepted_practice_with_a_speedup_counts(make_user, make_exercise, make_submission, purpose, verdict, speedup):
    exercise, alice = make_exercise(), make_user("alice")
    submission = make_submission(alice, exercise, speedup=speedup, purpose=purpose, verdict=verdict)

    assert not LeaderboardEntry.objects.exists()
    assert not UserScore.objects.exists()
    assert services.standing(submission) is None


def test_assessment_never_replaces_practice_best(make_user, make_exercise, make_submission):
    exercise, alice = make_exercise(), make_user("alice")
    practice = make_submission(alice, exercise, speedup=2.0)
    make_submission(alice, exercise, speedup=99.0, purpose=Purpose.ASSESSMENT)

    assert LeaderboardEntry.objects.get().submission == practice


def test_points_weighted_by_difficulty_and_speed():
    assert services.points_for("easy", 1.0) == 10
    assert services.points_for("easy", 0.5) == 10  # accepted but slower than the reference: still solved
    assert services.points_for("medium", 1.9) == 20
    assert services.points_for("medium", 2.0) == 22
    assert services.points_for("hard", 8.5) == 3 * 13
    assert services.points_for("hard", 10**9) == 3 * 20  # capped at ten doublings


def test_global_ranking_sums_points_over_exercises(make_user, make_exercise, make_submission):
    easy, hard = make_exercise(difficulty="easy"), make_exercise(difficulty="hard")
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    make_submission(alice, easy, speedup=1.0)
    make_submission(alice, easy, speedup=4.0)  # improves: 10 -> 12
    make_submission(bob, hard, speedup=1.0)  # 30
    make_submission(carol, easy, speedup=1.0, minutes=1)
    make_submission(carol, hard, speedup=2.0, minutes=2)  # 10 + 33

    rows = [(score.user.username, score.points, score.solved) for score in services.global_board()]
    assert rows == [("carol", 43, 2), ("bob", 30, 1), ("alice", 12, 1)]
    assert services.position_of_score(UserScore.objects.get(user=bob)) == 2


def test_equal_points_go_to_whoever_got_there_first(make_user, make_exercise, make_submission):
    exercise, early, late = make_exercise(), make_user("early"), make_user("late")
    make_submission(late, exercise, speedup=1.0, minutes=20)
    make_submission(early, exercise, speedup=1.0, minutes=5)

    assert [score.user.username for score in services.global_board()] == ["early", "late"]
    assert services.position_of_score(UserScore.objects.get(user=late)) == 2


def test_topic_board_counts_only_that_topics_exercises(make_user, make_exercise, make_submission):
    gpu = make_exercise(topic="GPU Programming", difficulty="hard")
    algo = make_exercise(topic="Algorithmic Complexity & Code-Level Optimization", difficulty="easy")
    alice, bob = make_user("alice"), make_user("bob")
    make_submission(alice, algo, speedup=1.0)
    make_submission(alice, gpu, speedup=1.0)
    make_submission(bob, algo, speedup=16.0)

    gpu_rows = [(score.user.username, score.points) for score in services.topic_board("GPU Programming")]
    algo_rows = [(score.user.username, score.points) for score in services.topic_board(algo.question.topic)]
    assert gpu_rows == [("alice", 30)]
    assert algo_rows == [("bob", 14), ("alice", 10)]
    assert services.topic_for_slug("gpu-programming") == "GPU Programming"
    assert services.position_of_score(TopicScore.objects.get(user=alice, topic=algo.question.topic)) == 2


def test_names_shown_only_for_people_who_opted_in(make_user, public):
    shy, proud, blank = make_user("shy"), public(make_user("proud"), "Proud Pat"), make_user("blank")
    public(blank, "")

    assert services.public_name(shy) == "Anonymous"
    assert services.public_name(proud) == "Proud Pat"
    assert services.public_name(blank) == "Anonymous"


def test_rebuild_reproduces_the_incremental_tables(make_user, make_exercise, make_submission):
    easy, hard = make_exercise(difficulty="easy"), make_exercise(difficulty="hard", topic="GPU Programming")
    alice, bob = make_user("alice"), make_user("bob")
    make_submission(alice, easy, speedup=3.0, memory=500)
    make_submission(alice, easy, speedup=3.0, memory=200)
    make_submission(alice, hard, speedup=70.0, hardware="NVIDIA A100-SXM4-80GB")
    make_submission(bob, hard, speedup=2.0)
    make_submission(bob, hard, speedup=5.0, purpose=Purpose.ASSESSMENT)
    make_submission(bob, easy, speedup=9.0, verdict=Verdict.WRONG_ANSWER)

    def snapshot():
        return (
            sorted(LeaderboardEntry.objects.values_list("user_id", "question_id", "hardware", "submission_id", "speedup")),
            sorted(UserScore.objects.values_list("user_id", "points", "solved", "reached_at")),
            sorted(TopicScore.objects.values_list("user_id", "topic", "points", "solved", "reached_at")),
        )

    incremental = snapshot()
    LeaderboardEntry.objects.update(speedup=0.1)  # corrupt it, to prove the rebuild recomputes
    assert services.rebuild() == (3, 2)
    assert snapshot() == incremental


def test_rebuild_command_reports_what_it_built(make_user, make_exercise, make_submission):
    make_submission(make_user("alice"), make_exercise(), speedup=2.0, signal=False)
    out = StringIO()
    call_command("rebuild_leaderboards", stdout=out)

    assert "Rebuilt leaderboards: 1 entries for 1 people" in out.getvalue()
    assert UserScore.objects.get().points == services.points_for("easy", 2.0)
