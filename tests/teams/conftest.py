"""Team fixtures: an organisation with its owner (the hiring manager) and a
reviewer, a member of another organisation, a published assessment with one
question of each kind, and a controllable clock."""

from datetime import datetime, timedelta, timezone as dt_timezone
from unittest import mock

import pytest

from teams import services
from teams.models import Assessment, Membership, Role
from questions.models import ExerciseVersion, Kind, Question

# Near the real time, so login sessions created by the test client stay valid under the clock.
START = datetime.now(dt_timezone.utc).replace(second=0, microsecond=0)

STARTER = "def transform(values):\n    return values\n"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # Each test here signs in several people; the default hasher would dominate the run time.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


class Clock:
    def __init__(self, now):
        self.now = now

    def advance(self, **delta):
        self.now += timedelta(**delta)


@pytest.fixture
def clock():
    """Every timezone.now() (services, auto_now fields) reads this clock."""
    clock = Clock(START)
    with mock.patch("django.utils.timezone.now", side_effect=lambda: clock.now):
        yield clock


@pytest.fixture
def hiring_manager(make_user):
    return make_user("hiring-manager")


@pytest.fixture
def organisation(hiring_manager):
    return services.create_organisation(hiring_manager, "Acme Performance")


@pytest.fixture
def reviewer(make_user, organisation):
    user = make_user("reviewer")
    Membership.objects.create(user=user, organisation=organisation, role=Role.REVIEWER)
    return user


@pytest.fixture
def other_organisation(make_user):
    return services.create_organisation(make_user("other-owner"), "Rival Systems")


@pytest.fixture
def other_org_member(make_user, other_organisation):
    user = make_user("other-member")
    Membership.objects.create(user=user, organisation=other_organisation, role=Role.OWNER)
    return user


@pytest.fixture
def concept_question(db):
    return Question.objects.create(
        slug="doubling-table",
        title="Amortised cost of a doubling table",
        topic="Algorithmic Complexity & Code-Level Optimization",
        difficulty="medium",
        kind=Kind.CONCEPT,
        prompt="Why is appending to a doubling array amortised O(1)?",
        sample_answer="Copies form a geometric series.",
        rubric=["Doubling copies n items", "Geometric series", "Amortised O(1)", "Load factor"],
    )


@pytest.fixture
def numeric_question(db):
    return Question.objects.create(
        slug="gib-in-bytes",
        title="Bytes in 4 GiB",
        topic="Technical Foundation and Self Assessment",
        difficulty="easy",
        kind=Kind.NUMERIC,
        prompt="How many bytes are in 4 GiB?",
        answer_value=4 * 2**30,
        answer_unit="bytes",
        tolerance=0.01,
    )


@pytest.fixture
def coding_question(db):
    return Question.objects.create(
        slug="square-values",
        title="Square the values",
        topic="Algorithmic Complexity & Code-Level Optimization",
        difficulty="hard",
        kind=Kind.CODING,
        prompt="Square every value, fast.",
    )


@pytest.fixture
def make_version(coding_question):
    def make(number):
        return ExerciseVersion.objects.create(
            question=coding_question,
            number=number,
            spec={"target": "cpu", "entry_point": "transform", "sizes": [1000], "graded_on": ["time", "memory"]},
            reference_code="def transform(values):\n    return [v * v for v in values]\n",
            starter_code=STARTER,
            inputs_code="def make_inputs(size, seed):\n    return (list(range(size)),)\n",
            solution_code="import numpy as np\n\ndef transform(values):\n    return np.square(values)\n",
            content_hash=f"hash-{number}",
        )

    return make


@pytest.fixture
def draft_assessment(
    organisation, hiring_manager, concept_question, numeric_question, coding_question, make_version, clock
):
    make_version(1)
    assessment = Assessment.objects.create(
        organisation=organisation,
        title="Backend performance screen",
        instructions="Answer **all** questions.",
        time_limit_minutes=60,
        opens_at=START - timedelta(hours=1),
        closes_at=START + timedelta(days=7),
        created_by=hiring_manager,
    )
    for question in (concept_question, numeric_question, coding_question):
        services.add_question(assessment, question)
    return assessment


@pytest.fixture
def assessment(draft_assessment, hiring_manager):
    return services.publish_assessment(draft_assessment, hiring_manager)


@pytest.fixture
def invite(assessment, hiring_manager):
    """Invite an address; returns (invitation, token)."""

    def make(email, target=assessment):
        tokens = []
        invitation = services.invite_candidate(
            target, email, hiring_manager, lambda token: tokens.append(token) or token
        )
        return invitation, tokens[0]

    return make


@pytest.fixture
def session(invite, candidate):
    invitation, _ = invite(candidate.email)
    return services.start_session(invitation, candidate)


@pytest.fixture
def items(assessment):
    """The published assessment's items: concept, numeric, coding."""
    return list(assessment.items.select_related("question", "exercise_version"))
