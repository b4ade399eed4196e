"""Sitting a mock interview: starting it, saving answers, submitting code, finishing.

The clock starts when the interview is created; `deadline` = start + its length. Every
change to an answer goes through ensure_open, so nothing is accepted after the deadline;
an interview past its deadline is closed (at the deadline) the moment anyone reads it."""

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.verification import is_verified
from questions.models import Kind
from questions.numeric import check_numeric
from questions.services.answering import (
    MAX_ANSWER_CHARS,
    UnstorableAnswer,
    answer_numeric,
    checked_length,
    reveal_concept_answer,
    score_concept_attempt,
)
from questions.services.calibration import CONFIDENCE_LEVELS
from submissions.models import Purpose
from submissions.services.gpu_workers import gpu_worker_online, no_gpu_worker_message
from submissions.services.intake import check_submission_rate, create_submission

from . import drawing
from .models import FinishReason, MockInterview, MockItem


class MockInterviewError(ValueError):
    """A request the interview cannot take; the message is fit for the learner."""

    @property
    def message(self):
        return self.args[0]


class InterviewClosed(MockInterviewError):
    pass


class RunningAlready(MockInterviewError):
    pass


def running_interview(user, now=None):
    """The user's mock interview still before its deadline and not finished, or None."""
    running = MockInterview.objects.filter(user=user, finished_at__isnull=True)
    for interview in running:
        finalise_if_expired(interview, now)
    return running.first()


@transaction.atomic
def start_interview(user, minutes, topics=(), difficulty="", now=None):
    """Draw the questions and start the clock. One at a time: RunningAlready while another
    runs; drawing.NothingToDraw when no question matches."""
    now = now or timezone.now()
    if running_interview(user, now) is not None:
        raise RunningAlready("You are sitting a mock interview already: finish it before you start another.")
    chosen = drawing.draw(user, minutes, topics, difficulty)
    interview = MockInterview.objects.create(
        user=user,
        minutes=minutes,
        topics=sorted(topics),
        difficulty=difficulty,
        pool_note=chosen.note,
        started_at=now,
        deadline=now + timedelta(minutes=minutes),
    )
    MockItem.objects.bulk_create(
        MockItem(
            interview=interview,
            position=position,
            question=drawn.question,
            exercise_version=drawn.exercise_version,
            seen_before=drawn.seen_before,
        )
        for position, drawn in enumerate(chosen.questions)
    )
    return interview


def _record_attempts(interview):
    """Turn each written concept or numeric answer into a questions.Attempt (with its
    confidence), as practice records them: numeric ones scored now, concept ones once the
    learner ticks the rubric. A numeric answer that cannot be read stays unscored."""
    for item in interview.items.select_related("question").filter(attempt__isnull=True):
        if item.question.kind == Kind.CONCEPT and item.text.strip():
            item.attempt = reveal_concept_answer(interview.user, item.question, item.text, item.confidence)
        elif item.question.kind == Kind.NUMERIC and item.numeric_input.strip():
            item.attempt, _check = answer_numeric(interview.user, item.question, item.numeric_input, item.confidence)
        if item.attempt is not None:
            item.save(update_fields=["attempt"])


@transaction.atomic
def finish_interview(interview, reason, now=None):
    """Close the interview once (a second call changes nothing) and record its answers."""
    closed = MockInterview.objects.filter(pk=interview.pk, finished_at__isnull=True).update(
        finished_at=now or timezone.now(), finish_reason=reason
    )
    interview.refresh_from_db(fields=["finished_at", "finish_reason"])
    if closed:
        _record_attempts(interview)
    return bool(closed)


def finalise_if_expired(interview, now=None):
    """Finalisation on read: an interview past its deadline closes at the deadline."""
    if not interview.is_finished and interview.is_past_deadline(now):
        return finish_interview(interview, FinishReason.EXPIRED, now=interview.deadline)
    return False


def ensure_open(interview, now=None):
    finalise_if_expired(interview, now)
    if interview.finish_reason == FinishReason.SUBMITTED:
        raise InterviewClosed("You have submitted this mock interview: answers can no longer change.")
    if interview.is_finished:
        raise InterviewClosed("Time is up: the mock interview ended with the answers saved before the deadline.")


def _confidence(raw):
    if raw in (None, ""):
        return None
    try:
        confidence = int(raw)
    except (TypeError, ValueError):
        confidence = None
    if confidence not in CONFIDENCE_LEVELS:
        raise MockInterviewError("Confidence is a whole number from 1 to 5.")
    return confidence


def save_answer(item, *, text=None, numeric_input=None, confidence=None, now=None):
    """Save (autosave) a written answer and its confidence, or a coding answer's code as
    typed. Returns a message when a numeric input cannot be read (saved all the same, so
    nothing typed is lost); correctness is told only in the report."""
    ensure_open(item.interview, now)
    # The limits practice applies: code as long as a submission, a written answer MAX_ANSWER_CHARS.
    limit = settings.SUBMISSION_MAX_BYTES if item.question.kind == Kind.CODING else MAX_ANSWER_CHARS
    try:
        text = checked_length(text, limit)
        checked_length(numeric_input)
    except UnstorableAnswer as refused:
        raise MockInterviewError(str(refused)) from None
    message = ""
    fields = ["updated_at"]
    if item.question.kind == Kind.NUMERIC:
        item.numeric_input = (numeric_input or "").strip()[:100]
        question = item.question
        check = check_numeric(
            item.numeric_input, answer=question.answer_value, unit=question.answer_unit, tolerance=question.tolerance
        )
        message = "" if check.ok or not item.numeric_input else check.error
        fields.append("numeric_input")
    else:
        item.text = text
        fields.append("text")
    if item.question.kind != Kind.CODING:
        item.confidence = _confidence(confidence)
        fields.append("confidence")
    item.save(update_fields=fields)
    return message


@transaction.atomic
def submit_code(item, code, now=None):
    """Grade a coding answer through the normal pipeline as practice: the learner's own
    work, on their submissions pages and the leaderboards like any practice grading.
    ValidationError for bad code, too many submissions queued or too quick a rate."""
    ensure_open(item.interview, now)
    if item.exercise_version is None:
        raise MockInterviewError("That question does not take code.")
    user = item.interview.user
    if not is_verified(user):
        raise MockInterviewError("Verify your e-mail address before submitting code: your profile page sends the link.")
    if item.exercise_version.target == "gpu" and not gpu_worker_online():
        raise MockInterviewError(no_gpu_worker_message())
    check_submission_rate(user)
    submission = create_submission(user, item.exercise_version, code, purpose=Purpose.PRACTICE)
    item.submissions.add(submission)
    item.text = submission.code
    item.save(update_fields=["text", "updated_at"])
    return submission


def mark_concept(item, checked_points):
    """The learner's self-marking of a concept answer against the rubric, once the interview is over."""
    finalise_if_expired(item.interview)
    if not item.interview.is_finished:
        raise MockInterviewError("Mark your answers once the mock interview is over.")
    if item.attempt is None or item.question.kind != Kind.CONCEPT:
        raise MockInterviewError("Only a written concept answer is marked against the rubric.")
    try:
        indexes = [int(index) for index in checked_points]
    except (TypeError, ValueError):
        raise MockInterviewError("Rubric points are given by number.") from None
    return score_concept_attempt(item.attempt, indexes)


def open_item_with_question(user, slug, now=None):
    """The item of `user`'s running mock interview (before its deadline, not finished) that holds
    the question `slug`, or None."""
    running = MockItem.objects.filter(
        interview__user=user, interview__finished_at__isnull=True, interview__deadline__gt=now or timezone.now()
    )
    return running.select_related("interview").filter(question__slug=slug).first()


def user_interviews(user):
    return MockInterview.objects.filter(user=user).prefetch_related("items__question")


def own_interview(user, pk):
    """The user's own interview `pk`, or None: nobody else's is ever shown."""
    return MockInterview.objects.filter(user=user, pk=pk).first()
