"""Schemathesis fuzzes every operation of /api/v1/schema on a live server: no response
may be a server error (5xx), use an undocumented status, or break the schema."""

from datetime import timedelta

import pytest
import schemathesis
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from api import tokens
from api.models import Scope
from submissions.models import Submission
from teams import services as team_services
from teams.models import Assessment, Role
from teams.services import org_tokens

from .conftest import GRADED_REPORT

EXAMPLES_PER_OPERATION = 25
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture
def fuzzer_token(live_server, transactional_db, make_user, exercise_version, queued, settings):
    """A user with a graded submission and a submit token; grading tasks are recorded, not queued."""
    settings.SUBMISSION_MAX_QUEUED_PER_USER = 3
    fuzzer = make_user("fuzzer")
    Submission.objects.create(
        user=fuzzer,
        exercise=exercise_version,
        code="x = 1\n",
        status="done",
        verdict="accepted",
        report=GRADED_REPORT,
        speedup=41.5,
        speedup_ci_low=39.0,
        speedup_ci_high=44.0,
        hardware="cpu",
    )
    return tokens.create_token(fuzzer, "fuzz", Scope.SUBMIT, 7)[1]


@pytest.fixture
def team_token(fuzzer_token, exercise_version):
    """An owner token of an organisation with a published assessment and a candidate's sitting,
    for the team API (/api/v1/team/)."""
    owner = Submission.objects.get().user
    organisation = team_services.create_organisation(owner, "Fuzz Hiring")
    now = timezone.now()
    assessment = Assessment.objects.create(
        organisation=organisation,
        title="Fuzzed",
        time_limit_minutes=60,
        opens_at=now - timedelta(hours=1),
        closes_at=now + timedelta(days=7),
        created_by=owner,
    )
    team_services.add_question(assessment, exercise_version.question)
    team_services.publish_assessment(assessment, owner)
    invitation = team_services.invite_candidate(assessment, "candidate@example.com", owner, lambda token: token)
    team_services.start_session(invitation, owner)
    return org_tokens.create_token(organisation, "fuzz", Role.OWNER, owner)[1]


def test_api_conforms_to_its_schema(live_server, fuzzer_token, team_token):
    schema = schemathesis.openapi.from_url(f"{live_server.url}/api/v1/schema")
    learner = {"Authorization": f"Bearer {fuzzer_token}"}
    team = {"Authorization": f"Bearer {team_token}"}  # the team API takes organisation tokens only
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 10
    assert sum(operation.path.startswith("/api/v1/team/") for operation in operations) == 7
    for operation in operations:

        @given(case=operation.as_strategy())
        @hypothesis_settings(
            max_examples=EXAMPLES_PER_OPERATION, deadline=None, suppress_health_check=list(HealthCheck), database=None
        )
        def fuzz(case):
            headers = team if case.operation.path.startswith("/api/v1/team/") else learner
            case.call_and_validate(base_url=live_server.url, headers=headers, checks=CHECKS)

        fuzz()
