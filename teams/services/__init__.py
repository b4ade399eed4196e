"""What hiring teams and candidates do, as functions the views call: one module a concern
(organisations, assessments, invitations, sittings, the audit log, errors). The names are re-exported here,
so callers write `from teams import services` and `services.start_session`."""

from . import audit
from .assessments import (
    add_question,
    create_assessment,
    move_item,
    publish_assessment,
    remove_item,
    save_assessment,
)
from .errors import SessionClosed, SignInRequired, TeamsError
from .invitations import (
    MAILBOX_PARAMETER,
    MEMBER_INVITATION_LIFETIME,
    accept_member_invitation,
    candidate_account_for,
    candidate_invitation_for_token,
    check_can_start,
    hash_token,
    invite_candidate,
    invite_member,
    member_invitation_for_token,
    renew_candidate_link,
    revoke_candidate_invitation,
)
from .organisations import create_organisation, remove_member
from .sittings import (
    MAX_EXTRA_MINUTES,
    ensure_accepting_answers,
    finalise_expired_sessions,
    finalise_if_expired,
    finish_session,
    grade_again,
    grant_extra_time,
    review_answer,
    save_answer,
    start_session,
    submit_code,
)

__all__ = [
    "MAX_EXTRA_MINUTES",
    "MAILBOX_PARAMETER",
    "MEMBER_INVITATION_LIFETIME",
    "SessionClosed",
    "SignInRequired",
    "TeamsError",
    "accept_member_invitation",
    "add_question",
    "audit",
    "candidate_account_for",
    "candidate_invitation_for_token",
    "check_can_start",
    "create_assessment",
    "create_organisation",
    "ensure_accepting_answers",
    "finalise_expired_sessions",
    "finalise_if_expired",
    "finish_session",
    "grant_extra_time",
    "hash_token",
    "invite_candidate",
    "invite_member",
    "member_invitation_for_token",
    "move_item",
    "publish_assessment",
    "remove_item",
    "remove_member",
    "renew_candidate_link",
    "revoke_candidate_invitation",
    "review_answer",
    "save_answer",
    "save_assessment",
    "start_session",
    "submit_code",
]
