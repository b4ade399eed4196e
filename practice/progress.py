"""The progress page's lists: topics practised, recent attempts and submissions."""

from dataclasses import dataclass

from questions.models import Attempt, Question
from submissions import practice as coding_practice

RECENT_LIMIT = 20


@dataclass(frozen=True)
class TopicCoverage:
    topic: str
    practised: int
    total: int

    @property
    def percent(self):
        return round(100 * self.practised / self.total) if self.total else 0


def practised_question_ids(user):
    attempted = Attempt.objects.filter(user=user).values_list("question_id", flat=True)
    submitted = coding_practice.practised_question_ids(user)
    return set(attempted) | set(submitted)


def coverage_by_topic(user):
    practised = practised_question_ids(user)
    totals = {}
    for question_id, topic in Question.objects.public().live().values_list("id", "topic"):
        done, total = totals.get(topic, (0, 0))
        totals[topic] = (done + (question_id in practised), total + 1)
    return [TopicCoverage(topic, done, total) for topic, (done, total) in sorted(totals.items())]


def recent_attempts(user):
    attempts = Attempt.objects.filter(user=user, question__in=Question.objects.public())
    return attempts.select_related("question")[:RECENT_LIMIT]


def recent_submissions(user):
    return coding_practice.recent_practice(user, RECENT_LIMIT)
