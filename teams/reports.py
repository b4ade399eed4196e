"""Reports for hiring teams: per candidate, per question, across candidates.

Scores are 0..1 per question, weighted by the question's difficulty points in
the total:
- numeric: 1 when the saved value is within tolerance (checked on save);
- concept: the share of rubric points a reviewer ticked (pending until reviewed;
  an empty answer scores 0 without review);
- coding: an accepted submission scores coding_score: speed_score(its speedup, the
  item's target speedup) when it counts as faster than the reference (submissions.speed:
  its 95% interval wholly above 1); correctness credit only when it does not (scored
  as if at exactly the reference's speed: half marks with a target, full marks
  without one, whose rule is "whatever its speed"); nothing for the exercise's
  starter code submitted unchanged. The best accepted program counts (pending while
  one is grading); 0 with none. A program submitted more than once counts by the
  median of its gradings (submissions.same_code.middle_grading), so resubmitting the same
  code cannot fish for a lucky figure. Only full gradings are submissions here: the
  candidate's quick checks are listed apart (ItemResult.checks) and never scored.
The coding figures shown (speedup and its CI, peak memory) come from that
submission, else the last one. Across candidates (assessment_reports), each coding
question ranks the candidates whose counted answer is faster, and those whose
intervals overlap share a rank (submissions.speed.shared_ranks).
"""

import csv
import difflib
import math
from dataclasses import dataclass, field
from functools import cached_property

from questions.models import Kind
from submissions import speed
from submissions.models import Purpose, Submission
from submissions.same_code import by_program, middle_grading
from submissions.states import Speed, Verdict

from .models import Answer, SessionSubmission, SittingKind
from .services import finalise_if_expired
from .similarity import Source, item_flags
from .spreadsheets import safe_cell as _cell


@dataclass
class TimelineEntry:
    submission: object
    diff_lines: list  # [(css class, line)] from the previous submission; empty for the first


@dataclass
class ItemResult:
    """One question of a sitting. Its submissions are fixed when it is made, so the
    figures read off them (which parse every accepted answer's code) are kept."""

    item: object
    answer: Answer | None = None
    submissions: list = field(default_factory=list)  # full gradings only: what is scored
    checks: list = field(default_factory=list)  # quick checks in the sitting: shown, never scored
    score: float | None = None  # None: pending (review or grading)
    starters: frozenset = frozenset()  # fingerprints of the exercise's starter code (submissions.speed)
    speed_rank: speed.Rank | None = None  # among the candidates whose answer is faster (assessment_reports)

    @property
    def question(self):
        return self.item.question

    @property
    def kind(self):
        return self.item.question.kind

    @cached_property
    def accepted_programs(self):
        """The accepted submissions, grouped by program (submissions.same_code)."""
        return by_program([s for s in self.submissions if s.verdict == Verdict.ACCEPTED])

    @cached_property
    def counted_submissions(self):
        """The accepted submissions that count: one per program, its median grading."""
        return [middle_grading(group, _speed_order) for group in self.accepted_programs]

    def speed_of(self, submission):
        """The submissions.states.Speed word of an accepted submission (None for any other)."""
        return speed.submission_speed(submission, self.starters)

    def credit(self, submission):
        """coding_score of one accepted submission on this item."""
        return coding_score(self.speed_of(submission), submission.speedup, self.item.target_speedup)

    @cached_property
    def best_submission(self):
        """The counted submission that scores best (then the faster, then the later), else the last one."""
        counted = self.counted_submissions
        if counted:
            return max(counted, key=lambda submission: (self.credit(submission), *_speed_order(submission)))
        return self.submissions[-1] if self.submissions else None

    @cached_property
    def speed(self):
        """The best submission's Speed word: faster, not faster, or the starter; None if not accepted."""
        best = self.best_submission
        return self.speed_of(best) if best is not None else None

    @cached_property
    def best_program_gradings(self):
        """Every accepted grading of the best submission's program, when there are
        several (the figure shown is their median); else an empty list."""
        best = self.best_submission
        same = next((group for group in self.accepted_programs if best in group), [])
        return same if len(same) > 1 else []

    @property
    def last_submission(self):
        return self.submissions[-1] if self.submissions else None

    @property
    def memory_ratio(self):
        best = self.best_submission
        if best and best.peak_memory_bytes and best.reference_peak_memory_bytes:
            return best.peak_memory_bytes / best.reference_peak_memory_bytes
        return None

    @property
    def is_pending(self):
        return self.score is None

    @property
    def status_label(self):
        if self.kind == Kind.CODING:
            best = self.best_submission
            if best is None:
                return "No submission"
            if not best.is_final:
                return "Grading"
            if self.speed in (Speed.NOT_FASTER, Speed.STARTER):
                return Speed.LABELS[self.speed]
            return best.verdict_label
        if self.answer is None or not (self.answer.text.strip() or self.answer.numeric_input):
            return "No answer"
        if self.kind == Kind.NUMERIC:
            return {True: "Correct", False: "Incorrect", None: "Unreadable"}[self.answer.numeric_correct]
        return "Reviewed" if self.answer.reviewed_at else "Awaiting review"

    def timeline(self):
        entries = []
        previous = None
        for submission in self.submissions:
            entries.append(TimelineEntry(submission, code_diff(previous.code, submission.code) if previous else []))
            previous = submission
        return entries


def _speed_order(submission):
    """Faster first when sorted in reverse: the speedup, then the later submission."""
    return (submission.speedup or 0.0, submission.created_at)


def speed_score(speedup, target):
    """0.5..1 for an accepted answer: 1 at or above `target` (times faster than the
    reference), 0.5 at or below 1x, and in between on a log scale, so each doubling
    of speed earns the same. With no target, any accepted answer earns 1."""
    if not target or target <= 1:
        return 1.0
    if not speedup or speedup <= 1:
        return 0.5
    return 0.5 + 0.5 * min(math.log(speedup) / math.log(target), 1.0)


def coding_score(speed_word, speedup, target):
    """An accepted answer's score from its submissions.states.Speed word: speed_score when it
    is faster than the reference; correctness credit only when it is not (scored as at
    the reference's own speed); 0 for the starter code submitted unchanged."""
    if speed_word == Speed.STARTER:
        return 0.0
    if speed_word == Speed.NOT_FASTER:
        return speed_score(speed.REFERENCE_SPEED, target)
    return speed_score(speedup, target)


def _score(result):
    if result.kind == Kind.CODING:
        if result.counted_submissions:
            return result.credit(result.best_submission)
        if any(not s.is_final for s in result.submissions):
            return None
        return 0.0
    answer = result.answer
    if result.kind == Kind.NUMERIC:
        return 1.0 if answer is not None and answer.numeric_correct else 0.0
    if answer is None or not answer.text.strip():
        return 0.0
    if answer.reviewed_at is None:
        return None
    rubric = result.question.rubric
    return len(answer.rubric_checked) / len(rubric) if rubric else 0.0


@dataclass
class CandidateReport:
    session: object
    results: list

    @property
    def total_points(self):
        return sum(result.question.points for result in self.results)

    @property
    def score(self):
        """0..1, weighted by difficulty points; pending items count as 0 until scored."""
        if not self.total_points:
            return 0.0
        return sum((result.score or 0.0) * result.question.points for result in self.results) / self.total_points

    @property
    def pending_count(self):
        return sum(1 for result in self.results if result.is_pending)

    @property
    def time_used(self):
        return self.session.time_used()

    @property
    def minutes_used(self):
        """time_used in minutes, to 0.1."""
        return round(self.time_used.total_seconds() / 60, 1)


def code_diff(before, after):
    """Unified diff lines tagged for display; the template escapes every line."""
    lines = difflib.unified_diff(before.splitlines(), after.splitlines(), "previous", "this", lineterm="", n=2)
    tagged = []
    for line in lines:
        if line.startswith(("---", "+++")):
            css = "diff-file"
        elif line.startswith("@@"):
            css = "diff-hunk"
        elif line.startswith("+"):
            css = "diff-add"
        elif line.startswith("-"):
            css = "diff-del"
        else:
            css = "diff-context"
        tagged.append((css, line))
    return tagged


def candidate_report(session):
    finalise_if_expired(session)
    items = list(session.assessment.items.select_related("question", "exercise_version"))
    answers = {answer.item_id: answer for answer in session.answers.all()}
    submissions, checks = {}, {}
    for link in (
        SessionSubmission.objects.filter(session=session)
        .select_related("submission")
        .order_by("submission__created_at", "submission__pk")
    ):
        graded = link.submission.purpose == Purpose.ASSESSMENT
        (submissions if graded else checks).setdefault(link.item_id, []).append(link.submission)
    starters = speed.starter_programs(item.question_id for item in items if item.is_coding)
    results = []
    for item in items:
        result = ItemResult(
            item=item,
            answer=answers.get(item.pk),
            submissions=submissions.get(item.pk, []),
            checks=checks.get(item.pk, []),
            starters=starters.get(item.question_id, frozenset()),
        )
        result.score = _score(result)
        results.append(result)
    return CandidateReport(session=session, results=results)


def assessment_reports(assessment):
    """Every candidate's report, by start; each coding result carries its speed_rank."""
    sessions = assessment.sessions.select_related("invitation", "candidate", "assessment").order_by("started_at")
    reports = [candidate_report(session) for session in sessions]
    rank_speeds(reports)
    return reports


def rank_speeds(reports):
    """Set speed_rank on each coding result whose best answer is faster than the reference:
    per question, the candidates by that answer's speedup (then the earlier), those whose
    95% intervals overlap sharing a rank (submissions.speed.shared_ranks). Answers that are not
    faster, and the starter, are not ranked: their label says why."""
    by_item = {}
    for report in reports:
        for result in report.results:
            if result.kind == Kind.CODING and result.speed == Speed.FASTER:
                by_item.setdefault(result.item.pk, []).append(result)
    for results in by_item.values():
        results.sort(key=lambda result: (-result.best_submission.speedup, result.best_submission.created_at))
        intervals = [
            speed.interval(s.speedup, s.speedup_ci_low, s.speedup_ci_high) for s in (r.best_submission for r in results)
        ]
        for result, rank in zip(results, speed.shared_ranks(intervals)):
            result.speed_rank = rank


def assessment_similarity(assessment, reports):
    """Copy flags per coding question (teams.similarity): each candidate's last graded code
    against the other candidates', the exercise's model solution, accepted public practice
    answers to it, and the last code of the organisation's other sittings on it."""
    candidates_by_item = {}
    for report in reports:
        for result in report.results:
            if result.kind == Kind.CODING and result.last_submission:
                candidates_by_item.setdefault(result.item, {})[report.session] = result.last_submission.code
    flags = []
    for item, candidates in candidates_by_item.items():
        version = item.exercise_version
        flags += item_flags(
            item,
            candidates,
            _similarity_sources(item, assessment),
            starter=version.starter_code if version else "",
            solution=version.solution_code if version else "",
            author_of=lambda session: session.candidate_id,
        )
    return sorted(flags, key=lambda flag: -flag.score)


def sitting_similarity(session, reports):
    """The copy flags of `assessment_similarity` with `session` on either side; `reports` are
    every report of the session's assessment (the other candidates are compared too)."""
    return [flag for flag in assessment_similarity(session.assessment, reports) if session in (flag.first, flag.second)]


def _similarity_sources(item, assessment):
    """What the item's answers are compared with beside each other (teams.similarity.Source)."""
    sources = []
    if item.exercise_version:
        sources.append(Source("solution", "the exercise's model solution", item.exercise_version.solution_code))
    practice = (
        Submission.objects.filter(exercise__question=item.question, purpose=Purpose.PRACTICE, verdict=Verdict.ACCEPTED)
        .order_by("created_at")
        .only("pk", "code", "program", "user_id")
    )
    for answer in {(a.user_id, a.program): a for a in practice}.values():  # one per person and program
        sources.append(Source("practice", f"public practice answer #{answer.pk}", answer.code, author=answer.user_id))
    links = (
        SessionSubmission.objects.filter(
            item__question=item.question,
            session__assessment__organisation_id=assessment.organisation_id,
            submission__purpose=Purpose.ASSESSMENT,
            session__kind=SittingKind.REAL,
        )
        .exclude(session__assessment=assessment)
        .select_related("submission", "session__invitation", "session__assessment")
    )
    last = {link.session_id: link for link in links.order_by("submission__created_at", "submission__pk")}
    for link in last.values():
        session = link.session
        label = f"{session.invitation.email} in “{session.assessment.title}”"
        sources.append(Source("sitting", label, link.submission.code, session=session, author=session.candidate_id))
    return sources


def _format_score(score):
    return "" if score is None else f"{score:.2f}"


def write_csv(assessment, reports, stream):
    items = list(assessment.items.select_related("question"))
    writer = csv.writer(stream)
    header = ["email", "started_at", "finished_at", "finish_reason", "minutes_used", "score", "pending"]
    for item in items:
        header.append(f"q{item.number} {item.question.slug} score")
        if item.is_coding:
            header += [f"q{item.number} verdict", f"q{item.number} speedup", f"q{item.number} memory_vs_reference"]
    writer.writerow([_cell(h) for h in header])
    for report in reports:
        session = report.session
        row = [
            session.invitation.email,
            session.started_at.isoformat(),
            session.finished_at.isoformat() if session.finished_at else "",
            session.finish_reason,
            f"{report.time_used.total_seconds() / 60:.1f}",
            f"{report.score:.3f}",
            report.pending_count,
        ]
        for result in report.results:
            row.append(_format_score(result.score))
            if result.item.is_coding:
                best = result.best_submission
                row += [
                    best.verdict if best else "",
                    f"{best.speedup:.3f}" if best and best.speedup is not None else "",
                    f"{result.memory_ratio:.3f}" if result.memory_ratio is not None else "",
                ]
        writer.writerow([_cell(value) for value in row])
