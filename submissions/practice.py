"""Submissions as practice: which count, and the queries the practice app's pages
(practice/) count and list them with."""

from django.db.models import Count, Q

from questions.models import Question

from .models import SITTING_PURPOSES, Purpose, Submission
from .states import Verdict

#: Author validation runs are not practice.
PRACTICE_PURPOSES = (Purpose.PRACTICE, Purpose.QUICK_CHECK, Purpose.ASSESSMENT)


def users_annotation():
    """Distinct users who submitted practice on any version of each question (a Question queryset)."""
    return Count(
        "exercise_versions__submissions__user",
        filter=Q(exercise_versions__submissions__purpose__in=PRACTICE_PURPOSES),
        distinct=True,
    )


def practised_question_ids(user):
    return Submission.objects.filter(user=user, purpose__in=PRACTICE_PURPOSES).values_list(
        "exercise__question_id", flat=True
    )


def accepted_question_ids(user):
    """Questions the user solved in practice: an accepted full grading made outside any
    assessment sitting. A quick check (small inputs, correctness only) does not count."""
    return Submission.objects.filter(user=user, purpose=Purpose.PRACTICE, verdict=Verdict.ACCEPTED).values_list(
        "exercise__question_id", flat=True
    )


def recent_practice(user, limit):
    return (
        Submission.objects.filter(
            user=user, purpose__in=PRACTICE_PURPOSES, exercise__question__in=Question.objects.public()
        )
        .exclude(purpose__in=SITTING_PURPOSES)  # shown on the sitting's pages, as its owner allows
        .select_related("exercise__question")
        .order_by("-created_at")[:limit]
    )
