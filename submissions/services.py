"""Submission lifecycle: create and queue, claim and grade, sweep the stuck.

The Submission row is the truth. A worker claims a row with a conditional
UPDATE (queued -> running), so the same task delivered twice grades once; it
writes the report and the final state in one transaction and only then sends
submission_graded, exactly once per row.
"""
import logging
from datetime import timedelta

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Q
from django.http import HttpRequest
from django.utils import timezone
from django_ratelimit.core import is_ratelimited

from accounts.verification import is_verified, where_mail_arrives
from grader import grading
from grader.errors import PlatformError
from questions.models import Question
from questions.text import unix_newlines

from . import progress
from .models import CHECK_PURPOSES, SITTING_PURPOSES, Purpose, Submission, queue_for
from .signals import submission_graded
from .states import Status, Verdict

logger = logging.getLogger(__name__)

#: Celery limits for one grading task: above the longest sandbox run.
TASK_SOFT_TIME_LIMIT_S = grading.MAX_SANDBOX_WALL_S + 60
TASK_HARD_TIME_LIMIT_S = TASK_SOFT_TIME_LIMIT_S + 60
#: A row 'running' for longer than this lost its worker; it may be claimed again.
RECLAIM_RUNNING_AFTER_S = TASK_HARD_TIME_LIMIT_S + 60
#: A row still queued after this may have lost its broker message: queue it again.
REQUEUE_QUEUED_AFTER_S = 10 * 60
#: Claims per row before the platform gives up and says so.
MAX_ATTEMPTS = 3

GPU_HEARTBEAT_KEY = "submissions:gpu-worker-heartbeat"
GPU_HEARTBEAT_INTERVAL_S = 20
GPU_HEARTBEAT_TTL_S = 3 * GPU_HEARTBEAT_INTERVAL_S
NO_GPU_WORKER_MESSAGE = (
    "No GPU worker is online right now, so this GPU exercise cannot be graded. Your code is kept; "
    "submit again once a GPU worker is back."
)

GAVE_UP_MESSAGE = (
    "Hotpath tried to grade this submission {attempts} times and the grading machinery failed each time. "
    "This is our problem, not your code's; please submit again later."
)
WEB_PURPOSES = (Purpose.PRACTICE, Purpose.QUICK_CHECK)
MAX_TASK_PRIORITY = 9  # the Redis transport's priority steps are 0..9 (settings)


# -- creating -------------------------------------------------------------------------


def clean_code(code):
    """The submitted code as text, or ValidationError with a message for the learner."""
    if isinstance(code, (bytes, bytearray)):
        try:
            code = bytes(code).decode("utf-8")
        except UnicodeDecodeError:
            raise ValidationError("Your code is not valid UTF-8 text; save it as UTF-8 and submit again.", code="not_utf8") from None
    if not isinstance(code, str):
        raise ValidationError("Send the code as text.", code="not_text")
    if "\x00" in code:
        raise ValidationError("Your code contains a NUL character (\\x00); remove it and submit again.", code="nul")
    size = len(code.encode("utf-8", errors="surrogatepass"))
    if size > settings.SUBMISSION_MAX_BYTES:
        raise ValidationError(
            f"Your code is {size:,} bytes; the limit is {settings.SUBMISSION_MAX_BYTES:,} bytes.", code="too_large"
        )
    try:
        code.encode("utf-8")
    except UnicodeEncodeError:
        raise ValidationError("Your code is not valid UTF-8 text; save it as UTF-8 and submit again.", code="not_utf8") from None
    if not code.strip():
        raise ValidationError("Your code is empty.", code="empty")
    # Browsers send textarea content with CRLF line endings; store what the learner typed.
    return unix_newlines(code)


def active_submission_count(user):
    return Submission.objects.filter(user=user, status__in=Status.ACTIVE).count()


def create_submission(user, exercise_version, code, purpose=Purpose.PRACTICE):
    """Validate, save and queue a submission. Raises ValidationError (with a
    message fit for the learner) for bad code or too much work in flight."""
    code = clean_code(code)
    limit = settings.SUBMISSION_MAX_QUEUED_PER_USER
    with transaction.atomic():
        active = active_submission_count(user)
        if active >= limit:
            raise ValidationError(
                f"You already have {active} submission(s) waiting to be graded (the limit is {limit}). "
                "Wait for one to finish, then submit again.",
                code="too_many_queued",
            )
        submission = Submission.objects.create(user=user, exercise=exercise_version, code=code, purpose=purpose)
        transaction.on_commit(lambda: enqueue(submission))
    return submission


def check_submission_rate(user):
    """Count one submission against the user's rate (settings.SUBMISSION_RATE) in the
    shared cache; ValidationError(code="rate_limited") once past it. django-ratelimit
    reads its key from a request, so it gets one that carries only the user."""
    request = HttpRequest()
    request.user = user
    if is_ratelimited(request, group="grader.submit", key="user", rate=settings.SUBMISSION_RATE, increment=True):
        raise ValidationError("You are submitting too quickly. Wait a minute, then try again.", code="rate_limited")


def submit_practice(user, exercise_version, code, purpose=Purpose.PRACTICE):
    """What the web form and the API do for a learner's practice or quick check: the
    rate limit, then create_submission's validation, queue cap and fair ordering."""
    if purpose not in WEB_PURPOSES:
        raise ValidationError(f"Unknown purpose {purpose!r}.", code="bad_purpose")
    if not is_verified(user):
        # One person, one account in the queue: the per-user cap and fair ordering count accounts.
        raise ValidationError(
            f"Verify your e-mail address before submitting code: open the link we sent to {user.email or 'you'} "
            f"(your profile page sends a new one). {where_mail_arrives()}".rstrip(),
            code="unverified",
        )
    if exercise_version.target == "gpu" and not gpu_worker_online():
        raise ValidationError(NO_GPU_WORKER_MESSAGE, code="no_gpu_worker")
    check_submission_rate(user)
    return create_submission(user, exercise_version, code, purpose=purpose)


def can_grade_again(submission):
    """An accepted practice grading with a speedup: the kind whose figure another grading steadies."""
    return (
        submission.purpose == Purpose.PRACTICE
        and submission.verdict == Verdict.ACCEPTED
        and submission.speedup is not None
    )


def grade_again(user, submission):
    """Another practice grading of the same code, on the exercise's current version, with
    submit_practice's rules (rate, queue cap, a verified address). The leaderboard counts a
    program's gradings by their middle one, so this steadies a figure, as the grader's
    message advises when the machine was busy, and cannot lift it by luck."""
    if submission.user_id != user.pk or not can_grade_again(submission):
        raise ValidationError("Only your own accepted practice answers can be graded again.", code="not_gradable_again")
    question = Question.objects.public().live().filter(pk=submission.exercise.question_id).first()
    exercise = question.current_exercise() if question else None
    if exercise is None:
        raise ValidationError("This exercise takes no more submissions: it was retired.", code="retired")
    return submit_practice(user, exercise, submission.code)


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
    from .tasks import grade_submission

    grade_submission.apply_async(args=[submission.pk], queue=submission.queue, priority=fair_priority(submission))


# -- grading ------------------------------------------------------------------------


def grading_mode(purpose):
    return "check" if purpose in CHECK_PURPOSES else "full"


def claim(submission_id):
    """queued -> running (or a 'running' row whose worker vanished). Returns the
    claimed row, or None when another worker has it or it is already done."""
    now = timezone.now()
    stale = now - timedelta(seconds=RECLAIM_RUNNING_AFTER_S)
    claimed = (
        Submission.objects.filter(pk=submission_id)
        .filter(Q(status=Status.QUEUED) | Q(status=Status.RUNNING, started_at__lt=stale))
        .update(status=Status.RUNNING, attempts=F("attempts") + 1, started_at=now)
    )
    if not claimed:
        return None
    return Submission.objects.select_related("exercise__question", "user").get(pk=submission_id)


def run_grading(submission_id, backend=None):
    """Claim, grade and record one submission; safe to call twice. Re-raises
    PlatformError (after putting the row back in the queue) so Celery retries,
    until MAX_ATTEMPTS, when the row is closed as internal_error."""
    submission = claim(submission_id)
    if submission is None:
        logger.info("submission %s is already claimed or graded; nothing to do", submission_id)
        return None
    live = progress.ProgressStore(submission.pk)
    live.start()
    try:
        report = grading.grade(
            submission.exercise, submission.code, mode=grading_mode(submission.purpose), backend=backend, progress=live
        )
    except (PlatformError, SoftTimeLimitExceeded) as exc:
        error = exc if isinstance(exc, PlatformError) else PlatformError("grading.soft_time_limit", "the task ran out of time")
        logger.error("grading submission %s failed (attempt %s): %s", submission.pk, submission.attempts, error)
        if submission.attempts >= MAX_ATTEMPTS:
            return fail(submission, error)
        release(submission, error)
        raise error from exc
    except Exception as exc:  # a bug on our side: do not retry it forever
        logger.exception("grading submission %s crashed", submission.pk)
        return fail(submission, PlatformError("grading.crashed", repr(exc)))
    finally:
        live.clear()
    return finish(submission, report)


def release(submission, error):
    """running -> queued after a platform failure, keeping the error for staff."""
    Submission.objects.filter(pk=submission.pk, status=Status.RUNNING, attempts=submission.attempts).update(
        status=Status.QUEUED, platform_error=str(error)[:2000]
    )


def finish(submission, report):
    """Write the report and the final state; send submission_graded if this
    call is the one that closed the row."""
    speedup_ci = report.get("speedup_ci") or [None, None]
    fields = {
        "status": Status.DONE,
        "verdict": report["verdict"],
        "message": report.get("message") or "",
        "report": report,
        "speedup": report.get("speedup"),
        "speedup_ci_low": speedup_ci[0],
        "speedup_ci_high": speedup_ci[1],
        "peak_memory_bytes": report.get("peak_memory_bytes"),
        "reference_peak_memory_bytes": report.get("reference_peak_memory_bytes"),
        "hardware": report.get("hardware") or "",
        "finished_at": timezone.now(),
    }
    return _close(submission, fields)


def fail(submission, error):
    """Close a row the platform could not grade, saying so honestly."""
    message = GAVE_UP_MESSAGE.format(attempts=submission.attempts) if submission.attempts >= MAX_ATTEMPTS else PlatformError.PUBLIC_MESSAGE
    fields = {
        "status": Status.DONE,
        "verdict": Verdict.INTERNAL_ERROR,
        "message": message,
        "report": None,
        "platform_error": str(error)[:2000],
        "finished_at": timezone.now(),
    }
    return _close(submission, fields)


def _close(submission, fields):
    with transaction.atomic():
        closed = (
            Submission.objects.filter(pk=submission.pk, attempts=submission.attempts)
            .exclude(status=Status.DONE)
            .update(**fields)
        )
    if not closed:
        logger.warning("submission %s was closed by another worker; dropping this result", submission.pk)
        return None
    graded = Submission.objects.select_related("exercise__question", "user").get(pk=submission.pk)
    submission_graded.send(sender=Submission, submission=graded)
    return graded


# -- housekeeping -------------------------------------------------------------------


def sweep_stuck_submissions():
    """Requeue rows whose task went missing; close those that ran out of attempts.
    Returns counts, for logs and tests."""
    now = timezone.now()
    counts = {"requeued": 0, "failed": 0}
    lost_worker = Submission.objects.filter(status=Status.RUNNING, started_at__lt=now - timedelta(seconds=RECLAIM_RUNNING_AFTER_S))
    lost_message = Submission.objects.filter(status=Status.QUEUED, created_at__lt=now - timedelta(seconds=REQUEUE_QUEUED_AFTER_S))
    gpu_online = gpu_worker_online()
    for submission in (lost_worker | lost_message).select_related("exercise"):
        if submission.attempts >= MAX_ATTEMPTS:
            if fail(submission, PlatformError("grading.gave_up", f"stuck after {submission.attempts} attempts")):
                counts["failed"] += 1
            continue
        if submission.queue == "gpu" and not gpu_online:
            continue  # its message waits in the gpu queue; the page says no GPU worker is online
        if submission.status == Status.RUNNING:
            moved = Submission.objects.filter(pk=submission.pk, status=Status.RUNNING, attempts=submission.attempts).update(
                status=Status.QUEUED, platform_error="the grading worker stopped mid-run"
            )
            if not moved:
                continue
        enqueue(submission)
        counts["requeued"] += 1
    if counts["requeued"] or counts["failed"]:
        logger.warning("sweep: requeued %(requeued)s, failed %(failed)s stuck submission(s)", counts)
    return counts


def remove_stale_sandboxes():
    """Remove what sandboxes of dead workers left behind: on this machine, job
    directories and cgroups (bwrap); on the Docker engine, expired sandbox
    containers. Each worker calls it when it starts."""
    if settings.SANDBOX_BACKEND == "docker":
        from grader.sandbox.docker import DockerSandbox

        return DockerSandbox.remove_stale()
    from grader.sandbox.bwrap import BwrapSandbox

    return BwrapSandbox.remove_stale()


def record_gpu_heartbeat(details):
    cache.set(GPU_HEARTBEAT_KEY, {**details, "at": timezone.now().isoformat()}, timeout=GPU_HEARTBEAT_TTL_S)


def clear_gpu_heartbeat():
    cache.delete(GPU_HEARTBEAT_KEY)


def gpu_worker_online():
    return cache.get(GPU_HEARTBEAT_KEY) is not None


def waiting_for_gpu(submission):
    return submission.status == Status.QUEUED and submission.queue == "gpu" and not gpu_worker_online()


def recent_submissions(user, question, limit=10):
    """The user's latest submissions for any version of `question` (not those in a sitting)."""
    if not user.is_authenticated:
        return Submission.objects.none()
    return (
        Submission.objects.filter(user=user, exercise__question=question)
        .exclude(purpose__in=SITTING_PURPOSES)
        .select_related("exercise")
        .order_by("-created_at")[:limit]
    )


def filter_submissions(submissions, exercise="", purpose="", verdict=""):
    """Newest first, narrowed by an exercise's slug, a purpose and a verdict; unknown values are ignored."""
    if exercise:
        submissions = submissions.filter(exercise__question__slug=exercise)
    if purpose in Purpose.values:
        submissions = submissions.filter(purpose=purpose)
    if verdict in Verdict.ALL:
        submissions = submissions.filter(verdict=verdict)
    return submissions.select_related("exercise__question").order_by("-created_at", "-id")
