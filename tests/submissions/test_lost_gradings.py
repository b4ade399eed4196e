"""Gradings whose worker or result went missing come back at once, not after the sweep's
RECLAIM_RUNNING_AFTER_S: a restarted worker gives back what its killed predecessor held, and a
result the database could not take is graded again once it is back. Both found by the
load-and-fault run on the compose stack (bench/compose_load.py)."""

from datetime import timedelta

import pytest
from celery.exceptions import Reject
from django.db import OperationalError
from django.utils import timezone
from redis.exceptions import ConnectionError as RedisConnectionError

from grader import grading
from submissions import progress, tasks
from submissions.models import Submission
from submissions.services import housekeeping, lifecycle
from submissions.states import Status, Verdict

CODE = "def scale(x):\n    return x * 3.0 + 1.0\n"
REPORT = {"verdict": Verdict.ACCEPTED, "message": "Correct.", "hardware": "cpu", "sizes": []}

pytestmark = pytest.mark.django_db


def running(user, version, attempts=1):
    """A row a worker claimed a minute ago (lifecycle.claim sets started_at)."""
    return Submission.objects.create(
        user=user,
        exercise=version,
        code=CODE,
        status=Status.RUNNING,
        attempts=attempts,
        started_at=timezone.now() - timedelta(minutes=1),
    )


def test_a_restarted_worker_requeues_what_its_killed_predecessor_held(candidate, exercise_version, queued):
    held = running(candidate, exercise_version)
    other = running(candidate, exercise_version)
    housekeeping.hold("celery@worker-1", held.pk)
    housekeeping.hold("celery@worker-2", other.pk)

    assert housekeeping.requeue_held("celery@worker-1") == {"requeued": 1, "failed": 0}
    held.refresh_from_db()
    other.refresh_from_db()
    assert (held.status, held.platform_error) == (Status.QUEUED, housekeeping.WORKER_STOPPED)
    assert queued == [([held.pk], "cpu")]
    assert other.status == Status.RUNNING  # another worker's grading is left alone
    assert housekeeping.requeue_held("celery@worker-1") == {"requeued": 0, "failed": 0}


def test_a_worker_that_let_go_gives_nothing_back(candidate, exercise_version, queued):
    graded = running(candidate, exercise_version)
    housekeeping.hold("celery@worker-1", graded.pk)
    housekeeping.let_go("celery@worker-1")
    assert housekeeping.requeue_held("celery@worker-1") == {"requeued": 0, "failed": 0}
    assert queued == []


def test_a_held_row_out_of_attempts_is_closed(candidate, exercise_version, queued):
    exhausted = running(candidate, exercise_version, attempts=lifecycle.MAX_ATTEMPTS)
    housekeeping.hold("celery@worker-1", exhausted.pk)
    assert housekeeping.requeue_held("celery@worker-1") == {"requeued": 0, "failed": 1}
    exhausted.refresh_from_db()
    assert exhausted.verdict == Verdict.INTERNAL_ERROR and queued == []


def test_a_result_the_database_could_not_take_is_graded_again_once(candidate, exercise_version, monkeypatch):
    """The database goes away while the sandbox runs: writing the result fails and the row is left
    'running'. The task retries, puts the row back in the queue and grades it: one result."""
    monkeypatch.setattr(grading, "grade", lambda *args, **kwargs: dict(REPORT))
    real_finish = lifecycle.finish
    writes = []

    def finish_once_the_database_is_back(submission, report):
        writes.append(submission.attempts)
        if len(writes) == 1:
            raise OperationalError("terminating connection due to administrator command")
        return real_finish(submission, report)

    monkeypatch.setattr(lifecycle, "finish", finish_once_the_database_is_back)
    monkeypatch.setattr(tasks, "DATABASE_RETRY_S", 0)
    submission = Submission.objects.create(user=candidate, exercise=exercise_version, code=CODE)

    tasks.grade_submission.apply(args=[submission.pk])

    submission.refresh_from_db()
    assert writes == [1, 2]
    assert (submission.status, submission.verdict, submission.attempts) == (Status.DONE, Verdict.ACCEPTED, 2)
    assert housekeeping.requeue_held("celery") == {"requeued": 0, "failed": 0}


class CacheDown:
    """A cache whose every call fails as Redis's does when the server is gone."""

    def __getattr__(self, name):
        def fail(*args, **kwargs):
            raise RedisConnectionError("Error -2 connecting to redis:6379. Name or service not known.")

        return fail


def test_noting_what_a_worker_holds_never_fails_a_grading(monkeypatch):
    monkeypatch.setattr(housekeeping, "cache", CacheDown())
    housekeeping.hold("celery@worker-1", 1)
    housekeeping.let_go("celery@worker-1")


@pytest.fixture
def redis_lost_once(monkeypatch):
    """Redis goes away just after the claim, once (the live progress cannot start), then comes back;
    the sandbox is a stand-in. Returns the list of progress starts tried."""
    monkeypatch.setattr(grading, "grade", lambda *args, **kwargs: dict(REPORT))
    real_start = progress.ProgressStore.start
    starts = []

    def start_once_redis_is_back(store):
        starts.append(store)
        if len(starts) == 1:
            raise RedisConnectionError("Error -2 connecting to redis:6379. Name or service not known.")
        return real_start(store)

    monkeypatch.setattr(progress.ProgressStore, "start", start_once_redis_is_back)
    monkeypatch.setattr(tasks, "DATABASE_RETRY_S", 0)
    return starts


def test_a_grading_that_lost_redis_mid_claim_is_graded_again_once(candidate, exercise_version, redis_lost_once):
    """Redis goes away just after the claim (the live progress cannot start): the row is left
    'running'; the task retries, puts it back in the queue and grades it."""
    submission = Submission.objects.create(user=candidate, exercise=exercise_version, code=CODE)

    tasks.grade_submission.apply(args=[submission.pk])

    submission.refresh_from_db()
    assert len(redis_lost_once) == 2
    assert (submission.status, submission.verdict, submission.attempts) == (Status.DONE, Verdict.ACCEPTED, 2)


def test_a_retry_the_broker_cannot_take_is_graded_again_in_the_task(
    candidate, exercise_version, redis_lost_once, monkeypatch
):
    """Redis, the broker too, goes away mid-claim: the retry cannot be queued, and Celery would drop
    the message (Reject, requeue=False), leaving the row 'running' until the sweep. The task waits
    and grades it again itself: one result (found by the compose stack's load-and-fault run)."""

    def broker_down(*args, **kwargs):
        raise Reject(RedisConnectionError("Error -2 connecting to redis:6379."), requeue=False)

    monkeypatch.setattr(tasks.grade_submission, "retry", broker_down)
    submission = Submission.objects.create(user=candidate, exercise=exercise_version, code=CODE)

    tasks.grade_submission.apply(args=[submission.pk])

    submission.refresh_from_db()
    assert len(redis_lost_once) == 2
    assert (submission.status, submission.verdict, submission.attempts) == (Status.DONE, Verdict.ACCEPTED, 2)


class CacheBackAfter:
    """The real cache, unreachable for its first `failures` calls (a worker restarted beside a
    restarting Redis, as the compose stack's load-and-fault run did)."""

    def __init__(self, failures):
        from django.core.cache import cache

        self.cache, self.failures = cache, failures

    def __getattr__(self, name):
        def call(*args, **kwargs):
            if self.failures:
                self.failures -= 1
                raise RedisConnectionError("Error 111 connecting to redis:6379. Connection refused.")
            return getattr(self.cache, name)(*args, **kwargs)

        return call


def test_a_worker_restarted_while_redis_is_away_gives_back_its_predecessors_row_once_it_is_back(
    candidate, exercise_version, queued, monkeypatch
):
    held = running(candidate, exercise_version)
    housekeeping.hold("celery@worker-1", held.pk)
    monkeypatch.setattr(housekeeping, "cache", CacheBackAfter(failures=2))
    monkeypatch.setattr(housekeeping, "GIVE_BACK_RETRY_S", 0)

    assert housekeeping.give_back_held("celery@worker-1", timezone.now()) == {"requeued": 1, "failed": 0}
    held.refresh_from_db()
    assert held.status == Status.QUEUED and queued == [([held.pk], "cpu")]


def test_a_row_moved_back_whose_task_the_broker_could_not_take_is_sent_on_the_next_try(
    candidate, exercise_version, queued, monkeypatch
):
    from kombu.exceptions import OperationalError as BrokerError

    from submissions.services import queueing

    held = running(candidate, exercise_version)
    housekeeping.hold("celery@worker-1", held.pk)
    real_enqueue, sends = queueing.enqueue, []

    def broker_back_on_the_second_send(submission):
        sends.append(submission.pk)
        if len(sends) == 1:
            raise BrokerError("Error 111 connecting to redis:6379. Connection refused.")
        real_enqueue(submission)

    monkeypatch.setattr(queueing, "enqueue", broker_back_on_the_second_send)
    monkeypatch.setattr(housekeeping, "GIVE_BACK_RETRY_S", 0)

    assert housekeeping.give_back_held("celery@worker-1", timezone.now()) == {"requeued": 1, "failed": 0}
    held.refresh_from_db()
    assert held.status == Status.QUEUED and sends == [held.pk, held.pk] and queued == [([held.pk], "cpu")]
    assert housekeeping.requeue_held("celery@worker-1") == {"requeued": 0, "failed": 0}


def test_giving_back_stops_trying_when_redis_stays_away(candidate, exercise_version, queued, monkeypatch):
    held = running(candidate, exercise_version)
    monkeypatch.setattr(housekeeping, "cache", CacheDown())
    monkeypatch.setattr(housekeeping, "GIVE_BACK_RETRY_S", 0)

    assert housekeeping.give_back_held("celery@worker-1", timezone.now(), give_up_after_s=0) is None
    held.refresh_from_db()
    assert held.status == Status.RUNNING and queued == []  # the sweep's reclaim takes it later


def test_a_row_the_restarted_worker_claimed_itself_is_not_taken_from_it(candidate, exercise_version, queued):
    """While the give-back waits for the database, the restarted worker may claim a row of its own
    under the same note: that grading is left to finish."""
    started_at = timezone.now()
    own = running(candidate, exercise_version)
    Submission.objects.filter(pk=own.pk).update(started_at=timezone.now())
    housekeeping.hold("celery@worker-1", own.pk)

    assert housekeeping.requeue_held("celery@worker-1", started_at) == {"requeued": 0, "failed": 0}
    own.refresh_from_db()
    assert own.status == Status.RUNNING and queued == []
