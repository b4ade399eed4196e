"""Issue 12, finding 6: assessment answers were public. Every assessment question
was a live question of the public bank, so a candidate in a timed sitting could
find it by its title and get "Expected: <value>" (or the sample answer and
rubric) from one practice guess. An assessment-only question is on no public
page: browse and search, the question page and its practice answers, code
submission, drafts, progress, the home page and the leaderboards; and the
candidate's own pages never show its answer."""

from datetime import timedelta

import pytest
from django.urls import reverse

from questions import loader
from questions.models import Attempt, ExerciseVersion, Kind, Question, Visibility
from submissions.models import Submission
from teams import services
from teams.forms import AddQuestionForm
from teams.models import Assessment

from .conftest import START, STARTER

pytestmark = pytest.mark.django_db

SECRET_VALUE = 7340032
SECRET_SAMPLE = "The private sample answer: a ring buffer of 4096 slots."
SECRET_RUBRIC = "Mentions the private rubric point"
SECRET_SOLUTION = (
    "import numpy as np\n\ndef transform(values):\n    return np.square(values)  # private model solution\n"
)


def private(**fields):
    return Question.objects.create(
        topic="Technical Foundation and Self Assessment",
        difficulty="medium",
        visibility=Visibility.ASSESSMENT,
        **fields,
    )


@pytest.fixture
def private_questions():
    concept = private(
        slug="private-ring-buffer",
        title="Private: size the ring buffer",
        kind=Kind.CONCEPT,
        prompt="How would you size it?",
        sample_answer=SECRET_SAMPLE,
        rubric=[SECRET_RUBRIC],
    )
    numeric = private(
        slug="private-bytes",
        title="Private: bytes in 7 MiB",
        kind=Kind.NUMERIC,
        prompt="How many bytes are in 7 MiB?",
        sample_answer="7 × 2^20",
        explanation="Seven mebibytes.",
        answer_value=SECRET_VALUE,
        answer_unit="bytes",
        tolerance=0.01,
    )
    coding = private(slug="private-square", title="Private: square the values", kind=Kind.CODING, prompt="Square them.")
    ExerciseVersion.objects.create(
        question=coding,
        number=1,
        spec={"target": "cpu", "entry_point": "transform", "sizes": [1000], "graded_on": ["time"]},
        reference_code="def transform(values):\n    return [v * v for v in values]\n",
        starter_code=STARTER,
        inputs_code="def make_inputs(size, seed):\n    return (list(range(size)),)\n",
        solution_code=SECRET_SOLUTION,
        content_hash="private-1",
    )
    return concept, numeric, coding


@pytest.fixture
def private_session(organisation, hiring_manager, private_questions, candidate, clock):
    assessment = Assessment.objects.create(
        organisation=organisation,
        title="Confidential screen",
        time_limit_minutes=60,
        opens_at=START - timedelta(hours=1),
        closes_at=START + timedelta(days=7),
        created_by=hiring_manager,
    )
    for question in private_questions:
        services.add_question(assessment, question)
    services.publish_assessment(assessment, hiring_manager)
    invitation = services.invite_candidate(assessment, candidate.email, hiring_manager, lambda token: token)
    return services.start_session(invitation, candidate)


def test_a_candidate_in_a_sitting_cannot_find_or_answer_the_questions_publicly(
    candidate_client, private_session, private_questions
):
    concept, numeric, coding = private_questions
    for question in private_questions:
        found = candidate_client.get(reverse("questions:browse"), {"q": question.title})
        assert reverse("questions:detail", args=[question.slug]) not in found.content.decode()
        assert candidate_client.get(reverse("questions:detail", args=[question.slug])).status_code == 404

    guess = candidate_client.post(reverse("questions:detail", args=[numeric.slug]), {"value": "1", "confidence": "3"})
    assert guess.status_code == 404
    revealed = candidate_client.post(reverse("questions:detail", args=[concept.slug]), {"answer": "a guess"})
    assert revealed.status_code == 404
    assert not Attempt.objects.exists()
    draft = candidate_client.post(reverse("questions:save_draft", args=[concept.slug]), {"text": "x"})
    assert draft.status_code == 404

    practice = candidate_client.post(reverse("submissions:submit", args=[coding.slug]), {"code": STARTER})
    assert practice.status_code == 404
    assert not Submission.objects.exists()


def test_the_questions_are_on_no_public_listing(client, candidate_client, private_session, private_questions):
    _, _, coding = private_questions
    services.submit_code(private_session, private_session.assessment.items.get(question=coding), STARTER)
    pages = {
        "home": client.get(reverse("home")),
        "browse": client.get(reverse("questions:browse")),
        "leaderboards": client.get(reverse("leaderboards:index")),
        "progress": candidate_client.get(reverse("questions:progress")),
    }
    for name, page in pages.items():
        assert page.status_code == 200, name
        for question in private_questions:
            assert question.title not in page.content.decode(), f"{question.title} on {name}"
    assert client.get(reverse("leaderboards:exercise", args=[coding.slug])).status_code == 404


def test_the_api_does_not_serve_them(client, private_questions):
    _, _, coding = private_questions
    for question in private_questions:
        assert client.get(reverse("api:question", args=[question.slug])).status_code == 404
    assert client.get(reverse("api:exercise", args=[coding.slug])).status_code == 404
    assert client.get(reverse("api:exercise_board", args=[coding.slug])).status_code == 404
    listed = client.get(reverse("api:questions"), {"page_size": 100}).content.decode()
    assert not any(question.slug in listed for question in private_questions)


def test_the_candidates_own_pages_never_show_the_answers(candidate_client, private_session, private_questions):
    secrets = (str(SECRET_VALUE), "7,340,032", "7.34", SECRET_SAMPLE, SECRET_RUBRIC, "private model solution")
    number_of_items = len(private_questions)
    pages = [
        candidate_client.get(reverse("teams:take_question", args=[private_session.pk, n]))
        for n in range(1, number_of_items + 1)
    ]
    saved = candidate_client.post(
        reverse("teams:save_answer", args=[private_session.pk, 2]),
        {"numeric_input": "1 byte"},
        HTTP_ACCEPT="application/json",
    )
    pages.append(saved)
    pages.append(candidate_client.post(reverse("teams:finish", args=[private_session.pk]), follow=True))
    for page in pages:
        assert page.status_code == 200
        for secret in secrets:
            assert secret not in page.content.decode()


def test_teams_choose_assessment_only_questions_first_and_see_which_are_public(
    client, hiring_manager, private_questions, concept_question, draft_assessment
):
    form = AddQuestionForm()
    labels = [form.fields["question"].label_from_instance(question) for question in form.fields["question"].queryset]
    assert labels[0].endswith("· assessment-only")
    assert any(label.startswith("[Concept] Amortised cost") and "assessment-only" not in label for label in labels)

    client.force_login(hiring_manager)
    page = client.get(draft_assessment.get_absolute_url()).content.decode()
    assert "public bank: a candidate can practise it there and see its answer" in page


def test_the_bank_marks_assessment_only_questions_in_front_matter(tmp_path):
    markdown = (
        "---\nslug: private-bytes\ntitle: Bytes in 7 MiB\ntopic: Technical Foundation and Self Assessment\n"
        "tags: []\ndifficulty: easy\nkind: numeric\nvisibility: assessment\nanswer: 7340032\nunit: bytes\ntolerance: 0.01\n---\n"
        "# Prompt\n\nHow many bytes?\n\n# Sample answer\n\n7 MiB.\n\n# Explanation\n\n7 × 2^20.\n"
    )
    fields, spec = loader.parse_question_markdown(markdown, in_folder=False)
    assert fields["visibility"] == Visibility.ASSESSMENT and "visibility" not in fields["extra"]
    assert "visibility: assessment" in loader.render_question_markdown(fields, spec)

    public, _ = loader.parse_question_markdown(markdown.replace("visibility: assessment\n", ""), in_folder=False)
    assert public["visibility"] == Visibility.PUBLIC
    assert "visibility" not in loader.render_question_markdown(public, None)  # public files keep their content hash

    with pytest.raises(loader.BankFileInvalid, match="bad visibility 'secret'"):
        loader.parse_question_markdown(
            markdown.replace("visibility: assessment", "visibility: secret"), in_folder=False
        )
