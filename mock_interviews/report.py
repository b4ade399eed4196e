"""A finished mock interview's report: a score per question, the coding answers' speed
figures read by the rule the rest of the site uses (submissions.speed), calibration
(questions.services.calibration over the interview's answers) and what to practise next.

Scores (0..1):
- concept: rubric points ticked / rubric points (the learner's self-marking; None until marked);
- numeric: 1 within tolerance, else 0;
- coding: from the last accepted full grading (the learner's final answer, not the
  luckiest of several): 1 when it counts as faster than the reference, 0.5 when it is
  correct but not distinguishably faster, 0 for the starter code unchanged or no accepted
  answer; None while a grading is still running.
An unanswered question scores 0."""

from dataclasses import dataclass

from questions.models import Attempt, Kind, Question, Track
from questions.services.calibration import Calibration, calibration
from submissions import practice as coding_practice
from submissions.speed import submission_speed
from submissions.states import Speed, Status, Verdict

from .models import MockItem

SPEED_SCORES = {Speed.FASTER: 1.0, Speed.NOT_FASTER: 0.5, Speed.STARTER: 0.0}
#: A topic whose mean score is below this is one to practise.
WEAK_TOPIC_SCORE = 0.75
#: A concept or numeric attempt counts as solved from this score, as on the track pages
#: (practice.tracks.SOLVED_SCORE: that app sits on a layer this one cannot import).
SOLVED_SCORE = 0.5
MAX_TRACK_SUGGESTIONS = 3


@dataclass(frozen=True)
class ItemResult:
    item: MockItem
    score: float | None  # 0..1; None while it waits for self-marking or a grading
    answered: bool
    grading: bool = False  # a submission is still queued or running
    submission: object = None  # the coding answer that counts (the last accepted full grading)
    speed: str | None = None  # its submissions.states.Speed word

    @property
    def question(self):
        return self.item.question

    @property
    def needs_marking(self):
        return self.item.attempt is not None and self.question.kind == Kind.CONCEPT and self.item.attempt.score is None


@dataclass(frozen=True)
class TopicScore:
    topic: str
    score: float


@dataclass(frozen=True)
class TrackStep:
    track: Track
    question: Question  # the track's first question the learner has not solved


@dataclass(frozen=True)
class Report:
    results: list
    calibration: Calibration
    weak_topics: list  # TopicScore, weakest first
    next_track_items: list  # TrackStep: the first unsolved question of a track, worth practising next

    @property
    def scored(self):
        return [result for result in self.results if result.score is not None]

    @property
    def total(self):
        """Points scored out of the questions, counting only the scored ones."""
        return sum(result.score for result in self.scored)

    @property
    def pending(self):
        return len(self.results) - len(self.scored)


def _coding_result(item):
    submissions = list(item.submissions.select_related("exercise").order_by("created_at", "pk"))
    grading = any(submission.status in Status.ACTIVE for submission in submissions)
    accepted = [s for s in submissions if s.verdict == Verdict.ACCEPTED]
    if not accepted:
        return ItemResult(item, None if grading else 0.0, bool(submissions), grading=grading)
    final = accepted[-1]
    word = submission_speed(final)
    score = SPEED_SCORES[word] if word is not None else 1.0  # accepted with no timing at all: correctness only
    return ItemResult(item, score, True, grading=grading, submission=final, speed=word)


def item_result(item):
    if item.question.kind == Kind.CODING:
        return _coding_result(item)
    attempt = item.attempt
    if attempt is None:
        return ItemResult(item, 0.0, False)
    return ItemResult(item, attempt.score, True)


def _weak_topics(results):
    by_topic = {}
    for result in results:
        if result.score is not None:
            by_topic.setdefault(result.question.topic, []).append(result.score)
    means = [TopicScore(topic, sum(scores) / len(scores)) for topic, scores in by_topic.items()]
    return sorted((t for t in means if t.score < WEAK_TOPIC_SCORE), key=lambda t: (t.score, t.topic))


def _solved_question_ids(user):
    answered = Attempt.objects.filter(user=user, score__gte=SOLVED_SCORE).exclude(question__kind=Kind.CODING)
    return set(answered.values_list("question_id", flat=True)) | set(coding_practice.accepted_question_ids(user))


def _next_track_items(user, weak_topics):
    """Each track's first unsolved question, those in a weak topic first (else any), in the bank's order."""
    solved = _solved_question_ids(user)
    tracks = list(Track.objects.all())
    questions = {
        q.slug: q
        for q in Question.objects.public()
        .live()
        .filter(slug__in={slug for track in tracks for slug in track.question_slugs})
    }
    steps = []
    for track in tracks:
        live = [questions[slug] for slug in track.question_slugs if slug in questions]
        unsolved = [question for question in live if question.pk not in solved]
        if unsolved:
            steps.append(TrackStep(track, unsolved[0]))
    weak = {topic.topic for topic in weak_topics}
    in_weak = [step for step in steps if step.question.topic in weak]
    return (in_weak or steps)[:MAX_TRACK_SUGGESTIONS]


def interview_report(interview):
    """The Report of a finished interview (interview.is_finished)."""
    items = interview.items.select_related("question", "exercise_version", "attempt")
    results = [item_result(item) for item in items]
    pairs = [(r.item.attempt.confidence, r.item.attempt.score) for r in results if r.item.attempt is not None]
    weak = _weak_topics(results)
    return Report(
        results=results,
        calibration=calibration(pairs),
        weak_topics=weak,
        next_track_items=_next_track_items(interview.user, weak),
    )


def history_row_score(interview):
    """(points, questions) of a finished interview for the history page, unscored ones left out."""
    report_results = [item_result(item) for item in interview.items.select_related("question", "attempt")]
    scored = [result.score for result in report_results if result.score is not None]
    return sum(scored), len(report_results)
