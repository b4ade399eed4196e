"""A learner's unsent answer or code for a question, kept between visits."""

from django.conf import settings

from ..models import Draft, Kind
from .answering import MAX_ANSWER_CHARS, checked_length


def draft_limit(question):
    """Characters a draft may hold: a coding draft is code, as long as a submission may be."""
    return settings.SUBMISSION_MAX_BYTES if question.kind == Kind.CODING else MAX_ANSWER_CHARS


def draft_text(user, question):
    if not user.is_authenticated:
        return ""
    return Draft.objects.filter(user=user, question=question).values_list("text", flat=True).first() or ""


def save_draft(user, question, text):
    text = checked_length(text, draft_limit(question))
    draft, _ = Draft.objects.update_or_create(user=user, question=question, defaults={"text": text})
    return draft
