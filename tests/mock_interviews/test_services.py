"""Mock interviews' services: what is drawn, the deadline, the report."""

from datetime import timedelta

import pytest
from django.utils import timezone

from mock_interviews import drawing, sittings
from mock_interviews.models import FinishReason
from mock_interviews.report import interview_report
from questions.models import Attempt, Kind, Track
from submissions.models import Purpose, Submission
from submissions.services.gpu_workers import clear_gpu_heartbeat, record_gpu_heartbeat
from submissions.states import Status, Verdict

from .bank import make_coding, make_concept

pytestmark = pytest.mark.django_db

SQUARES = "def transform(values):\n    return [v * v for v in values]\n"


def kinds_and_slugs(draw):
    return sorted((drawn.question.kind, drawn.question.slug) for drawn in draw.questions)


def test_a_short_interview_holds_one_question_of_each_kind(small_bank, learner):
    draw = drawing.draw(learner, 20)
    assert kinds_and_slugs(draw) == [
        ("coding", "square-values"),
        ("concept", "doubling-table"),
        ("numeric", "gib-in-bytes"),
    ]
    assert draw.note == "" and not any(drawn.seen_before for drawn in draw.questions)
    coding = next(drawn for drawn in draw.questions if drawn.question.kind == Kind.CODING)
    assert coding.exercise_version.number == 1


def test_questions_practised_or_met_in_an_earlier_interview_are_not_drawn(small_bank, learner):
    make_concept("false-sharing")
    make_coding("sum-rows")
    Attempt.objects.create(user=learner, question=small_bank[Kind.CONCEPT], answer_text="x", confidence=3)
    earlier = sittings.start_interview(learner, 20)
    assert {item.question.slug for item in earlier.items.all()} >= {"false-sharing"}
    coding_met = earlier.items.get(question__kind=Kind.CODING).question

    again = drawing.draw(learner, 20)
    drawn = {d.question.kind: d for d in again.questions}
    # Every unseen concept is gone: a seen one is drawn again, with a note.
    assert drawn[Kind.CONCEPT].seen_before and "seen every matching concept question" in again.note
    assert not drawn[Kind.CODING].seen_before and drawn[Kind.CODING].question != coding_met


def test_a_gpu_exercise_is_drawn_only_while_a_gpu_worker_is_online(db, learner):
    make_coding("gpu-saxpy", target="gpu")
    clear_gpu_heartbeat()
    with pytest.raises(drawing.NothingToDraw):
        drawing.draw(learner, 20)
    record_gpu_heartbeat({"gpu": "test"})
    try:
        assert [d.question.slug for d in drawing.draw(learner, 20).questions] == ["gpu-saxpy"]
    finally:
        clear_gpu_heartbeat()


def test_topics_and_level_narrow_the_pool(small_bank, learner):
    make_concept("page-faults", topic="Memory", difficulty="hard")
    draw = drawing.draw(learner, 20, topics=["Memory"], difficulty="hard")
    assert [d.question.slug for d in draw.questions] == ["page-faults"]
    assert "Only 0 of 1 numeric questions" in draw.note


def test_answers_after_the_deadline_are_refused_and_the_interview_closes_at_it(small_bank, learner):
    started = timezone.now() - timedelta(minutes=19)
    interview = sittings.start_interview(learner, 20, now=started)
    numeric = interview.items.get(question__kind=Kind.NUMERIC)
    assert sittings.save_answer(numeric, numeric_input="4 GiB", confidence="4") == ""
    concept = interview.items.get(question__kind=Kind.CONCEPT)
    with pytest.raises(sittings.MockInterviewError, match="limited to 20,000 characters"):
        sittings.save_answer(concept, text="x" * 20_001)  # as practice refuses it: the attempt could not hold it

    late = started + timedelta(minutes=20, seconds=1)
    with pytest.raises(sittings.InterviewClosed, match="Time is up"):
        sittings.save_answer(numeric, numeric_input="1", now=late)
    interview.refresh_from_db()
    assert interview.finish_reason == FinishReason.EXPIRED and interview.finished_at == interview.deadline
    numeric.refresh_from_db()
    # The answer saved in time is kept and scored, as practice scores it.
    assert numeric.numeric_input == "4 GiB" and numeric.attempt.score == 1.0 and numeric.attempt.confidence == 4
    coding = interview.items.get(question__kind=Kind.CODING)
    with pytest.raises(sittings.InterviewClosed):
        sittings.submit_code(coding, "def transform(values):\n    return values\n")


def test_the_report_scores_each_question_and_reads_speed_honestly(small_bank, learner):
    Track.objects.create(slug="basics", name="Basics", position=0, question_slugs=["doubling-table", "gib-in-bytes"])
    interview = sittings.start_interview(learner, 20)
    items = {item.question.kind: item for item in interview.items.select_related("question")}
    sittings.save_answer(items[Kind.CONCEPT], text="Geometric series of copies.", confidence="5")
    sittings.save_answer(items[Kind.NUMERIC], numeric_input="3 bytes", confidence="5")
    submission = sittings.submit_code(items[Kind.CODING], SQUARES)
    assert submission.purpose == Purpose.PRACTICE
    # A worker's verdict, written as the grading writes it: correct, but the interval includes 1.
    Submission.objects.filter(pk=submission.pk).update(
        status=Status.DONE, verdict=Verdict.ACCEPTED, speedup=1.1, speedup_ci_low=0.9, speedup_ci_high=1.3
    )
    with pytest.raises(sittings.MockInterviewError, match="once the mock interview is over"):
        sittings.mark_concept(items[Kind.CONCEPT], ["1"])
    sittings.finish_interview(interview, FinishReason.SUBMITTED)

    report = interview_report(interview)
    scores = {result.question.kind: result.score for result in report.results}
    assert scores == {Kind.CONCEPT: None, Kind.NUMERIC: 0.0, Kind.CODING: 0.5}
    assert report.pending == 1 and report.calibration.count == 1
    coding = next(result for result in report.results if result.question.kind == Kind.CODING)
    assert coding.speed == "not_faster" and coding.submission == submission

    items[Kind.CONCEPT].refresh_from_db()
    sittings.mark_concept(items[Kind.CONCEPT], ["1"])
    report = interview_report(interview)
    assert report.total == 0.5 + 0.5 and report.pending == 0
    assert report.calibration.count == 2 and report.calibration.error == pytest.approx((0.5 + 1.0) / 2)
    assert [topic.topic for topic in report.weak_topics] == [small_bank[Kind.CONCEPT].topic]
    # Half the rubric solves the concept question, as on the track pages; the wrong estimate is next.
    assert [(step.track.slug, step.question.slug) for step in report.next_track_items] == [("basics", "gib-in-bytes")]
