"""The queue a submission waits in: fair order between learners, its place in the
queue, and where its grading is, for the page and the status endpoint."""

from django.utils import timezone

from .. import progress
from ..models import Submission, queue_for
from ..states import Status

MAX_TASK_PRIORITY = 9  # the Redis transport's priority steps are 0..9 (settings)


def fair_priority(submission):
    """The submission's place in its owner's own backlog, 0 for the oldest.

    The Redis transport serves lower numbers first, so everyone's first pending
    submission goes before anyone's second: round-robin by user, approximately,
    without a dispatcher. A flood only ever queues behind other people's work."""
    ahead = Submission.objects.filter(
        user_id=submission.user_id, status__in=Status.ACTIVE, created_at__lt=submission.created_at
    ).count()
    return min(ahead, MAX_TASK_PRIORITY)


def queue_position(submission):
    """How many queued submissions go before this one, by fair_priority's rule (a lower
    place in one's own backlog first, then the older), in its queue (cpu, check or gpu);
    0 = next. None once it is no longer queued. An estimate: a row requeued by the
    sweep, or a worker that picks up a later message first, can change it."""
    if submission.status != Status.QUEUED:
        return None
    active = Submission.objects.filter(status__in=Status.ACTIVE).order_by("created_at", "id")
    backlog, ahead, mine = {}, [], None
    for row in active.values("id", "user_id", "status", "purpose", "created_at", "exercise__spec__target"):
        place = min(backlog.get(row["user_id"], 0), MAX_TASK_PRIORITY)
        backlog[row["user_id"]] = backlog.get(row["user_id"], 0) + 1
        queue = queue_for(row["exercise__spec__target"], row["purpose"])
        if row["status"] != Status.QUEUED or queue != submission.queue:
            continue
        key = (place, row["created_at"], row["id"])
        if row["id"] == submission.pk:
            mine = key
        ahead.append(key)
    if mine is None:
        return None
    return sum(1 for key in ahead if key < mine)


def submission_progress(submission):
    """Where a submission's grading is, for the page and the status endpoint: queued
    (with its place in the queue), starting, or the harness's latest phase with
    elapsed seconds and an estimate of those left. None once it is final."""
    if submission.is_final:
        return None
    if submission.status == Status.QUEUED:
        return progress.describe({"phase": "queued"}, queue_position=queue_position(submission))
    elapsed_s = (timezone.now() - submission.started_at).total_seconds() if submission.started_at else None
    return progress.describe(progress.latest(submission.pk) or {"phase": "starting"}, elapsed_s=elapsed_s)


def enqueue(submission):
    """Send the grading task to the submission's queue at its fair priority."""
    from ..tasks import grade_submission

    grade_submission.apply_async(args=[submission.pk], queue=submission.queue, priority=fair_priority(submission))
