"""Writing concept and numeric questions on the authoring pages, without the admin.

A question is checked as load_bank will read its file (the bank's own parser, on the
Markdown export would write), so a saved question always exports; a numeric question's
unit is also checked against the answer checker learners meet: its expected answer,
typed with its unit ("64 MiB"), must read back as right. A refusal lists every reason
and saves nothing; the form keeps what the author typed.
"""

from django.db import transaction

from questions import loader
from questions.loader.canonical import plain_number
from questions.models import Kind, Question, Visibility
from questions.numeric import check_numeric, physical_unit, unit_as_learners_type_it

from .errors import AuthoringError
from .models import AuthoringEvent

#: The kinds written on a form; a coding exercise has its own pages (code and versions).
WRITTEN_KINDS = (Kind.CONCEPT, Kind.NUMERIC)

#: What the form sets. Slug and kind are fixed once the question exists (attempts and
#: addresses point at them); visibility changes only by Publish / Unpublish.
WRITTEN_FIELDS = (
    "title",
    "topic",
    "tags",
    "difficulty",
    "prompt",
    "sample_answer",
    "explanation",
    "hints",
    "rubric",
    "answer_value",
    "answer_unit",
    "tolerance",
)


def unit_problems(answer, unit, tolerance):
    """Why learners could not answer with `unit` (an empty list when they can): the
    expected answer typed with its unit goes through the learners' checker."""
    typed = f"{plain_number(float(answer))} {unit}"
    check = check_numeric(typed, answer=answer, unit=unit, tolerance=tolerance)
    if check.ok and check.correct:
        return []
    respelt = unit_as_learners_type_it(unit)
    advice = (
        f" Write the unit as “{respelt}”, the way the checker reads it when a learner types it."
        if respelt != unit and physical_unit(respelt) is not None
        else ""
    )
    found = f"would be refused: {check.error}" if check.error else "would be marked wrong"
    return [f"Learners could not type this answer with its unit: “{typed}” {found}{advice}"]


def bank_fields(kind, slug, values, question=None):
    """The question's fields as a bank entry holds them: `values` (WRITTEN_FIELDS) over
    what the form does not set, the fields of the other kind emptied."""
    fields = {
        # Plain strings, as the bank's YAML writer takes them.
        "slug": slug,
        "kind": Kind(kind).value,
        "explanation": "",
        "hints": "",
        "tags": [],
        "visibility": Visibility(question.visibility if question else Visibility.ASSESSMENT).value,
        "extra": question.extra if question else {},
        **{name: values.get(name) for name in WRITTEN_FIELDS if name in values},
    }
    if kind == Kind.CONCEPT:
        fields.update(answer_value=None, answer_unit="", tolerance=None)
    else:
        fields["rubric"] = []
    return fields


def bank_problems(fields):
    """Every reason load_bank would refuse these fields, then any unit learners cannot type."""
    text = loader.render_question_markdown(fields, None)
    try:
        loader.parse_question_markdown(text, in_folder=False)
    except loader.BankFileInvalid as invalid:
        return list(invalid.reasons)
    if fields["kind"] == Kind.NUMERIC:
        return unit_problems(fields["answer_value"], fields["answer_unit"], fields["tolerance"])
    return []


def question_problems(question):
    """bank_problems of a saved question (what Publish checks)."""
    values = {name: getattr(question, name) for name in WRITTEN_FIELDS}
    return bank_problems(bank_fields(question.kind, question.slug, values, question))


def check_question(kind, slug, values, question=None):
    """Every reason a save of `values` would be refused, without saving."""
    if kind not in WRITTEN_KINDS:
        return [f"a {kind} question is not written on this form"]
    reasons = []
    if question is None and Question.objects.filter(slug=slug).exists():
        reasons.append(f"the slug “{slug}” belongs to another question: choose another")
    return reasons + bank_problems(bank_fields(kind, slug, values, question))


def save_question(kind, slug, values, user, question=None):
    """Create a question (private until published) or change `question`, and record who
    did. Raises AuthoringError, nothing saved, with every reason it was refused."""
    if question is not None:
        kind, slug = question.kind, question.slug
    reasons = check_question(kind, slug, values, question)
    if reasons:
        raise AuthoringError("Not saved: fix what is listed (what you typed is kept).", reasons)
    fields = bank_fields(kind, slug, values, question)
    created = question is None
    with transaction.atomic():
        if created:
            question = Question(slug=slug, kind=fields["kind"], visibility=fields["visibility"])
        for name in WRITTEN_FIELDS:
            setattr(question, name, fields[name])
        question.save()
        AuthoringEvent.objects.create(
            user=user,
            question=question,
            action=AuthoringEvent.Action.CREATED if created else AuthoringEvent.Action.EDITED,
        )
    return question
