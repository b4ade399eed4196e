"""Who reaches what: every teams URL against the owner and reviewer of
organisation A, a member of organisation B, the candidate, another signed-in
user, a staff author and an anonymous visitor.

The table must name every URL in the teams namespace: a new URL without a row
here fails test_matrix_covers_every_teams_url."""

import pytest
from django.contrib.auth.models import Group
from django.urls import get_resolver, reverse

from submissions.services import lifecycle
from teams import services
from teams.models import Answer, MemberInvitation, WebhookDelivery, WebhookEndpoint, WebhookEvent
from teams.services import org_tokens

pytestmark = pytest.mark.django_db

OK, FORBIDDEN, NOT_FOUND, LOGIN = "ok", 403, 404, "login"

OWNER_ONLY = {
    "owner": OK,
    "reviewer": FORBIDDEN,
    "other_org": NOT_FOUND,
    "candidate": NOT_FOUND,
    "outsider": NOT_FOUND,
    "author": NOT_FOUND,
    "anonymous": LOGIN,
}
TEAM = {**OWNER_ONLY, "reviewer": OK}
CANDIDATE = {
    "owner": NOT_FOUND,
    "reviewer": NOT_FOUND,
    "other_org": NOT_FOUND,
    "candidate": OK,
    "outsider": NOT_FOUND,
    "author": NOT_FOUND,
    "anonymous": LOGIN,
}
SIGNED_IN = {role: OK for role in ("owner", "reviewer", "other_org", "candidate", "outsider", "author")} | {
    "anonymous": LOGIN
}
AUTHOR = {
    "owner": FORBIDDEN,
    "reviewer": FORBIDDEN,
    "other_org": FORBIDDEN,
    "candidate": FORBIDDEN,
    "outsider": FORBIDDEN,
    "author": OK,
    "anonymous": LOGIN,
}
# The token in the link is the secret: anyone holding it sees the invitation page.
TOKEN_PAGE = {role: OK for role in SIGNED_IN}

# url name -> (method, how to build the args from the world, expectations)
MATRIX = {
    "index": ("get", lambda w: [], SIGNED_IN),
    "create": ("get", lambda w: [], SIGNED_IN),
    "join": ("get", lambda w: [w["member_token"]], TOKEN_PAGE),
    "candidate_start": ("get", lambda w: [w["candidate_token"]], TOKEN_PAGE),
    # The bank offers no practice sample here: everyone holding the link is sent back to its page.
    "practice_start": ("post", lambda w: [w["candidate_token"]], TOKEN_PAGE),
    "organisation": ("get", lambda w: [w["org"]], TEAM),
    "invite_member": ("post", lambda w: [w["org"]], OWNER_ONLY),
    "remove_member": ("post", lambda w: [w["org"], w["reviewer_membership"]], OWNER_ONLY),
    # The body is empty, so an owner gets the page back with the form's errors, never a token.
    "create_api_token": ("post", lambda w: [w["org"]], OWNER_ONLY),
    "revoke_api_token": ("post", lambda w: [w["org"], w["api_token"]], OWNER_ONLY),
    "webhooks": ("get", lambda w: [w["org"]], OWNER_ONLY),
    "audit_log": ("get", lambda w: [w["org"]], OWNER_ONLY),
    "audit_csv": ("get", lambda w: [w["org"]], OWNER_ONLY),
    "remove_webhook": ("post", lambda w: [w["org"], w["webhook"]], OWNER_ONLY),
    "send_webhook_again": ("post", lambda w: [w["org"], w["delivery"]], OWNER_ONLY),
    "assessment_create": ("get", lambda w: [w["org"]], OWNER_ONLY),
    "assessment": ("get", lambda w: [w["org"], w["assessment"]], TEAM),
    "assessment_edit": ("get", lambda w: [w["org"], w["assessment"]], OWNER_ONLY),
    "add_question": ("post", lambda w: [w["org"], w["assessment"]], OWNER_ONLY),
    "remove_item": ("post", lambda w: [w["org"], w["assessment"], w["item"]], OWNER_ONLY),
    "move_item": ("post", lambda w: [w["org"], w["assessment"], w["item"]], OWNER_ONLY),
    "publish": ("post", lambda w: [w["org"], w["assessment"]], OWNER_ONLY),
    "invite_candidates": ("post", lambda w: [w["org"], w["assessment"]], OWNER_ONLY),
    "report": ("get", lambda w: [w["org"], w["assessment"]], TEAM),
    "report_csv": ("get", lambda w: [w["org"], w["assessment"]], TEAM),
    "candidate_report": ("get", lambda w: [w["org"], w["session"]], TEAM),
    "review_answer": ("post", lambda w: [w["org"], w["session"], w["answer"]], TEAM),
    "submission_timings": ("get", lambda w: [w["org"], w["session"], w["submission"]], TEAM),
    # The sitting is still open, so an allowed member is refused with a message, never a grading.
    "grade_again": ("post", lambda w: [w["org"], w["session"], w["submission"]], TEAM),
    "extra_time": ("post", lambda w: [w["org"], w["invitation"]], OWNER_ONLY),
    "candidate_link": ("post", lambda w: [w["org"], w["invitation"]], OWNER_ONLY),
    "take": ("get", lambda w: [w["session"]], CANDIDATE),
    "take_question": ("get", lambda w: [w["session"], 1], CANDIDATE),
    "save_answer": ("post", lambda w: [w["session"], 1], CANDIDATE),
    "submit_code": ("post", lambda w: [w["session"], 3], CANDIDATE),
    "submission_status": ("get", lambda w: [w["session"], 3], CANDIDATE),
    # The body is empty, so the sitting's candidate is told it is not JSON, never stores anything.
    "record_signals": ("post", lambda w: [w["session"]], {**CANDIDATE, "candidate": 400}),
    "finish": ("post", lambda w: [w["session"]], CANDIDATE),
    "done": ("get", lambda w: [w["session"]], CANDIDATE),
    "authoring:index": ("get", lambda w: [], AUTHOR),
    "authoring:new_exercise": ("get", lambda w: [], AUTHOR),
    "authoring:new_question": ("get", lambda w: ["numeric"], AUTHOR),
    "authoring:exercise": ("get", lambda w: [w["slug"]], AUTHOR),
    # The POST bodies are empty/invalid, so an allowed author gets a form back, never a sandbox run.
    "authoring:validate": ("get", lambda w: [w["slug"]], {**AUTHOR, "author": 405}),
    "authoring:edit": ("get", lambda w: [w["slug"]], AUTHOR),
    "authoring:edit_text": ("get", lambda w: [w["slug"]], AUTHOR),
    "authoring:export": ("get", lambda w: [w["slug"]], {**AUTHOR, "author": 405}),
    "authoring:preview": ("get", lambda w: [w["slug"]], AUTHOR),
    "authoring:publish": ("get", lambda w: [w["slug"]], {**AUTHOR, "author": 405}),
}
#: A graded report with its timed calls, so the timings download has something to give.
TIMED_REPORT = {
    "verdict": "accepted",
    "speedup": 4.0,
    "speedup_ci": [3.5, 4.5],
    "message": "accepted",
    "hardware": "cpu",
    "peak_memory_bytes": 2**20,
    "reference_peak_memory_bytes": 2**20,
    "sizes": [
        {
            "size": 1000,
            "pairs": 3,
            "speedup": 4.0,
            "calls": {"reference_s": [4.0, 4.1, 3.9], "submission_s": [1.0, 1.0, 1.0], "echo_s": None},
        }
    ],
}
ROLES = ("owner", "reviewer", "other_org", "candidate", "outsider", "author", "anonymous")


def url_names(namespace):
    resolver = get_resolver()
    namespace_resolver = resolver.namespace_dict[namespace][1]
    return {name for name in namespace_resolver.reverse_dict if isinstance(name, str)}


def test_matrix_covers_every_teams_and_authoring_url():
    # Names without a namespace are teams' pages; the authoring app's are written "authoring:name".
    assert url_names("teams") == {name for name in MATRIX if ":" not in name}
    assert {f"authoring:{name}" for name in url_names("authoring")} == {name for name in MATRIX if ":" in name}


@pytest.fixture
def world(organisation, hiring_manager, reviewer, other_org_member, candidate, outsider, staff_author, session, items):
    Group.objects.get(name="Authors").user_set.add(staff_author)
    answer = Answer.objects.create(session=session, item=items[0], text="Geometric series")
    submission = services.submit_code(session, items[2], "def transform(x):\n    return x\n")
    lifecycle.finish(submission, TIMED_REPORT)
    member_tokens = []
    services.invite_member(
        organisation, "new@example.com", "reviewer", hiring_manager, lambda t: member_tokens.append(t) or t
    )
    api_token, _ = org_tokens.create_token(organisation, "ATS", "reviewer", hiring_manager)
    webhook = WebhookEndpoint.objects.create(organisation=organisation, url="https://hooks.example.com/", secret="s")
    delivery = WebhookDelivery.objects.create(endpoint=webhook, event=WebhookEvent.SITTING_STARTED, payload={})
    candidate_tokens = []
    services.invite_candidate(
        session.assessment, "fresh@example.com", hiring_manager, lambda t: candidate_tokens.append(t) or t
    )
    return {
        "users": {
            "owner": hiring_manager,
            "reviewer": reviewer,
            "other_org": other_org_member,
            "candidate": candidate,
            "outsider": outsider,
            "author": staff_author,
            "anonymous": None,
        },
        "org": organisation.slug,
        "assessment": session.assessment.pk,
        "item": items[0].pk,
        "session": session.pk,
        "invitation": session.invitation.pk,
        "answer": answer.pk,
        "submission": submission.pk,
        "reviewer_membership": reviewer.memberships.get().pk,
        "member_token": member_tokens[0],
        "candidate_token": candidate_tokens[0],
        "slug": items[2].question.slug,
        "api_token": api_token.pk,
        "webhook": webhook.pk,
        "delivery": delivery.pk,
    }


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", sorted(MATRIX))
def test_access(client, world, name, role):
    method, args, expectations = MATRIX[name]
    user = world["users"][role]
    if user is not None:
        client.force_login(user)
    url = reverse(name if ":" in name else f"teams:{name}", args=args(world))
    response = getattr(client, method)(url)
    expected = expectations[role]
    if expected == OK:
        assert response.status_code in (200, 302), f"{role} should reach {name}, got {response.status_code}"
        if response.status_code == 302:
            assert "/accounts/login/" not in response["Location"]
    elif expected == LOGIN:
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/"), (
            f"anonymous should be sent to sign in for {name}, got {response.status_code}"
        )
    else:
        assert response.status_code == expected, f"{role} on {name}: expected {expected}, got {response.status_code}"


def test_other_organisation_cannot_see_the_assessment_in_listings(client, other_org_member, assessment):
    client.force_login(other_org_member)
    page = client.get(reverse("teams:index")).content.decode()
    assert assessment.title not in page
    assert assessment.organisation.name not in page


def test_reviewer_cannot_invite_members(client, reviewer, organisation):
    client.force_login(reviewer)
    client.post(reverse("teams:invite_member", args=[organisation.slug]), {"email": "x@example.com", "role": "owner"})
    assert not MemberInvitation.objects.filter(email="x@example.com").exists()
