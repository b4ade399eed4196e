"""Team pages (organisations, assessments, reports) and the candidate's pages, a module each:
each module's pages sit behind one access gate. Team views fetch everything through
teams.access.scoped_object_or_404 (views.gates); candidate views through
teams.access.candidate_session_or_404. Business rules live in teams.services; these
functions only translate between HTTP and those. urls.py imports the views from here."""

from .assessments import (
    NO_GPU_WORKER_WARNING,
    add_question,
    assessment,
    candidate_link,
    create_assessment,
    edit_assessment,
    extra_time,
    invite_candidates,
    move_item,
    publish,
    remove_item,
)
from .audit import audit_csv, audit_log
from .candidate import (
    candidate_start,
    done,
    finish,
    practice_start,
    record_signals,
    save_answer,
    submission_status,
    submit_code,
    take,
    take_question,
)
from .integrations import create_api_token, remove_webhook, revoke_api_token, send_webhook_again, webhook_list
from .organisations import create_organisation, index, invite_member, join, organisation, remove_member
from .reports import candidate_report, grade_again, report, report_csv, review_answer, submission_timings

__all__ = [
    "NO_GPU_WORKER_WARNING",
    "add_question",
    "assessment",
    "audit_csv",
    "audit_log",
    "candidate_link",
    "candidate_report",
    "grade_again",
    "candidate_start",
    "create_api_token",
    "create_assessment",
    "create_organisation",
    "done",
    "edit_assessment",
    "extra_time",
    "finish",
    "index",
    "invite_candidates",
    "invite_member",
    "join",
    "move_item",
    "practice_start",
    "organisation",
    "publish",
    "remove_item",
    "record_signals",
    "remove_member",
    "remove_webhook",
    "revoke_api_token",
    "send_webhook_again",
    "webhook_list",
    "report",
    "report_csv",
    "review_answer",
    "save_answer",
    "submission_status",
    "submission_timings",
    "submit_code",
    "take",
    "take_question",
]
