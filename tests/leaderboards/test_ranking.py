"""What gets on a board, in what order, and how points add up."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command

from leaderboards import services
from leaderboards.models import LeaderboardEntry, TopicScore, UserScore
from questions.models import Kind, Question
from submissions.models import Purpose, Submission
from submissions.states import Status, Verdict

from .conftest import START


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
def test_only_accepted_practice_with_a_speedup_counts(
    make_user, make_exercise, make_submission, purpose, verdict, speedup
):
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
    make_submission(alice, easy, speedup=1.2)
    make_submission(alice, easy, speedup=4.0)  # improves: 10 -> 12
    make_submission(bob, hard, speedup=1.2)  # 30
    make_submission(carol, easy, speedup=1.2, minutes=1)
    make_submission(carol, hard, speedup=2.0, minutes=2)  # 10 + 33

    rows = [(score.user.username, score.points, score.solved) for score in services.global_board()]
    assert rows == [("carol", 43, 2), ("bob", 30, 1), ("alice", 12, 1)]
    assert services.position_of_score(UserScore.objects.get(user=bob)) == 2


def test_equal_points_go_to_whoever_got_there_first(make_user, make_exercise, make_submission):
    """ "There" is the solve that completed the total: each person's latest, not their first."""
    first, second = make_exercise(), make_exercise()
    early, late = make_user("early"), make_user("late")
    make_submission(late, first, speedup=1.2, minutes=1)  # late starts first...
    make_submission(early, first, speedup=1.2, minutes=5)
    make_submission(early, second, speedup=1.2, minutes=10)
    make_submission(late, second, speedup=1.2, minutes=20)  # ...but completes the same 20 points last

    assert [score.user.username for score in services.global_board()] == ["early", "late"]
    assert UserScore.objects.get(user=late).reached_at == START + timedelta(minutes=20)
    assert TopicScore.objects.get(user=early).reached_at == START + timedelta(minutes=10)
    assert services.position_of_score(UserScore.objects.get(user=late)) == 2
    assert services.position_of_score(UserScore.objects.get(user=early)) == 1


def test_topic_board_counts_only_that_topics_exercises(make_user, make_exercise, make_submission):
    gpu = make_exercise(topic="GPU Programming", difficulty="hard")
    algo = make_exercise(topic="Algorithmic Complexity & Code-Level Optimization", difficulty="easy")
    alice, bob = make_user("alice"), make_user("bob")
    make_submission(alice, algo, speedup=1.2)
    make_submission(alice, gpu, speedup=1.2)
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
    # A person without a profile row at all (made before profiles existed, say) is anonymous too.
    shy.profile.delete()
    assert services.public_name(type(shy).objects.get(pk=shy.pk)) == "Anonymous"


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
            sorted(
                LeaderboardEntry.objects.values_list("user_id", "question_id", "hardware", "submission_id", "speedup")
            ),
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


def test_what_is_rankable(make_exercise):
    exercise = make_exercise()

    def submission(**fields):
        defaults = {
            "purpose": Purpose.PRACTICE,
            "status": Status.DONE,
            "verdict": Verdict.ACCEPTED,
            "speedup": 2.0,
            "hardware": "cpu",
            "exercise": exercise,
            "program": "mine",
        }
        return Submission(**{**defaults, **fields})

    assert services.is_rankable(submission())
    for fields in (
        {"speedup": 0.0},
        {"speedup": -1.0},
        {"speedup": None},
        {"hardware": ""},
        {"status": Status.RUNNING},
        {"verdict": Verdict.WRONG_ANSWER},
        {"purpose": Purpose.ASSESSMENT},
        {"speedup": 1.0},
        {"speedup": 1.5, "speedup_ci_low": 0.98},
    ):  # not faster than the reference (issue 30)
        assert not services.is_rankable(submission(**fields)), fields


def test_a_zero_speedup_is_never_ranked(make_user, make_exercise, make_submission):
    exercise = make_exercise()
    zero = make_submission(make_user("zero"), exercise, speedup=0.0)

    assert not LeaderboardEntry.objects.exists() and services.standing(zero) is None
    make_submission(make_user("other"), exercise, speedup=2.0, signal=False)
    assert services.rebuild() == (1, 1)  # the rebuild leaves it out too


def test_an_identical_later_result_does_not_replace_the_entry(make_user, make_exercise, make_submission):
    exercise, alice = make_exercise(), make_user("alice")
    first = make_submission(alice, exercise, speedup=3.0, memory=100, minutes=7)
    make_submission(alice, exercise, speedup=3.0, memory=100, minutes=7)

    assert LeaderboardEntry.objects.get().submission == first


def test_places_among_equal_speedups(make_user, make_exercise, make_submission):
    """Same speed: measured memory before unknown, then earlier, then first recorded."""
    exercise = make_exercise()
    lone = make_submission(make_user("lone"), exercise, speedup=2.0, memory=None, minutes=1)
    assert services.position_of_entry(LeaderboardEntry.objects.get(submission=lone)) == 1

    unknown_late = make_submission(make_user("unknown-late"), exercise, speedup=2.0, memory=None, minutes=9)
    # Recorded before twin at the same moment and memory, but slower: the id breaks ties of equal speed only.
    slow_twin = make_submission(make_user("slow-twin"), exercise, speedup=1.5, memory=None, minutes=9)
    twin = make_submission(make_user("twin"), exercise, speedup=2.0, memory=None, minutes=9)
    lean = make_submission(make_user("lean"), exercise, speedup=2.0, memory=10, minutes=30)
    fast = make_submission(make_user("fast"), exercise, speedup=2.5, memory=None, minutes=40)

    places = {
        submission.user.username: services.position_of_entry(LeaderboardEntry.objects.get(submission=submission))
        for submission in (lone, unknown_late, slow_twin, twin, lean, fast)
    }
    assert places == {"fast": 1, "lean": 2, "lone": 3, "unknown-late": 4, "twin": 5, "slow-twin": 6}
    assert board_users(exercise.question) == ["fast", "lean", "lone", "unknown-late", "twin", "slow-twin"]


def test_places_on_the_global_board_break_ties_by_time_then_person(make_user, make_exercise, make_submission):
    exercise = make_exercise()
    first, second, later = make_user("first"), make_user("second"), make_user("later")
    for person, minutes in ((second, 5), (first, 5), (later, 6)):
        make_submission(person, exercise, speedup=1.2, minutes=minutes)
    first_place = min(first.pk, second.pk)

    assert services.position_of_score(UserScore.objects.get(user_id=first_place)) == 1
    assert services.position_of_score(UserScore.objects.get(user_id=max(first.pk, second.pk))) == 2
    assert services.position_of_score(UserScore.objects.get(user=later)) == 3


def test_points_and_doublings():
    assert [services.speed_doublings(s) for s in (None, 0, 0.5, 1.0, 1.99, 2.0, 1000.0, 2048.0)] == [
        0,
        0,
        0,
        0,
        0,
        1,
        9,
        10,
    ]
    assert services.points_for("easy", 2.0) == 11 and services.points_for("hard", 4.0) == 36


def test_each_exercise_counts_once_with_its_best_hardware():
    when = START
    entries = [
        {
            "question_id": 1,
            "difficulty": "easy",
            "topic": "A",
            "speedup": 4.0,
            "peak_memory_bytes": 10,
            "achieved_at": when,
        },
        {
            "question_id": 1,
            "difficulty": "easy",
            "topic": "A",
            "speedup": 64.0,
            "peak_memory_bytes": None,
            "achieved_at": when + timedelta(minutes=3),
        },
        {
            "question_id": 1,
            "difficulty": "easy",
            "topic": "A",
            "speedup": 8.0,
            "peak_memory_bytes": 1,
            "achieved_at": when + timedelta(minutes=9),
        },
        {
            "question_id": 2,
            "difficulty": "medium",
            "topic": "B",
            "speedup": 1.0,
            "peak_memory_bytes": 1,
            "achieved_at": when + timedelta(minutes=1),
        },
    ]
    overall, by_topic = services.summarise(entries)
    assert overall.as_defaults() == {"points": 16 + 20, "solved": 2, "reached_at": when + timedelta(minutes=3)}
    assert by_topic["A"].as_defaults() == {"points": 16, "solved": 1, "reached_at": when + timedelta(minutes=3)}
    assert by_topic["B"].as_defaults() == {"points": 20, "solved": 1, "reached_at": when + timedelta(minutes=1)}


def test_rebuild_writes_in_batches_and_groups_by_person(make_user, make_exercise, make_submission, monkeypatch):
    assert list(services._in_batches(range(5), size=2)) == [[0, 1], [2, 3], [4]]
    assert list(services._in_batches([], size=2)) == []

    first, second = make_exercise(difficulty="medium"), make_exercise()
    people = [make_user(f"person{index}") for index in range(3)]
    for index, person in enumerate(people):
        make_submission(person, first, speedup=1.2 * 2.0**index, memory=None if index == 0 else 100, signal=False)
        make_submission(person, second, speedup=1.2, signal=False)
    make_submission(people[0], first, speedup=1.2, memory=100, signal=False)  # as fast, and measured: the better
    monkeypatch.setattr(services, "REBUILD_BATCH", 2)
    assert services.rebuild() == (6, 3)
    assert sorted(UserScore.objects.values_list("user__username", "points", "solved")) == [
        ("person0", 30, 2),
        ("person1", 32, 2),
        ("person2", 34, 2),
    ]
    assert LeaderboardEntry.objects.get(user=people[0], question=first.question).peak_memory_bytes == 100


def test_recording_returns_the_entry_kept(make_user, make_exercise, make_submission):
    exercise, alice = make_exercise(), make_user("alice")
    first = make_submission(alice, exercise, speedup=3.0, signal=False)
    entry = services.record_submission(first)
    assert entry.submission == first

    slower = make_submission(alice, exercise, speedup=2.0, signal=False)
    kept = services.record_submission(slower)
    assert kept.pk == entry.pk and kept.submission == first and kept.speedup == 3.0
    faster = make_submission(alice, exercise, speedup=4.0, signal=False)
    assert services.record_submission(faster).submission == faster
    assert (
        services.record_submission(make_submission(alice, exercise, verdict=Verdict.WRONG_ANSWER, signal=False)) is None
    )


def test_the_board_index_lists_coding_exercises_by_topic_then_title(make_exercise):
    make_exercise(slug="zeta", topic="GPU Programming")
    make_exercise(slug="beta", topic="Algorithmic Complexity & Code-Level Optimization")
    make_exercise(slug="alpha", topic="GPU Programming")
    Question.objects.create(
        slug="concept", title="Concept", topic="Caches", difficulty="easy", kind=Kind.CONCEPT, prompt="?"
    )

    assert [question.slug for question in services.exercises()] == ["beta", "alpha", "zeta"]
    assert services.topics() == [
        ("algorithmic-complexity-code-level-optimization", "Algorithmic Complexity & Code-Level Optimization"),
        ("gpu-programming", "GPU Programming"),
    ]
    assert services.topic_for_slug("caches") is None


LOOP = "def transform(x):\n    return [v * 2 for v in x]\n"
LOOP_RENAMED = (
    "def transform(values):\n    # the same program, renamed and commented\n    return [item * 2 for item in values]\n"
)


def test_the_same_code_graded_again_counts_by_its_middle_grading(make_user, make_exercise, make_submission):
    exercise, alice = make_exercise(), make_user("alice")
    make_submission(alice, exercise, speedup=3.0, code=LOOP)
    middle = make_submission(alice, exercise, speedup=4.0, memory=500, code=LOOP_RENAMED)
    assert LeaderboardEntry.objects.get(user=alice).speedup == 3.0  # the lower of two
    make_submission(alice, exercise, speedup=9.0, code=LOOP)  # a lucky grading does not lift it

    entry = LeaderboardEntry.objects.get(user=alice)  # every field of the entry changed at once
    assert (entry.submission_id, entry.speedup, entry.peak_memory_bytes, entry.gradings) == (middle.pk, 4.0, 500, 3)
    assert UserScore.objects.get(user=alice).points == services.points_for("easy", 4.0)


def test_another_grading_can_lower_the_entry_to_another_program(make_user, make_exercise, make_submission):
    exercise, alice = make_exercise(), make_user("alice")
    other = make_submission(alice, exercise, speedup=2.5)
    make_submission(alice, exercise, speedup=3.0, code=LOOP)
    assert LeaderboardEntry.objects.get(user=alice).speedup == 3.0

    make_submission(alice, exercise, speedup=1.0, code=LOOP)  # LOOP's lower median is now 1.0

    entry = LeaderboardEntry.objects.get(user=alice)
    assert (entry.submission_id, entry.speedup, entry.gradings) == (other.pk, 2.5, 1)
    assert UserScore.objects.get(user=alice).points == services.points_for("easy", 2.5)


def test_the_counted_grading_of_two_is_the_lower(make_user, make_exercise, make_submission):
    exercise, alice = make_exercise(), make_user("alice")
    lower = make_submission(alice, exercise, speedup=26.5, code=LOOP)
    make_submission(alice, exercise, speedup=41.3, code=LOOP)

    assert LeaderboardEntry.objects.get(user=alice).submission_id == lower.pk


def test_only_rankable_gradings_of_the_program_count(make_user, make_exercise, make_submission):
    exercise, alice = make_exercise(), make_user("alice")
    kept = make_submission(alice, exercise, speedup=6.0, code=LOOP)
    make_submission(alice, exercise, speedup=1.0, code=LOOP, purpose=Purpose.ASSESSMENT)
    make_submission(alice, exercise, speedup=1.0, code=LOOP, hardware="NVIDIA H200")
    make_submission(alice, exercise, speedup=None, code=LOOP, verdict=Verdict.WRONG_ANSWER)

    entry = LeaderboardEntry.objects.get(user=alice, hardware="cpu")
    assert (entry.submission_id, entry.gradings) == (kept.pk, 1)


def test_rebuild_counts_programs_as_recording_does(make_user, make_exercise, make_submission):
    first, second = make_exercise(), make_exercise(difficulty="hard")
    alice, bob = make_user("alice"), make_user("bob")
    for speedup in (5.0, 2.0, 8.0, 1.0):
        make_submission(alice, first, speedup=speedup, code=LOOP)
    make_submission(alice, first, speedup=1.5)
    make_submission(alice, second, speedup=3.0, code=LOOP, hardware="NVIDIA H200")
    make_submission(bob, first, speedup=2.0, code=LOOP)
    make_submission(bob, first, speedup=7.0, code=LOOP_RENAMED)
    recorded = set(
        LeaderboardEntry.objects.values_list(
            "user_id", "question_id", "hardware", "submission_id", "speedup", "gradings"
        )
    )
    scores = set(UserScore.objects.values_list("user_id", "points", "solved", "reached_at"))

    assert services.rebuild() == (3, 2)

    assert (
        set(
            LeaderboardEntry.objects.values_list(
                "user_id", "question_id", "hardware", "submission_id", "speedup", "gradings"
            )
        )
        == recorded
    )
    assert set(UserScore.objects.values_list("user_id", "points", "solved", "reached_at")) == scores
    assert {(user, speedup, gradings) for user, _, _, _, speedup, gradings in recorded} == {
        (alice.pk, 2.0, 4),
        (alice.pk, 3.0, 1),
        (bob.pk, 2.0, 2),
    }
