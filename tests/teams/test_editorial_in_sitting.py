"""An exercise's editorial, earned in practice, stays hidden while the learner sits an
assessment that holds the exercise (practice.editorial, which asks teams)."""

from datetime import timedelta

import pytest
from django.urls import reverse

from practice import editorial
from questions.models import ExerciseVersion, Kind, Question
from submissions.models import Purpose, Submission
from teams import services
from teams.models import Assessment

from .conftest import START, STARTER

SAMPLE = "Square in one call: `np.square`."


@pytest.fixture
def solved_exercise(candidate):
    question = Question.objects.create(
        slug="public-square",
        title="Public square",
        topic="Algorithmic Complexity & Code-Level Optimization",
        difficulty="easy",
        kind=Kind.CODING,
        prompt="Square the values.",
        sample_answer=SAMPLE,
    )
    version = ExerciseVersion.objects.create(
        question=question,
        number=1,
        spec={"entry_point": "transform", "target": "cpu", "sizes": [10]},
        reference_code=STARTER,
        starter_code=STARTER,
        inputs_code="def make_inputs(size, seed):\n    return ([1],)\n",
        solution_code="import numpy as np\n",
        content_hash="public-square",
    )
    Submission.objects.create(
        user=candidate, exercise=version, code="x", purpose=Purpose.PRACTICE, status="done", verdict="accepted"
    )
    return question


def _sit(organisation, hiring_manager, candidate, question):
    assessment = Assessment.objects.create(
        organisation=organisation,
        title="Screen",
        time_limit_minutes=60,
        opens_at=START - timedelta(hours=1),
        closes_at=START + timedelta(days=7),
        created_by=hiring_manager,
    )
    services.add_question(assessment, question)
    services.publish_assessment(assessment, hiring_manager)
    invitation = services.invite_candidate(assessment, candidate.email, hiring_manager, lambda token: token)
    return services.start_session(invitation, candidate)


def test_hidden_while_sitting_one_that_holds_it(db, candidate, organisation, hiring_manager, solved_exercise, clock):
    assert editorial.editorial_for(candidate, solved_exercise) is not None
    _sit(organisation, hiring_manager, candidate, solved_exercise)
    assert editorial.editorial_for(candidate, solved_exercise) is None


def test_the_api_refuses_it_mid_sitting(db, client, candidate, organisation, hiring_manager, solved_exercise, clock):
    client.force_login(candidate)
    url = reverse("api:exercise_editorial", args=[solved_exercise.slug])
    assert client.get(url).status_code == 200
    _sit(organisation, hiring_manager, candidate, solved_exercise)
    response = client.get(url)
    assert response.status_code == 403 and response.json()["code"] == "editorial_not_earned"
