"""Lists of a learner's submissions."""

from ..models import SITTING_PURPOSES, Purpose, Submission
from ..states import Verdict


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
