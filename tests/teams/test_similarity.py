"""Copy flags (teams.similarity over teams.fingerprints): copies are flagged whatever
was renamed, swapped or re-commented; independent answers, tiny obvious answers and
the starter are not; the regions marked on each side are the code the two share; the
report compares with the model solution, public practice answers and the
organisation's other sittings, and shows both programs side by side."""

import re

import pytest
from django.urls import reverse

from submissions.models import Purpose, Submission
from submissions.services import lifecycle
from submissions.states import Status, Verdict
from teams import reports, services
from teams.fingerprints import compare, fingerprint, segments, tokens
from teams.similarity import Source, item_flags

STARTER = "def transform(values):\n    return values\n"
SOLUTION = "import numpy as np\n\ndef transform(values):\n    return np.square(values)\n"

ORIGINAL = '''import numpy as np


def transform(values):
    """Square each value, skipping the work for runs of equal values."""
    n = len(values)
    out = np.empty(n)
    last = None
    square = 0.0
    for i in range(n):
        v = values[i]
        if v != last:
            square = v * v  # only when the value changes
            last = v
        out[i] = square
    return out
'''
# The example: every name changed, two lines swapped, other comments.
RENAMED_SWAPPED = """import numpy as xp


def transform(values):
    # squares, cached
    size = len(values)
    previous = None
    result = xp.empty(size)
    cached = 0.0
    for k in range(size):
        x = values[k]
        if x != previous:
            cached = x * x
            previous = x
        result[k] = cached
    return result
"""
INDEPENDENT = """from numba import njit
import numpy as np


@njit(cache=True)
def _squares(a, out):
    for j in range(a.shape[0]):
        out[j] = a[j] ** 2
    return out


def transform(values):
    arr = np.asarray(values, dtype=np.float64)
    return _squares(arr, np.empty_like(arr))
"""
ONE_LINER = "import numpy as np\n\ndef transform(values):\n    return np.asarray(values) ** 2\n"
OTHER_ONE_LINER = "import numpy as np\n\n\ndef transform(xs):\n    # vectorised\n    return np.asarray(xs) ** 2\n"


def flags(candidates, sources=()):
    return item_flags("q", candidates, sources, starter=STARTER, solution=SOLUTION)


def test_a_renamed_copy_with_two_lines_swapped_is_flagged():
    [flag] = flags({"a": ORIGINAL, "b": RENAMED_SWAPPED})
    assert {flag.first, flag.second} == {"a", "b"}
    assert flag.score > 0.8


def test_independent_answers_are_not_flagged():
    assert flags({"a": ORIGINAL, "b": INDEPENDENT}) == []


def test_two_independent_correct_one_liners_are_not_flagged():
    """The same obvious line, written twice: alike, but too short to tell a copy from it."""
    match = compare(fingerprint(ONE_LINER), fingerprint(OTHER_ONE_LINER))
    assert match.score > 0.8  # the tokens agree...
    assert flags({"a": ONE_LINER, "b": OTHER_ONE_LINER}) == []  # ...and still no flag


def test_code_close_to_the_starter_is_not_flagged():
    """Both candidates left the starter (one renamed and re-commented it): what they share is the starter's."""
    long_starter = ORIGINAL
    edited = RENAMED_SWAPPED
    assert item_flags("q", {"a": long_starter, "b": edited}, starter=long_starter, solution=SOLUTION) == []
    assert len(item_flags("q", {"a": long_starter, "b": edited}, starter=STARTER, solution=SOLUTION)) == 1


def test_what_both_share_with_the_model_solution_does_not_count_between_candidates():
    """Two candidates who both wrote the model solution are not copies of each other; each
    is flagged against the model solution itself."""
    solution = ORIGINAL
    both = {"a": ORIGINAL, "b": RENAMED_SWAPPED}
    assert item_flags("q", both, starter=STARTER, solution=solution) == []
    sources = [Source("solution", "the exercise's model solution", solution)]
    flagged = item_flags("q", both, sources, starter=STARTER, solution=solution)
    assert sorted(flag.first for flag in flagged) == ["a", "b"]
    assert all(flag.second is sources[0] for flag in flagged)


def test_a_candidate_is_not_flagged_for_their_own_practice_answer():
    mine = Source("practice", "public practice answer #1", ORIGINAL, author="ann")
    assert item_flags("q", {"a": RENAMED_SWAPPED}, [mine], STARTER, SOLUTION, author_of=lambda key: "ann") == []
    assert len(item_flags("q", {"a": RENAMED_SWAPPED}, [mine], STARTER, SOLUTION, author_of=lambda key: "bob")) == 1


def test_the_marked_regions_are_the_shared_code_on_both_sides():
    """A copied helper beside code of one's own: the helper is marked on both sides, under
    one region number, and nothing of the rest is."""
    helper = (
        "def _prefix_max(xs):\n    best = xs[0]\n    out = []\n    for x in xs:\n        if x > best:\n"
        "            best = x\n        out.append(best)\n    return out\n"
    )
    mine = "def transform(values):\n    total = sum(values)\n    return [v / total for v in values]\n\n\n" + helper
    theirs = helper.replace("best", "top").replace("xs", "seq")
    theirs += "\n\ndef transform(values):\n    return sorted(values)[::-1]\n"
    [flag] = flags({"a": mine, "b": theirs})
    marked_a = [(text, region) for text, region in flag.first_segments() if region]
    marked_b = [(text, region) for text, region in flag.second_segments() if region]
    assert {region for _, region in marked_a} == {region for _, region in marked_b} == {1}
    assert "".join(text for text, _ in marked_a) in helper
    assert "for x in xs" in "".join(text for text, _ in marked_a)
    assert "total" not in "".join(text for text, _ in marked_a)
    assert "for x in seq" in "".join(text for text, _ in marked_b)
    assert "sorted" not in "".join(text for text, _ in marked_b)
    # The pieces put back together are the code as written.
    assert "".join(text for text, _ in flag.first_segments()) == mine


def test_segments_rebuild_the_code_and_tokens_point_into_it():
    code = "x = 1  # one\ny = 'a'\n"
    assert [t.text for t in tokens(code)] == ["N", "=", "NUM", "NEWLINE", "N", "=", "STR", "NEWLINE"]
    assert [code[t.start : t.end] for t in tokens(code)][:3] == ["x", "=", "1"]
    assert segments(code, ()) == [(code, None)]


def test_keyword_arguments_and_imported_names_are_kept_as_written():
    names = [t.text for t in tokens("from m import f\nf(x, axis=1)\n")]
    assert names == ["from", "m", "import", "f", "NEWLINE", "f", "(", "N", ",", "axis", "=", "NUM", ")", "NEWLINE"]


def test_code_that_does_not_tokenise_is_compared_up_to_the_error():
    broken = ORIGINAL + "    return (\n"
    assert len(flags({"a": broken, "b": RENAMED_SWAPPED})) == 1


# The report --------------------------------------------------------------------------------------


def _grade(submission):
    return lifecycle.finish(
        submission,
        {
            "verdict": Verdict.ACCEPTED,
            "speedup": 2.0,
            "speedup_ci": [1.8, 2.2],
            "message": "ok",
            "peak_memory_bytes": 2**20,
            "reference_peak_memory_bytes": 2**20,
            "hardware": "cpu",
        },
    )


def _sit(invite, user, item, code, assessment=None):
    invitation, _ = invite(user.email, assessment) if assessment else invite(user.email)
    sitting = services.start_session(invitation, user)
    _grade(services.submit_code(sitting, item, code))
    return sitting


@pytest.mark.django_db
def test_the_report_flags_copies_of_a_practice_answer_and_of_another_sitting(
    client, hiring_manager, organisation, items, invite, make_user, clock
):
    coding = items[2]
    author = make_user("author")
    practice = Submission.objects.create(
        user=author,
        exercise=coding.exercise_version,
        code=ORIGINAL,
        purpose=Purpose.PRACTICE,
        status=Status.DONE,
        verdict=Verdict.ACCEPTED,
    )
    copier = _sit(invite, make_user("copier"), coding, RENAMED_SWAPPED)
    _sit(invite, make_user("honest"), coding, INDEPENDENT)

    client.force_login(hiring_manager)
    response = client.get(reverse("teams:report", args=[organisation.slug, coding.assessment.pk]))
    found = response.context["flags"]
    assert [(flag.first, flag.second.label) for flag in found] == [(copier, f"public practice answer #{practice.pk}")]
    page = response.content.decode()
    assert page.count('class="similarity-flag"') == 1
    assert re.search(r'<mark class="match match-odd" title="Shared region 1">', page)
    assert "honest@example.com" not in page.split('id="similarity"')[1]

    # Each candidate's own report lists the flags they are in, with the same marked regions.
    copier_page = client.get(reverse("teams:candidate_report", args=[organisation.slug, copier.pk]))
    assert [flag.first for flag in copier_page.context["flags"]] == [copier]
    assert re.search(r'<mark class="match match-odd" title="Shared region 1">', copier_page.content.decode())
    honest = copier.assessment.sessions.exclude(pk=copier.pk).get()
    honest_page = client.get(reverse("teams:candidate_report", args=[organisation.slug, honest.pk])).content.decode()
    assert "No similar code found for this candidate." in honest_page


@pytest.mark.django_db
def test_the_report_compares_with_the_organisations_other_sittings(
    client,
    hiring_manager,
    organisation,
    assessment,
    items,
    invite,
    make_user,
    coding_question,
    concept_question,
    numeric_question,
    clock,
):
    from teams.models import Assessment

    other = Assessment.objects.create(
        organisation=organisation,
        title="Last year's screen",
        instructions="",
        time_limit_minutes=60,
        opens_at=assessment.opens_at,
        closes_at=assessment.closes_at,
        created_by=hiring_manager,
    )
    services.add_question(other, coding_question)
    other = services.publish_assessment(other, hiring_manager)
    earlier = _sit(invite, make_user("earlier"), other.items.get(), ORIGINAL, assessment=other)
    copier = _sit(invite, make_user("copier"), items[2], RENAMED_SWAPPED)

    [flag] = reports.assessment_similarity(assessment, reports.assessment_reports(assessment))
    assert flag.first == copier and flag.second.session == earlier
    client.force_login(hiring_manager)
    page = client.get(reverse("teams:report", args=[organisation.slug, assessment.pk])).content.decode()
    assert reverse("teams:candidate_report", args=[organisation.slug, earlier.pk]) in page
    assert "Last year&#x27;s screen" in page or "Last year's screen" in page
