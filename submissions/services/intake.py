"""Taking a submission in: the code checked, the learner's rate and queue cap
enforced, the row created and queued once the transaction commits."""

import json

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest
from django_ratelimit.core import is_ratelimited

from accounts.verification import is_verified, where_mail_arrives
from grader.harness import input_rules as custom_inputs
from grader.harness.input_rules import parameter_names
from questions.models import Question
from questions.text import unix_newlines

from ..models import CHECK_PURPOSES, Purpose, Submission
from ..states import Status, Verdict
from . import gpu_workers, queueing

WEB_PURPOSES = (Purpose.PRACTICE, Purpose.QUICK_CHECK)


def clean_code(code):
    """The submitted code as text, or ValidationError with a message for the learner."""
    if isinstance(code, (bytes, bytearray)):
        try:
            code = bytes(code).decode("utf-8")
        except UnicodeDecodeError:
            raise ValidationError(
                "Your code is not valid UTF-8 text; save it as UTF-8 and submit again.", code="not_utf8"
            ) from None
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
        raise ValidationError(
            "Your code is not valid UTF-8 text; save it as UTF-8 and submit again.", code="not_utf8"
        ) from None
    if not code.strip():
        raise ValidationError("Your code is empty.", code="empty")
    # Browsers send textarea content with CRLF line endings; store what the learner typed.
    return unix_newlines(code)


def active_submission_count(user):
    return Submission.objects.filter(user=user, status__in=Status.ACTIVE).count()


def clean_custom_input(exercise_version, raw):
    """The learner's own input for a quick check, in its one form (grader/harness/custom_input.py:
    a size at most the exercise's largest quick-check size, a seed, or one literal value per
    parameter of the entry point), or ValidationError(code="bad_input") saying what is wrong.
    The judge checks it again, and checks literal values against the exercise's argument types."""
    spec = exercise_version.spec
    arity = len(parameter_names(exercise_version.reference_code, spec["entry_point"])) or None
    try:
        return custom_inputs.clean(raw, max(custom_inputs.quick_check_sizes(spec)), arity)
    except custom_inputs.Refused as exc:
        raise ValidationError(str(exc), code="bad_input") from None


def custom_input_from_form(size, seed, args):
    """The exercise page's "Run my input" fields (text, each possibly blank) as a custom input
    for clean_custom_input: whole numbers for the size and seed, JSON for the arguments."""
    size, seed, args = (str(value or "").strip() for value in (size, seed, args))
    if args:
        if size or seed:
            raise ValidationError("Give either a size and seed or arguments, not both.", code="bad_input")
        try:
            values = json.loads(args, parse_constant=_refuse_constant)
        except ValueError as exc:
            raise ValidationError(
                f"The arguments are not valid JSON ({exc}). Give a list with one value per argument, "
                'for example [[1.5, 2.0], 3]; spell NaN and infinities "nan", "inf", "-inf".',
                code="bad_input",
            ) from None
        return {"args": values}
    raw = {}
    for name, text in (("size", size), ("seed", seed)):
        if text:
            if not (text.isascii() and text.isdigit()):
                raise ValidationError(f"The {name} must be a whole number, 0 or more.", code="bad_input")
            raw[name] = int(text)
    return raw


def _refuse_constant(name):
    raise ValueError(f'{name} is not JSON: write "{name.lower().replace("infinity", "inf")}" in quotes')


def create_submission(user, exercise_version, code, purpose=Purpose.PRACTICE, custom_input=None):
    """Validate, save and queue a submission. Raises ValidationError (with a
    message fit for the learner) for bad code, a bad custom input (a quick check's
    only: clean_custom_input) or too much work in flight."""
    code = clean_code(code)
    if custom_input is not None:
        if purpose not in CHECK_PURPOSES:
            raise ValidationError("Your own input is run as a quick check only.", code="bad_input")
        custom_input = clean_custom_input(exercise_version, custom_input)
    limit = settings.SUBMISSION_MAX_QUEUED_PER_USER
    with transaction.atomic():
        active = active_submission_count(user)
        if active >= limit:
            raise ValidationError(
                f"You already have {active} submission(s) waiting to be graded (the limit is {limit}). "
                "Wait for one to finish, then submit again.",
                code="too_many_queued",
            )
        submission = Submission.objects.create(
            user=user, exercise=exercise_version, code=code, purpose=purpose, custom_input=custom_input
        )
        transaction.on_commit(lambda: queueing.enqueue(submission))
    return submission


def check_submission_rate(user):
    """Count one submission against the user's rate (settings.SUBMISSION_RATE) in the
    shared cache; ValidationError(code="rate_limited") once past it. django-ratelimit
    reads its key from a request, so it gets one that carries only the user."""
    request = HttpRequest()
    request.user = user
    if is_ratelimited(request, group="grader.submit", key="user", rate=settings.SUBMISSION_RATE, increment=True):
        raise ValidationError("You are submitting too quickly. Wait a minute, then try again.", code="rate_limited")


def submit_practice(user, exercise_version, code, purpose=Purpose.PRACTICE, custom_input=None):
    """What the web form and the API do for a learner's practice or quick check (on the
    exercise's check sizes, or with `custom_input` on the learner's own input): the rate
    limit, then create_submission's validation, queue cap and fair ordering."""
    if purpose not in WEB_PURPOSES:
        raise ValidationError(f"Unknown purpose {purpose!r}.", code="bad_purpose")
    if not is_verified(user):
        # One person, one account in the queue: the per-user cap and fair ordering count accounts.
        raise ValidationError(
            f"Verify your e-mail address before submitting code: open the link we sent to {user.email or 'you'} "
            f"(your profile page sends a new one). {where_mail_arrives()}".rstrip(),
            code="unverified",
        )
    if exercise_version.target == "gpu" and not gpu_workers.gpu_worker_online():
        raise ValidationError(gpu_workers.no_gpu_worker_message(), code="no_gpu_worker")
    check_submission_rate(user)
    return create_submission(user, exercise_version, code, purpose=purpose, custom_input=custom_input)


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
