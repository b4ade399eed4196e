"""Two workers finishing submissions for the same person at once must leave one entry
and a score that reflects both. Real parallel transactions need PostgreSQL (SQLite
serialises writers, so there is no race to test): run with
DATABASE_URL=postgres://postgres@127.0.0.1:5432/helper_leaderboards."""

import threading

import pytest
from django.db import connection

from leaderboards import services
from leaderboards.models import LeaderboardEntry, TopicScore, UserScore
from submissions.models import Submission


def test_repeated_delivery_of_the_same_result_is_idempotent(make_user, make_exercise, make_submission):
    exercise, alice = make_exercise(), make_user("alice")
    submission = make_submission(alice, exercise, speedup=4.0)
    services.record_submission(submission)
    services.record_submission(submission)

    assert LeaderboardEntry.objects.count() == 1
    assert UserScore.objects.get(user=alice).points == services.points_for("easy", 4.0)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL for truly concurrent transactions")
@pytest.mark.parametrize("same_exercise", [True, False], ids=["same-exercise", "two-exercises"])
def test_concurrent_results_for_one_person(make_user, make_exercise, make_submission, same_exercise):
    first_exercise = make_exercise(difficulty="easy")
    second_exercise = first_exercise if same_exercise else make_exercise(difficulty="hard")
    alice = make_user("alice")
    submissions = [
        make_submission(alice, first_exercise, speedup=3.0, signal=False),
        make_submission(alice, second_exercise, speedup=5.0, signal=False),
    ]
    barrier = threading.Barrier(len(submissions))
    errors = []

    def worker(submission_id):
        try:
            submission = Submission.objects.select_related("exercise").get(pk=submission_id)
            barrier.wait()
            services.record_submission(submission)
        except Exception as exc:  # surfaced below: a thread's exception is otherwise lost
            errors.append(exc)
        finally:
            connection.close()

    for _ in range(5):  # several rounds: a race rarely shows on the first try
        LeaderboardEntry.objects.all().delete()
        UserScore.objects.all().delete()
        TopicScore.objects.all().delete()
        threads = [threading.Thread(target=worker, args=(submission.pk,)) for submission in submissions]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

        assert errors == []
        score = UserScore.objects.get(user=alice)
        if same_exercise:
            assert LeaderboardEntry.objects.get(user=alice).speedup == 5.0
            assert (score.points, score.solved) == (services.points_for("easy", 5.0), 1)
        else:
            assert LeaderboardEntry.objects.filter(user=alice).count() == 2
            expected = services.points_for("easy", 3.0) + services.points_for("hard", 5.0)
            assert (score.points, score.solved) == (expected, 2)
