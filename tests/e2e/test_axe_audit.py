"""axe-core's audit of every public and signed-in page, in light and dark, in Chromium: no serious or critical
violation. axe-core comes bundled with the axe-playwright-python package (no CDN); each page is loaded once and
audited in both themes (the theme follows the emulated system preference live, static/js/theme.js)."""

from datetime import timedelta

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth.models import Permission
from django.utils import timezone

from questions.models import Kind, Question
from submissions.models import Submission
from submissions.states import Status, Verdict
from teams import services
from teams.models import Assessment, AssessmentItem, CandidateInvitation, CandidateSession, FinishReason

from .conftest import PASSWORD
from .test_submission_feedback import graded_report

pytestmark = pytest.mark.browser

FAILING_IMPACTS = {"serious", "critical"}
AUTHORING = {"content_type__app_label": "authoring", "codename": "author_questions"}
PUBLIC_PAGES = ["/", "/accounts/login/", "/accounts/signup/", "/questions/", "/leaderboards/", "/no-such-page/"]


@pytest.fixture
def audited_site(bank, make_user):
    """An author who owns a team whose assessment has a finished sitting, and a graded submission of theirs."""
    author = make_user("auditor", is_staff=True, password=PASSWORD)
    # The permission itself: the "Authors" group comes from a data migration, which an earlier test's flush removed.
    author.user_permissions.add(Permission.objects.get(**AUTHORING))
    candidate = make_user("audited-candidate", password=PASSWORD)
    coding = Question.objects.get(slug="python-loop-to-numpy")
    submission = Submission.objects.create(
        user=author,
        exercise=coding.current_exercise(),
        code="def transform(x):\n    return (2 * x + 1) ** 2\n",
        status=Status.DONE,
        verdict=Verdict.ACCEPTED,
        report=graded_report(),
        speedup=50.0,
        hardware="cpu",
        finished_at=timezone.now(),
    )
    organisation = services.create_organisation(author, "Audit Team")
    now = timezone.now()
    assessment = Assessment.objects.create(
        organisation=organisation,
        title="Screen",
        time_limit_minutes=60,
        opens_at=now - timedelta(hours=2),
        closes_at=now + timedelta(days=1),
        created_by=author,
        published_at=now - timedelta(hours=1),
    )
    AssessmentItem.objects.create(
        assessment=assessment, question=coding, position=1, exercise_version=coding.current_exercise()
    )
    invitation = CandidateInvitation.objects.create(
        assessment=assessment,
        email=candidate.email,
        token_hash="a" * 64,
        expires_at=now + timedelta(days=1),
        invited_by=author,
        used_at=now - timedelta(minutes=50),
    )
    sitting = CandidateSession.objects.create(
        invitation=invitation,
        assessment=assessment,
        candidate=candidate,
        started_at=now - timedelta(minutes=50),
        finished_at=now - timedelta(minutes=5),
        finish_reason=FinishReason.SUBMITTED,
    )
    org = f"/teams/org/{organisation.slug}"
    by_kind = {kind: Question.objects.filter(kind=kind).order_by("slug").first().slug for kind in Kind.values}
    return [
        "/",
        "/questions/",
        *(f"/questions/{slug}/" for slug in by_kind.values()),
        f"/submissions/{submission.pk}/",
        "/leaderboards/",
        f"/leaderboards/exercises/{coding.slug}/",
        "/questions/progress/",
        "/teams/",
        "/teams/new/",
        f"{org}/",
        f"{org}/assessments/{assessment.pk}/",
        f"{org}/assessments/{assessment.pk}/report/",
        f"{org}/candidates/{sitting.pk}/",
        "/authoring/",
        f"/authoring/new/{Kind.NUMERIC}/",
        f"/authoring/{by_kind[Kind.CODING]}/text/",
        f"/authoring/{by_kind[Kind.CODING]}/preview/",
        "/api/tokens/",
        "/accounts/profile/",
    ]


def serious_violations(page, axe, theme):
    page.emulate_media(color_scheme=theme)
    page.wait_for_function("(theme) => document.documentElement.dataset.theme === theme", arg=theme)
    results = axe.run(page).response
    return [
        f"{page.url} ({theme}): {violation['id']} ({violation['impact']}): {violation['help']}: {where(violation)}"
        for violation in results["violations"]
        if violation["impact"] in FAILING_IMPACTS
    ]


def where(violation):
    """The first few elements, and why the first fails (for contrast: the two colours and their ratio)."""
    nodes = violation["nodes"]
    why = (nodes[0].get("any") or nodes[0].get("all") or nodes[0].get("none") or [{}])[0].get("message", "")
    return "; ".join(str(node["target"][-1]) for node in nodes[:5]) + f" ({len(nodes)} in all). {why}"


def test_no_page_has_a_serious_accessibility_violation_in_either_theme(open_page, audited_site):
    axe = Axe()
    page = open_page()
    found = []

    def audit(path):
        response = page.goto(path)
        # Each page audited is the page itself, not a sign-in form or an error in its place (but the 404 page's own).
        assert response.status == (404 if path == "/no-such-page/" else 200) and response.url.endswith(path), path
        page.wait_for_load_state("load")
        found.extend(serious_violations(page, axe, "light"))
        found.extend(serious_violations(page, axe, "dark"))

    for path in PUBLIC_PAGES:
        audit(path)
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("auditor")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    for path in audited_site:
        audit(path)
    assert found == [], "\n".join(found)
    assert not open_page.errors, open_page.errors
