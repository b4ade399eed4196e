"""A candidate codes in the same editor as in practice, and a failed submission
shows its traceback or the line at fault, on the page and in the live update."""

import pytest
from django.urls import reverse

from submissions.services import lifecycle
from submissions.states import Verdict
from teams import services

pytestmark = pytest.mark.django_db


def test_the_coding_question_uses_the_code_editor(candidate_client, session, items):
    html = candidate_client.get(reverse("teams:take_question", args=[session.pk, 3])).content.decode()
    assert 'id="code-editor"' in html and 'data-language="python"' in html
    assert "vendor/editor/editor.bundle.js" in html
    assert 'data-action="submit"' in html  # the editor's Ctrl+Enter presses it


def test_a_runtime_error_shows_its_traceback_and_a_syntax_error_its_line(candidate_client, session, items):
    raising = services.submit_code(session, items[2], "def transform(v):\n    return v[10**9]\n")
    lifecycle.finish(
        raising,
        {
            "verdict": Verdict.RUNTIME_ERROR,
            "message": "Your code raised IndexError on edge size 0.",
            "failure": {
                "traceback": 'File "solution.py", line 2, in transform\nIndexError: index 1000000000 is out of bounds'
            },
        },
    )
    broken = services.submit_code(session, items[2], "def transform(v):\n    return (v +\n")
    lifecycle.finish(
        broken,
        {
            "verdict": Verdict.SYNTAX_ERROR,
            "message": "Syntax error at line 2: '(' was never closed.",
            "failure": {"line": 2},
        },
    )

    html = candidate_client.get(reverse("teams:take_question", args=[session.pk, 3])).content.decode()
    assert "raised IndexError on a tiny input (size 0)." in html
    assert "<summary>Traceback</summary>" in html and "line 2, in transform" in html
    assert '<span class="source-line-bad">   2 &gt;     return (v +</span>' in html

    rows = candidate_client.get(reverse("teams:submission_status", args=[session.pk, 3])).json()["submissions"]
    feedback = {row["verdict"]: row["feedback_html"] for row in rows}
    assert "line 2, in transform" in feedback[Verdict.RUNTIME_ERROR]
    assert "source-line-bad" in feedback[Verdict.SYNTAX_ERROR]


def test_the_candidates_code_is_kept_as_they_type(candidate_client, session, items):
    url = reverse("teams:save_answer", args=[session.pk, 3])
    typed = "def transform(v):\n    return v  # halfway\n"
    response = candidate_client.post(url, {"text": typed}, HTTP_ACCEPT="application/json")
    assert response.status_code == 200 and response.json()["saved"] is True
    html = candidate_client.get(reverse("teams:take_question", args=[session.pk, 3])).content.decode()
    assert "return v  # halfway" in html and "Code kept" in html
    assert 'class="answered"' not in html.split('aria-label="Questions"')[1].split("</nav>")[0]  # typed is not answered


def test_code_longer_than_a_submission_is_not_kept(candidate_client, session, items, settings):
    settings.SUBMISSION_MAX_BYTES = 1024
    response = candidate_client.post(
        reverse("teams:save_answer", args=[session.pk, 3]), {"text": "#" * 2000}, HTTP_ACCEPT="application/json"
    )
    assert response.status_code == 409 and "longer than a submission" in response.json()["error"]
