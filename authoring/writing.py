"""Writing a question's text on the authoring pages, without the admin: a concept or
numeric question whole, a coding exercise's page (its prompt, sample answer and the
other sections; its code is saved as versions by authoring.services).

A question is checked as load_bank will read its file (the bank's own parser, on the
Markdown export would write, with a coding exercise's current spec in its front
matter), so a saved question always exports; a numeric question's unit is also
checked against the answer checker learners meet: its expected answer, typed with its
unit ("64 MiB"), must read back as right. A refusal lists every reason and saves
nothing; the form keeps what the author typed.
"""

import copy
from pathlib import Path

import yaml
from django.db import transaction

from questions import loader
from questions.loader.canonical import plain_number
from questions.models import Kind, Question, Visibility
from questions.numeric import check_numeric, physical_unit, unit_as_learners_type_it

from .errors import AuthoringError
from .models import AuthoringEvent

#: The kinds whose text is written on a form: every kind. A coding exercise's code is
#: not: it is saved as a new version, after validation in the sandbox, on its own page.
WRITTEN_KINDS = (Kind.CONCEPT, Kind.NUMERIC, Kind.CODING)

#: A small working exercise (spec.yaml and its files) that a first version starts from.
EXERCISE_TEMPLATE_DIR = Path(__file__).resolve().parent / "exercise_template"

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
    if kind != Kind.NUMERIC:
        fields.update(answer_value=None, answer_unit="", tolerance=None)
    if kind != Kind.CONCEPT:
        fields["rubric"] = []
    return fields


def exercise_spec(question):
    """The spec a coding exercise's question.md carries: its current version's, or, before
    its first version, the template's that the first version starts from."""
    current = question.current_exercise() if question is not None else None
    if current is not None:
        return current.spec
    return loader.coding_spec(yaml.safe_load((EXERCISE_TEMPLATE_DIR / "spec.yaml").read_text()), [])


def bank_problems(fields, spec=None):
    """Every reason load_bank would refuse these fields (a coding exercise's question.md
    with `spec` in its front matter), then any unit learners cannot type."""
    coding = fields["kind"] == Kind.CODING
    text = loader.render_question_markdown(fields, spec if coding else None)
    try:
        loader.parse_question_markdown(text, in_folder=coding)
    except loader.BankFileInvalid as invalid:
        return list(invalid.reasons)
    if fields["kind"] == Kind.NUMERIC:
        return unit_problems(fields["answer_value"], fields["answer_unit"], fields["tolerance"])
    return []


def question_problems(question):
    """bank_problems of a saved question (what Publish checks and the question's page lists)."""
    values = {name: getattr(question, name) for name in WRITTEN_FIELDS}
    fields = bank_fields(question.kind, question.slug, values, question)
    return bank_problems(fields, exercise_spec(question) if question.kind == Kind.CODING else None)


def check_question(kind, slug, values, question=None):
    """Every reason a save of `values` would be refused, without saving."""
    if kind not in WRITTEN_KINDS:
        return [f"a {kind} question is not written on this form"]
    reasons = []
    if question is None and Question.objects.filter(slug=slug).exists():
        reasons.append(f"the slug “{slug}” belongs to another question: choose another")
    spec = exercise_spec(question) if kind == Kind.CODING else None
    return reasons + bank_problems(bank_fields(kind, slug, values, question), spec)


def unsaved_question(kind, slug, values, question=None):
    """`question` (or a new question) with `values` written over a copy, not saved: what a
    preview shows before the author saves."""
    shown = copy.copy(question) if question is not None else Question(slug=slug, kind=Kind(kind).value)
    fields = bank_fields(shown.kind, shown.slug, values, question)
    for name in WRITTEN_FIELDS:
        setattr(shown, name, fields[name])
    shown.visibility = fields["visibility"]
    return shown


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
