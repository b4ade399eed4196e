"""One candidate's report as plain JSON data, built once for the two places it leaves
Hotpath: the body of the team API's sitting report (GET /api/v1/team/sittings/<id>/,
whose OpenAPI schema is api.team_serializers.SittingReportSerializer) and the
`full_report` of the sitting.graded webhook (teams.webhooks.graded_payload).

The data is what teams.reports says of the sitting, read as the team's report page reads
it: scores per question, each coding answer's speed figures ranked among the assessment's
candidates (ranks shared where 95% intervals overlap, answers not faster than the
reference unranked), the integrity timeline (teams.services.integrity.timeline: every
signal but the code snapshots, with the quick checks and submissions) and the copy flags
that involve the sitting (reports.sitting_similarity). It holds no code: playback and the
matching regions stay on the report page.

Values are JSON's own types (str, int, float, bool, None, lists and dicts), keys in the
schema's order; times are ISO 8601 in the site's time zone with UTC written "Z", as the
API writes every time."""

from django.utils import timezone

from submissions.states import Speed

from . import reports
from .services import integrity
from .similarity import Source

#: The coding speed words a report gives; any other (no accepted answer yet) is null.
SPEED_WORDS = (Speed.FASTER, Speed.NOT_FASTER, Speed.STARTER)


def sitting_report(session):
    """The report of one sitting (a CandidateSession) among every sitting of its assessment,
    which its speed ranks and copy flags are read against."""
    everyone = reports.assessment_reports(session.assessment)
    report = next(report for report in everyone if report.session.pk == session.pk)
    return report_payload(report, reports.sitting_similarity(session, everyone))


def report_payload(report, flags):
    """A teams.reports.CandidateReport with its copy flags (teams.similarity flags that
    have its sitting on one side) as the team API's report body."""
    session = report.session
    return {
        "id": session.pk,
        "assessment": session.assessment_id,
        "candidate_email": str(session.invitation.email),
        "started_at": _time(session.started_at),
        "deadline": _time(session.deadline),
        "finished_at": _time(session.finished_at),
        "finish_reason": str(session.finish_reason),
        "minutes_used": float(report.minutes_used),
        "score": float(report.score),
        "pending": int(report.pending_count),
        "results": [_result(result) for result in report.results],
        "integrity_signals": [_signal(entry) for entry in integrity.timeline(session)],
        "similarity_flags": [_flag(flag, session) for flag in flags],
    }


def _time(moment):
    if moment is None:
        return None
    text = timezone.localtime(moment).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def _float(value):
    return None if value is None else float(value)


def _result(result):
    question = result.question
    return {
        "number": int(result.item.number),
        "question": {
            "slug": str(question.slug),
            "title": str(question.title),
            "kind": str(question.kind),
            "points": int(question.points),
        },
        "status": str(result.status_label),
        "score": _float(result.score),
        "coding": _coding(result) if result.item.is_coding else None,
    }


def _coding(result):
    best = result.best_submission
    rank = result.speed_rank
    return {
        "verdict": str(best.verdict) if best else None,
        "speed": str(result.speed) if result.speed in SPEED_WORDS else None,
        "speedup": _float(best.speedup) if best else None,
        "speedup_ci_low": _float(best.speedup_ci_low) if best else None,
        "speedup_ci_high": _float(best.speedup_ci_high) if best else None,
        "speed_rank": {"number": int(rank.number), "tied": bool(rank.tied), "label": str(rank.label)} if rank else None,
        "memory_vs_reference": _float(result.memory_ratio),
        "submissions": len(result.submissions),
    }


def _signal(entry):
    return {
        "seconds": int(entry.seconds),
        "kind": str(entry.kind),
        "label": str(entry.label),
        "question": entry.question,
        "detail": str(entry.detail),
    }


def _flag(flag, session):
    other = flag.second if flag.first == session else flag.first
    if isinstance(other, Source):
        return {
            "question": int(flag.item.number),
            "score": float(flag.score),
            "other_sitting": None,
            "other": other.label,
        }
    return {
        "question": int(flag.item.number),
        "score": float(flag.score),
        "other_sitting": other.pk,
        "other": f"{other.invitation.email}'s answer in this assessment",
    }
