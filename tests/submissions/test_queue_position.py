"""queue_position: the place fair ordering gives a queued submission (the API's progress)."""

from submissions.models import Submission
from submissions.services import queueing
from submissions.states import Status


def test_position_follows_fair_ordering(candidate, outsider, exercise_version):
    flood = [Submission.objects.create(user=candidate, exercise=exercise_version, code="x = 1\n") for _ in range(3)]
    late = Submission.objects.create(user=outsider, exercise=exercise_version, code="x = 1\n")
    # Everyone's first goes before anyone's second: the late one is second, behind the flood's first.
    assert [queueing.queue_position(s) for s in (*flood, late)] == [0, 2, 3, 1]


def test_running_work_still_counts_in_its_owners_backlog(candidate, outsider, exercise_version):
    running = Submission.objects.create(
        user=candidate, exercise=exercise_version, code="x = 1\n", status=Status.RUNNING
    )
    second = Submission.objects.create(user=candidate, exercise=exercise_version, code="x = 1\n")
    other = Submission.objects.create(user=outsider, exercise=exercise_version, code="x = 1\n")
    assert queueing.queue_position(running) is None
    assert (queueing.queue_position(second), queueing.queue_position(other)) == (1, 0)
