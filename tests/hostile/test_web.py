"""The web side of hostile submissions: what the submit form refuses, CSRF on
every POST, learner and author text never running as script, and nobody
reading another person's code or report."""

import importlib
import re
import uuid

import pytest
from django.apps import apps as django_apps
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from accounts.models import Profile, profile_for
from questions.models import ExerciseVersion, Question
from submissions.models import Submission
from submissions.services import intake
from submissions.states import Status, Verdict

from .conftest import tiny_exercise

SCRIPT = "<script>alert('pwned')</script>"
ATTRIBUTE_XSS = '<img src=x onerror="alert(1)">'
#: Markup that would run: a script element, an on*= handler inside a tag, a javascript: link.
ACTIVE_MARKUP = re.compile(r"<script[^>]*>\s*alert|<[a-z]+\b[^<>]*\son\w+\s*=|href\s*=\s*[\"']?\s*javascript:", re.I)


@pytest.fixture(autouse=True)
def isolated_cache(settings):
    """Rate limits live in the cache: give each test a fresh in-memory one."""
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "hostile-web"}
    }
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def exercise_version(db):
    spec, files = tiny_exercise()
    question = Question.objects.create(
        slug="hostile-web-exercise",
        title="Hostile web exercise",
        topic="Algorithmic Complexity & Code-Level Optimization",
        difficulty="easy",
        kind="coding",
        prompt=f"Compute it. {SCRIPT} {ATTRIBUTE_XSS} [click](javascript:alert(1))",
    )
    return ExerciseVersion.objects.create(
        question=question,
        number=1,
        spec=spec,
        reference_code=files["reference.py"],
        starter_code="def transform(x):\n    return x\n",
        inputs_code=files["inputs.py"],
        solution_code=files["solution.py"],
        content_hash="hostile",
    )


def submit_url(version):
    return reverse("submissions:submit", args=[version.question.slug])


def graded(user, version, code="def transform(x):\n    return x\n"):
    return Submission.objects.create(
        user=user,
        exercise=version,
        code=code,
        status=Status.DONE,
        verdict=Verdict.WRONG_ANSWER,
        message="Your function returned a wrong result.",
        report={
            "verdict": Verdict.WRONG_ANSWER,
            "message": "Your function returned a wrong result.",
            "sizes": [],
            "failure": {"index": 0, "expected": 1.0, "got": 2.0, "tolerance": {"rtol": 1e-9}},
        },
    )


# -- what the submit form refuses ------------------------------------------------------


def test_oversized_code_is_refused_with_the_limit(candidate_client, exercise_version, settings):
    settings.SUBMISSION_MAX_BYTES = 2048
    response = candidate_client.post(submit_url(exercise_version), {"code": "x = 1\n" * 1000})
    assert response.status_code == 400
    assert "2,048" in response.content.decode()
    assert not Submission.objects.exists()


def test_nul_bytes_are_refused(candidate_client, exercise_version):
    response = candidate_client.post(submit_url(exercise_version), {"code": "def transform(x):\x00\n    return x\n"})
    assert response.status_code == 400
    assert "NUL" in response.content.decode()
    assert not Submission.objects.exists()


def test_non_utf8_bytes_are_refused(candidate_client, exercise_version):
    body = b"code=def+transform%28x%29%3A%0A++return+%FF%FE"
    response = candidate_client.post(
        submit_url(exercise_version), body, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 400
    assert "UTF-8" in response.content.decode()
    assert not Submission.objects.exists()


@pytest.mark.parametrize(
    "code, error_code",
    [
        (b"def transform(x):\n    return '\xff'\n", "not_utf8"),
        ("def f():\x00", "nul"),
        ("   \n\t", "empty"),
        ("\ud800", "not_utf8"),  # a lone surrogate cannot be stored as UTF-8
        (12345, "not_text"),
    ],
)
def test_service_validation_refuses_bad_code(code, error_code):
    with pytest.raises(ValidationError) as caught:
        intake.clean_code(code)
    assert caught.value.code == error_code


def test_per_user_submit_rate_limit(candidate_client, exercise_version, settings):
    settings.SUBMISSION_RATE = "3/m"
    settings.SUBMISSION_MAX_QUEUED_PER_USER = 100
    codes = [
        candidate_client.post(
            submit_url(exercise_version), {"code": f"def transform(x):\n    return x  # {i}\n"}
        ).status_code
        for i in range(5)
    ]
    assert codes[:3] == [302, 302, 302]
    assert codes[3:] == [429, 429]
    assert Submission.objects.count() == 3


def test_rate_limit_is_per_user(client, make_user, exercise_version, settings):
    settings.SUBMISSION_RATE = "2/m"
    settings.SUBMISSION_MAX_QUEUED_PER_USER = 100
    for name in ("alice", "bob"):
        client.force_login(make_user(name))
        statuses = [
            client.post(submit_url(exercise_version), {"code": "def transform(x):\n    return x\n"}).status_code
            for _ in range(2)
        ]
        assert statuses == [302, 302], name


def test_queued_limit_refuses_a_flood_with_a_clear_message(candidate_client, candidate, exercise_version, settings):
    settings.SUBMISSION_MAX_QUEUED_PER_USER = 2
    settings.SUBMISSION_RATE = "100/m"
    statuses = [
        candidate_client.post(submit_url(exercise_version), {"code": "def transform(x):\n    return x\n"})
        for _ in range(3)
    ]
    assert [r.status_code for r in statuses] == [302, 302, 400]
    assert "waiting to be graded (the limit is 2)" in statuses[2].content.decode()
    assert Submission.objects.filter(user=candidate).count() == 2


def test_anonymous_cannot_submit(client, exercise_version):
    response = client.post(submit_url(exercise_version), {"code": "def transform(x):\n    return x\n"})
    assert response.status_code == 302 and "login" in response["Location"]
    assert not Submission.objects.exists()


# -- CSRF on every POST ----------------------------------------------------------------

DUMMY_ARGUMENTS = {"int": "1", "slug": "x", "str": "x", "path": "x", "uuid": str(uuid.uuid4())}


def _all_patterns(resolver=None, prefix=""):
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            yield from _all_patterns(entry, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), entry


def _concrete_url(route):
    """A URL that resolves to `route`, with a harmless value for each argument."""
    if "^" in route or "(?P" in route:  # regex routes (admin, the API's catch-all): fill named groups
        url = re.sub(r"\(\?P<\w+>[^)]*\)", "1", route).replace("^", "").replace("$", "").replace("\\", "")
        return "/" + url
    return "/" + re.sub(r"<(?:(\w+):)?\w+>", lambda m: DUMMY_ARGUMENTS.get(m.group(1) or "str", "x"), route)


def test_every_post_endpoint_enforces_csrf(db, candidate):
    """A logged-in browser tricked into POSTing without the token is refused by
    every URL in the project: no view is csrf_exempt."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(candidate)
    checked = []
    for route, pattern in _all_patterns():
        url = _concrete_url(route)
        response = client.post(url, {"code": "def transform(x):\n    return x\n", "text": "x", "answer": "1"})
        if response.status_code == 415:
            # The JSON API reads only JSON bodies (which a cross-site form cannot send); it must
            # refuse a session's JSON POST without a token too, or not take POSTs at all.
            response = client.post(
                url, {"exercise": "x", "code": "def transform(x):\n    return x\n"}, content_type="application/json"
            )
            if response.status_code == 405:
                continue
        if response.status_code == 404 and "csrf" not in response.content.decode().lower():
            continue  # the dummy arguments did not resolve (or the view never got the request)
        if response.status_code == 401 and url.startswith("/api/v1/team/"):
            continue  # the team API takes organisation tokens only: a browser's session is no one there
        assert response.status_code == 403, (
            f"POST {url} ({pattern.name}) without a CSRF token got {response.status_code}"
        )
        checked.append(pattern.name)
    assert {"submit", "save_draft", "preview", "submissions"} <= set(checked)
    assert not Submission.objects.exists()


def test_submit_with_a_csrf_token_works(db, candidate, exercise_version):
    client = Client(enforce_csrf_checks=True)
    client.force_login(candidate)
    page = client.get(reverse("questions:detail", args=[exercise_version.question.slug]))
    token = page.cookies["csrftoken"].value if "csrftoken" in page.cookies else client.cookies["csrftoken"].value
    response = client.post(
        submit_url(exercise_version), {"code": "def transform(x):\n    return x\n", "csrfmiddlewaretoken": token}
    )
    submission = Submission.objects.get()
    assert response.status_code == 302 and response["Location"] == submission.get_absolute_url()
    assert submission.user == candidate and submission.code == "def transform(x):\n    return x\n"


# -- text never runs as script ---------------------------------------------------------


def test_question_prompt_markup_is_sanitised(candidate_client, exercise_version):
    html = candidate_client.get(reverse("questions:detail", args=[exercise_version.question.slug])).content.decode()
    assert "Compute it." in html
    assert not ACTIVE_MARKUP.search(html), ACTIVE_MARKUP.search(html).group(0)


def test_submitted_code_is_escaped_everywhere(candidate_client, candidate, exercise_version):
    code = f"def transform(x):\n    return x  # </textarea></code></pre>{SCRIPT}{ATTRIBUTE_XSS}\n"
    submission = graded(candidate, exercise_version, code=code)
    pages = [
        candidate_client.get(reverse("submissions:detail", args=[submission.pk])).content.decode(),
        candidate_client.get(reverse("submissions:status", args=[submission.pk])).json().get("report_html", ""),
        candidate_client.get(reverse("submissions:list")).content.decode(),
    ]
    for html in pages:
        assert not ACTIVE_MARKUP.search(html) and "</textarea></code>" not in html
    assert "&lt;script&gt;alert(" in pages[0]


def test_code_echoed_back_after_an_error_is_escaped(candidate_client, exercise_version):
    code = f"</textarea>{SCRIPT}\x00"
    html = candidate_client.post(submit_url(exercise_version), {"code": code}).content.decode()
    assert not ACTIVE_MARKUP.search(html) and "</textarea><script" not in html


def test_report_text_from_the_sandbox_is_escaped(candidate_client, candidate, exercise_version):
    """Messages and tracebacks come from learner code (an exception message is
    theirs to choose): they are data, never markup."""
    submission = graded(candidate, exercise_version)
    submission.verdict = Verdict.RUNTIME_ERROR
    submission.message = f"Your code raised an exception. {SCRIPT}"
    submission.report = {
        "verdict": Verdict.RUNTIME_ERROR,
        "message": submission.message,
        "sizes": [],
        "failure": {"traceback": f"RuntimeError: {SCRIPT}{ATTRIBUTE_XSS}"},
        "hint": SCRIPT,
    }
    submission.save()
    for url in (reverse("submissions:detail", args=[submission.pk]),):
        html = candidate_client.get(url).content.decode()
        assert not ACTIVE_MARKUP.search(html)
    report_html = candidate_client.get(reverse("submissions:status", args=[submission.pk])).json()["report_html"]
    assert not ACTIVE_MARKUP.search(report_html)


# -- nobody reads another person's code or report --------------------------------------


def test_others_cannot_see_a_submission(client, candidate, outsider, exercise_version):
    secret_code = "def transform(x):\n    return x  # candidate-only-secret\n"
    submission = graded(candidate, exercise_version, code=secret_code)
    client.force_login(outsider)
    assert client.get(reverse("submissions:detail", args=[submission.pk])).status_code == 404
    assert client.get(reverse("submissions:status", args=[submission.pk])).status_code == 404
    listing = client.get(reverse("submissions:list"))
    assert listing.status_code == 200 and "candidate-only-secret" not in listing.content.decode()
    assert str(reverse("submissions:detail", args=[submission.pk])) not in listing.content.decode()


def test_anonymous_cannot_see_a_submission(client, candidate, exercise_version):
    submission = graded(candidate, exercise_version)
    for url in (
        reverse("submissions:detail", args=[submission.pk]),
        reverse("submissions:status", args=[submission.pk]),
        reverse("submissions:list"),
    ):
        response = client.get(url)
        assert response.status_code == 302 and "login" in response["Location"], url


def test_owner_and_staff_can_see_a_submission(client, candidate, staff_author, exercise_version):
    submission = graded(candidate, exercise_version, code="def transform(x):\n    return x  # mine\n")
    for user in (candidate, staff_author):
        client.force_login(user)
        response = client.get(reverse("submissions:detail", args=[submission.pk]))
        assert response.status_code == 200 and "# mine" in response.content.decode()


# -- issue 29, finding 3: terminal escapes in a display name -----------------------------


@pytest.mark.parametrize(
    "name", ["\x1b[2J\x1b[31mroot", "evil\u202egnp.exe", "line\rover", "tab\there", "zero\u200bwidth"]
)
def test_a_display_name_with_control_characters_is_refused(candidate_client, candidate, name):
    """A display name is printed on other people's pages and terminals (`hotpath
    leaderboard`): an escape sequence in it rewrote their screen."""
    response = candidate_client.post(reverse("accounts:profile"), {"display_name": name, "show_on_leaderboards": "on"})
    assert response.status_code == 200
    assert "A display name cannot hold control characters" in response.content.decode()
    assert profile_for(candidate).display_name == ""


def test_a_display_name_of_letters_from_any_script_is_kept(candidate_client, candidate):
    candidate_client.post(reverse("accounts:profile"), {"display_name": "Zoë 李-O'Neil", "show_on_leaderboards": "on"})
    assert profile_for(candidate).display_name == "Zoë 李-O'Neil"


def test_display_names_stored_before_lose_their_control_characters(candidate):
    """The migration that brought the check cleans the names already stored, which the API
    and the leaderboards would otherwise go on serving."""
    profile = profile_for(candidate)
    Profile.objects.filter(pk=profile.pk).update(display_name="\x1b[2JPat\u202e")
    migration = importlib.import_module("accounts.migrations.0003_profile_display_name_printable")
    migration.strip_control_characters(django_apps, None)
    profile.refresh_from_db()
    assert profile.display_name == "[2JPat"
