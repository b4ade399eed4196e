"""The submission page's "Where the time went": the harness's profile of the
learner's own functions as a table, or why there is none."""

import pytest
from django.urls import reverse

from submissions.models import Submission
from submissions.states import Status, Verdict

CODE = "def scale(x):\n    return x * 3.0 + 1.0\n"
REPORT = {
    "verdict": Verdict.ACCEPTED,
    "message": "Correct on every input.",
    "speedup": 12.5,
    "speedup_ci": [11.0, 14.0],
    "peak_memory_bytes": 1024**2,
    "reference_peak_memory_bytes": 1024**2,
    "hardware": "cpu",
    "mode": "full",
    "failure": None,
    "sizes": [{"size": 8000, "time_s": 4e-5, "reference_time_s": 4e-3, "speedup": 100.0, "correct": True}],
}
PROFILE = {
    "status": "done",
    "reason": "",
    "size": 8000,
    "seconds": 0.01,
    "functions": [
        {"function": "scale", "line": 1, "calls": 1, "own_s": 0.0004, "cumulative_s": 0.009},
        {"function": "helper_in_a_loop", "line": 7, "calls": 8000, "own_s": 0.0086, "cumulative_s": 0.0086},
    ],
}


def page(client, user, exercise_version, report):
    submission = Submission.objects.create(
        user=user, exercise=exercise_version, code=CODE, status=Status.DONE, verdict=report["verdict"], report=report
    )
    return client.get(reverse("submissions:detail", args=[submission.pk])).content.decode()


def test_a_profile_is_a_table_of_the_learners_functions(candidate_client, candidate, exercise_version):
    html = page(candidate_client, candidate, exercise_version, {**REPORT, "profile": PROFILE})
    assert "Where the time went" in html and "on the input of size 8000" in html
    assert "<code>helper_in_a_loop</code>" in html and ">8000<" in html and "8.6 ms" in html


def test_the_lines_of_a_profile_are_a_table_with_each_lines_share(candidate_client, candidate, exercise_version):
    lines = [
        {"line": 2, "code": "y = x * 2.0", "hits": 1, "seconds": 0.0062},
        {"line": 3, "code": "y += 1.0 <script>", "hits": 1, "seconds": 0.0019},
    ]
    html = page(
        candidate_client,
        candidate,
        exercise_version,
        {**REPORT, "profile": {**PROFILE, "lines": lines, "traced_s": 0.01}},
    )
    assert "Line by line" in html and "By function" in html
    assert "<code>y = x * 2.0</code>" in html and "6.2 ms" in html and ">62%<" in html and ">19%<" in html
    assert "<code>y += 1.0 &lt;script&gt;</code>" in html  # the learner's text, escaped


def test_a_profile_with_lines_only_still_shows_them(candidate_client, candidate, exercise_version):
    lines = [{"line": 2, "code": "y = x * 2.0", "hits": 1, "seconds": 0.005}]
    html = page(
        candidate_client,
        candidate,
        exercise_version,
        {**REPORT, "profile": {**PROFILE, "functions": [], "lines": lines}},
    )
    assert "Line by line" in html and "By function" not in html and "none of the time was spent" not in html


@pytest.mark.parametrize(
    "reason", ["Not enough of the time limit was left for a profiled call (0.4 s left, about 2.0 s needed)."]
)
def test_a_skipped_profile_says_why(candidate_client, candidate, exercise_version, reason):
    skipped = {"status": "skipped", "reason": reason, "size": None, "seconds": None, "functions": []}
    html = page(candidate_client, candidate, exercise_version, {**REPORT, "profile": skipped})
    assert "Where the time went" in html and "No profile this time" in html and "0.4 s left" in html
    assert "profile-table" not in html


def test_no_profile_section_for_older_reports(candidate_client, candidate, exercise_version):
    assert "Where the time went" not in page(candidate_client, candidate, exercise_version, REPORT)
