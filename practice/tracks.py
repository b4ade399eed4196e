"""Tracks and each person's progress along them: concept and numeric attempts from
questions, coding practice from submissions."""

from dataclasses import dataclass

from questions.models import Attempt, Kind, Question, Track
from submissions import practice as coding_practice

#: An attempt at a concept or numeric question counts as solved from this score (0..1):
#: a numeric answer within tolerance, or at least half of a concept rubric ticked.
SOLVED_SCORE = 0.5


@dataclass(frozen=True)
class TrackItem:
    question: Question
    practised: bool
    #: Accepted (coding), answered within tolerance (numeric) or half the rubric covered (concept).
    solved: bool


@dataclass(frozen=True)
class TrackProgress:
    track: Track
    items: list
    prerequisites: list
    #: The first item not yet solved, or None when the track is done.
    next_item: TrackItem | None

    @property
    def solved_count(self):
        return sum(item.solved for item in self.items)

    @property
    def practised_count(self):
        return sum(item.practised for item in self.items)


def all_tracks(user):
    """Every track with `user`'s progress (none for an anonymous visitor), in the bank's order."""
    done = _user_progress(user)
    tracks = list(Track.objects.all())
    names = {track.slug: track for track in tracks}
    questions = _live_questions({slug for track in tracks for slug in track.question_slugs})
    return [_progress(track, names, questions, done) for track in tracks]


def track_progress(slug, user):
    """The track called `slug` with `user`'s progress, or None when there is no such track."""
    return next((progress for progress in all_tracks(user) if progress.track.slug == slug), None)


def _live_questions(slugs):
    return {question.slug: question for question in Question.objects.public().live().filter(slug__in=slugs)}


def _user_progress(user):
    """(practised ids, solved ids) for `user`; empty sets for an anonymous visitor."""
    if not user.is_authenticated:
        return set(), set()
    attempts = Attempt.objects.filter(user=user)
    practised = set(attempts.values_list("question_id", flat=True)) | set(coding_practice.practised_question_ids(user))
    answered = attempts.filter(score__gte=SOLVED_SCORE).exclude(question__kind=Kind.CODING)
    solved = set(answered.values_list("question_id", flat=True))
    return practised, solved | set(coding_practice.accepted_question_ids(user))


def _progress(track, tracks_by_slug, questions, done):
    practised, solved = done
    # A question retired since the bank was loaded drops out.
    members = [questions[slug] for slug in track.question_slugs if slug in questions]
    items = [TrackItem(question=q, practised=q.pk in practised, solved=q.pk in solved) for q in members]
    prerequisites = [tracks_by_slug[slug] for slug in track.prerequisites if slug in tracks_by_slug]
    next_item = next((item for item in items if not item.solved), None)
    return TrackProgress(track=track, items=items, prerequisites=prerequisites, next_item=next_item)
