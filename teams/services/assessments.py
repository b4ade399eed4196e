"""Building an assessment: its questions, their order, publishing."""

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from questions.models import Kind

from ..models import AssessmentItem, AuditAction
from . import audit
from .errors import TeamsError


@transaction.atomic
def create_assessment(assessment, organisation, actor):
    """Save a new, unsaved `assessment` (e.g. an AssessmentForm's `save(commit=False)`) in
    `organisation`, made by `actor` (a user or an organisation token)."""
    assessment.organisation = organisation
    assessment.created_by = audit.actor_user(actor)
    assessment.save()
    audit.record(organisation, actor, AuditAction.ASSESSMENT_CREATED, assessment)
    return assessment


@transaction.atomic
def save_assessment(assessment, changed, actor):
    """Save `assessment`'s edited fields; `changed` names them (a form's `changed_data`)."""
    assessment.save()
    audit.record(assessment.organisation, actor, AuditAction.ASSESSMENT_EDITED, assessment, detail=", ".join(changed))
    return assessment


def _require_draft(assessment):
    if assessment.is_published:
        raise TeamsError("This assessment is published: its questions can no longer change.")


@transaction.atomic
def add_question(assessment, question, target_speedup=None):
    _require_draft(assessment)
    if question.is_retired:
        raise TeamsError(f"“{question}” is retired and cannot be added.")
    if question.kind == Kind.CODING and question.current_exercise() is None:
        raise TeamsError(f"“{question}” has no exercise version yet.")
    if assessment.items.filter(question=question).exists():
        raise TeamsError(f"“{question}” is already in this assessment.")
    last = assessment.items.aggregate(last=Max("position"))["last"]
    return AssessmentItem.objects.create(
        assessment=assessment,
        question=question,
        position=0 if last is None else last + 1,
        target_speedup=target_speedup if question.kind == Kind.CODING else None,
    )


def _renumber(assessment):
    for position, item in enumerate(assessment.items.order_by("position", "pk")):
        if item.position != position:
            AssessmentItem.objects.filter(pk=item.pk).update(position=position)


@transaction.atomic
def remove_item(item):
    _require_draft(item.assessment)
    assessment = item.assessment
    item.delete()
    _renumber(assessment)


@transaction.atomic
def move_item(item, offset):
    """Swap `item` with its neighbour `offset` places away (-1 up, +1 down)."""
    _require_draft(item.assessment)
    neighbour = item.assessment.items.filter(position=item.position + offset).first()
    if neighbour is None:
        return
    item.position, neighbour.position = neighbour.position, item.position
    AssessmentItem.objects.filter(pk=item.pk).update(position=item.position)
    AssessmentItem.objects.filter(pk=neighbour.pk).update(position=neighbour.position)


@transaction.atomic
def publish_assessment(assessment, actor):
    """Freeze the questions and pin each coding question to its current version."""
    _require_draft(assessment)
    items = list(assessment.items.select_related("question"))
    if not items:
        raise TeamsError("Add at least one question before publishing.")
    if assessment.closes_at <= timezone.now():
        raise TeamsError("The availability window has already closed: move “Closes at” into the future first.")
    for item in items:
        if item.is_coding:
            version = item.question.current_exercise()
            if version is None:
                raise TeamsError(f"“{item.question}” has no exercise version to pin.")
            item.exercise_version = version
            item.save(update_fields=["exercise_version"])
    assessment.published_at = timezone.now()
    assessment.save(update_fields=["published_at"])
    audit.record(assessment.organisation, actor, AuditAction.ASSESSMENT_PUBLISHED, assessment)
    return assessment
