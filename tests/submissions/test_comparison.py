"""Did the change help? An accepted answer's page compares it with the learner's
previous accepted answer graded alike, and says "faster" or "slower" only when
the two 95% intervals do not overlap."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from questions.models import ExerciseVersion
from submissions import comparison
from submissions.models import Purpose, Submission
from submissions.states import Status, Verdict

pytestmark = pytest.mark.django_db

START = timezone.now() - timedelta(days=1)


@pytest.fixture
def grade(candidate, exercise_version):
    made = []

    def make(
        speedup,
        low,
        high,
        user=None,
        exercise=None,
        purpose=Purpose.PRACTICE,
        verdict=Verdict.ACCEPTED,
        hardware="cpu",
        harness_version="1.9",
        code=None,
    ):
        report = {
            "verdict": verdict,
            "message": "",
            "speedup": speedup,
            "speedup_ci": [low, high],
            "sizes": [],
            "peak_memory_bytes": None,
            "reference_peak_memory_bytes": None,
            "failure": None,
            "hint": "",
            "mode": "full",
            "hardware": hardware,
            "harness_version": harness_version,
        }
        submission = Submission.objects.create(
            user=user or candidate,
            exercise=exercise or exercise_version,
            status=Status.DONE,
            code=code or f"x = {len(made)}\n",  # another program each time, unless told
            purpose=purpose,
            verdict=verdict,
            report=report,
            speedup=speedup,
            speedup_ci_low=low,
            speedup_ci_high=high,
            hardware=hardware,
        )
        # One minute apart, in the order made: the comparison looks back in time.
        Submission.objects.filter(pk=submission.pk).update(created_at=START + timedelta(minutes=len(made)))
        made.append(submission)
        submission.refresh_from_db()
        return submission

    return make


def test_a_gain_beyond_both_intervals_is_called_faster(grade):
    previous = grade(40.0, 38.0, 42.0)
    latest = grade(80.0, 76.0, 84.0)
    found = comparison.against_previous(latest)
    assert (found.previous, found.ratio, found.outcome) == (previous, 2.0, comparison.FASTER)
    assert comparison.against_previous(previous) is None  # nothing before the first


def test_a_loss_beyond_both_intervals_is_called_slower(grade):
    grade(40.0, 38.0, 42.0)
    found = comparison.against_previous(grade(32.0, 30.0, 34.0))
    assert (found.outcome, found.ratio, found.slowdown) == (comparison.SLOWER, 0.8, 1.25)


def test_overlapping_intervals_are_not_called_either(grade):
    grade(40.0, 36.0, 44.0)
    assert comparison.against_previous(grade(46.0, 43.0, 49.0)).outcome == comparison.UNCLEAR
    # touching is overlapping: 49.0 is in both intervals
    assert comparison.against_previous(grade(52.0, 49.0, 55.0)).outcome == comparison.UNCLEAR


def test_the_latest_earlier_answer_is_the_one_compared(grade):
    grade(10.0, 9.0, 11.0)
    middle = grade(20.0, 19.0, 21.0)
    assert comparison.against_previous(grade(40.0, 38.0, 42.0)).previous == middle


def test_only_like_is_compared_with_like(grade, outsider, exercise_version):
    other_version = ExerciseVersion.objects.create(
        question=exercise_version.question,
        number=2,
        spec=exercise_version.spec,
        reference_code="",
        starter_code="",
        inputs_code="",
        solution_code="",
        content_hash="v2",
    )
    grade(40.0, 38.0, 42.0, user=outsider)
    grade(40.0, 38.0, 42.0, exercise=other_version)
    grade(40.0, 38.0, 42.0, purpose=Purpose.ASSESSMENT)
    grade(40.0, 38.0, 42.0, purpose=Purpose.VALIDATION)
    grade(None, None, None, purpose=Purpose.QUICK_CHECK)
    grade(40.0, 38.0, 42.0, hardware="NVIDIA H200")
    grade(40.0, 38.0, 42.0, harness_version="1.8")
    grade(40.0, 38.0, 42.0, verdict=Verdict.WRONG_ANSWER)
    latest = grade(80.0, 76.0, 84.0)
    assert comparison.against_previous(latest) is None
    # and an answer that is not itself a comparable practice grading gets no comparison
    assert comparison.against_previous(grade(80.0, 76.0, 84.0, purpose=Purpose.ASSESSMENT)) is None


def test_the_page_says_faster_with_both_intervals_and_links_the_previous_answer(candidate_client, grade):
    previous = grade(40.0, 38.0, 42.0)
    latest = grade(80.0, 76.0, 84.0)
    html = candidate_client.get(reverse("submissions:detail", args=[latest.pk])).content.decode()
    section = html[
        html.index('id="against-previous-title"') : html.index("</section>", html.index('id="against-previous-title"'))
    ]
    text = " ".join(section.split())
    assert "<strong>2.00× faster</strong> than your previous accepted answer" in text
    assert f'<a href="/submissions/{previous.pk}/">submission {previous.pk}</a>' in text
    assert "it read 40.0× the reference's speed (95% CI 38.0–42.0×), this one 80.0× (76.0–84.0×)" in text
    assert "do not overlap, so the difference is your change" in text
    # the live status endpoint renders the same report once the row is final
    status = candidate_client.get(reverse("submissions:status", args=[latest.pk])).json()
    assert "2.00× faster</strong>" in status["report_html"]
    first = candidate_client.get(reverse("submissions:detail", args=[previous.pk])).content.decode()
    assert "against-previous" not in first


def test_the_page_says_when_it_cannot_tell(candidate_client, grade):
    grade(40.0, 36.0, 44.0)
    latest = grade(41.0, 37.0, 45.0)
    text = " ".join(candidate_client.get(reverse("submissions:detail", args=[latest.pk])).content.decode().split())
    assert "<strong>No difference this grading can tell</strong> from your previous accepted answer" in text
    assert "The two intervals overlap, so the 1.02× between them may be the machine's noise" in text


def test_the_exercise_page_lists_each_previous_speedup_with_its_interval(candidate_client, grade, exercise_version):
    grade(40.0, 38.0, 42.0)
    grade(None, None, None, purpose=Purpose.QUICK_CHECK)
    html = candidate_client.get(exercise_version.question.get_absolute_url()).content.decode()
    table = html[html.index("Your previous submissions") :]
    table = table[: table.index("</table>")]
    assert '<th scope="col" class="num">Speedup (95% CI)</th>' in table
    assert '<td class="num">40.0× <span class="muted">(38.0–42.0×)</span></td>' in table
    assert '<td class="num">–</td>' in table  # the quick check: no figure, no interval


def test_the_same_code_graded_again_is_called_the_same_code_whatever_the_intervals(candidate_client, grade):
    """Graded twice on a busy machine, one program read 26.5x and 41.3x; with intervals
    apart, "the difference is your change" would have been false."""
    grade(26.5, 24.9, 30.0, code="import numpy as np\n\ndef transform(x):\n    return np.square(2.0 * x + 1.0)\n")
    latest = grade(
        41.3,
        38.0,
        44.0,
        code="import numpy as np\n\n\ndef transform(values):  # tidied\n    return np.square(2.0 * values + 1.0)\n",
    )
    found = comparison.against_previous(latest)
    assert found.outcome == comparison.SAME_CODE and found.ratio == pytest.approx(41.3 / 26.5)
    text = " ".join(candidate_client.get(reverse("submissions:detail", args=[latest.pk])).content.decode().split())
    assert "<strong>The same code</strong> as your previous accepted answer" in text
    assert "the gap between the two figures is the machine's noise, not a change of yours" in text
    assert "the difference is your change" not in text and "so they compare even when" not in text
