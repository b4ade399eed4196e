"""The real bank in questions/bank/ loads (content is written separately; this
checks it is all valid, big enough, and on the one topic list)."""

import pytest
from django.core.management import call_command

from questions.loader import TOPIC_FOLDERS, default_bank_dir
from questions.models import Kind, Question


@pytest.mark.django_db
def test_real_bank_loads():
    call_command("load_bank", path=str(default_bank_dir()), skip_validation=True, strict=True)  # every file, or fail
    live = Question.objects.live()
    assert live.filter(kind__in=[Kind.CONCEPT, Kind.NUMERIC]).count() >= 100
    assert live.filter(kind=Kind.NUMERIC).count() >= 45
    assert live.filter(kind=Kind.CONCEPT).count() >= 40
    exercises = [question.current_exercise() for question in live.filter(kind=Kind.CODING)]
    assert sum(exercise.spec["target"] == "cpu" for exercise in exercises) >= 22
    assert sum(exercise.spec["target"] == "gpu" for exercise in exercises) >= 8
    assert set(live.values_list("topic", flat=True)) == set(TOPIC_FOLDERS)
