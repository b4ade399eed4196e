"""The organisation's audit log: who did what, when, to which object.

Each service function that performs an audited action calls `record` inside its own
transaction, so an entry exists exactly when the action happened. The actor is a user
or an organisation API token (teams.models.OrganisationToken); `actor_user` names the
person behind either. The owners read the log on /teams/org/<slug>/audit/ and as CSV."""

import csv

from ..models import AuditAction, AuditEntry, OrganisationToken
from ..spreadsheets import safe_cell
from .errors import TeamsError

CSV_HEADER = ["at", "action", "actor", "actor_kind", "target_type", "target_id", "target", "detail"]


def actor_user(actor):
    """The person acting: the user, or the user who made the token (None once they are gone)."""
    return actor.created_by if isinstance(actor, OrganisationToken) else actor


def _actor_fields(actor):
    if isinstance(actor, OrganisationToken):
        label = f"API token {actor.name} ({actor.prefix}…)"
        return {"actor_token": actor, "actor_user": actor.created_by, "actor_label": label}
    if actor is None or not actor.is_authenticated:
        raise ValueError("An audited action needs a signed-in user or an organisation token as its actor.")
    return {"actor_user": actor, "actor_label": actor.get_username()}


def record(organisation, actor, action, target=None, *, target_label=None, detail=""):
    """Append one entry. `target` is the model instance acted on (its type, id and str are
    kept); `target_label` overrides its str, e.g. an address instead of a row's name."""
    if action not in AuditAction.values:
        raise ValueError(f"Unknown audit action {action!r}.")
    label = target_label if target_label is not None else ("" if target is None else str(target))
    return AuditEntry.objects.create(
        organisation=organisation,
        action=action,
        target_type=target._meta.model_name if target is not None else "",
        target_id=target.pk if target is not None else None,
        target_label=label[:300],
        detail=detail[:300],
        **_actor_fields(actor),
    )


def record_report_view(session, actor):
    """A member (team page) or a token (team API) opened one candidate's report."""
    return record(
        session.assessment.organisation,
        actor,
        AuditAction.REPORT_VIEWED,
        session,
        target_label=f"{session.invitation.email} in “{session.assessment.title}”",
    )


def entries(organisation, *, action="", person=""):
    """The organisation's entries, newest first; `action` an AuditAction value, `person` the
    id of the user who acted (directly or through a token they made). Blank means any."""
    rows = AuditEntry.objects.filter(organisation=organisation).select_related("actor_user", "actor_token")
    if action:
        if action not in AuditAction.values:
            raise TeamsError(f"Unknown action {action!r}: choose one from the list.")
        rows = rows.filter(action=action)
    if person:
        try:
            rows = rows.filter(actor_user_id=int(person))
        except ValueError:
            raise TeamsError(f"Unknown person {person!r}: choose one from the list.") from None
    return rows


def people(organisation):
    """(user id, username) of everyone with an entry in the organisation's log, by name."""
    rows = (
        AuditEntry.objects.filter(organisation=organisation, actor_user__isnull=False)
        .values_list("actor_user_id", "actor_user__username")
        .distinct()
        .order_by("actor_user__username")
    )
    return list(rows)


def write_csv(rows, stream):
    writer = csv.writer(stream)
    writer.writerow(CSV_HEADER)
    for entry in rows:
        writer.writerow(
            [
                entry.at.isoformat(),
                entry.action,
                safe_cell(entry.actor_label),
                "token" if entry.actor_token_id else "user",
                entry.target_type,
                "" if entry.target_id is None else entry.target_id,
                safe_cell(entry.target_label),
                safe_cell(entry.detail),
            ]
        )
