"""Staff pages for question authors: write and edit any question's text (a concept or
numeric question whole, a coding exercise's prompt and sample answer), validate a
coding exercise's code in the sandbox and save an edit of it as a new ExerciseVersion,
preview any question as a learner reads it, publish or unpublish it, and export it
back to the bank.

Authors are staff with the permission authoring.author_questions (the "Authors"
group, created by a data migration, grants it); they need not be superusers.
An edit never mutates a version: submissions and reports stay tied to the
version they were graded on. Files under questions/bank/ stay the source, so
an edit made here should be exported, or the next load_bank puts the file back.
"""

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from questions.forms import ConceptAnswerForm, NumericAnswerForm
from questions.models import Kind, Question

from . import services, writing
from .forms import ExerciseEditForm, QuestionForm
from .services import AuthoringError

AUTHOR_PERMISSION = "authoring.author_questions"


def author_required(view):
    @wraps(view)
    @login_required
    def wrapper(request, *args, **kwargs):
        if not (request.user.is_staff and request.user.has_perm(AUTHOR_PERMISSION)):
            raise PermissionDenied("Authoring is for staff in the Authors group.")
        return view(request, *args, **kwargs)

    return wrapper


@author_required
def index(request):
    """Every question an author may edit, of every kind, with where it stands."""
    questions = Question.objects.live().order_by("kind", "topic", "title")
    rows = [(question, services.question_state(question)) for question in questions]
    return render(request, "authoring/index.html", {"rows": rows, "left_out": services.left_out_entries()})


@author_required
def new_question(request, kind):
    """Write a question of any kind; it is private until published. A coding exercise's
    page comes first, then its code (from a template) on the edit page."""
    if kind not in writing.WRITTEN_KINDS:
        raise Http404(f"No such kind of question: {kind}.")
    form = QuestionForm(request.POST or None, kind=kind)
    preview = None
    if request.method == "POST" and form.is_valid():
        question, preview = _save_or_check(request, form, kind, form.cleaned_data["slug"])
        if question is not None and kind == Kind.CODING:
            messages.success(
                request,
                f"“{question.title}” saved, private until you publish it. Now write its code: "
                "the form starts from a working template.",
            )
            return redirect("authoring:edit", question.slug)
        if question is not None:
            messages.success(
                request, f"“{question.title}” saved, private until you publish it. Preview it, then publish."
            )
            return redirect("authoring:exercise", question.slug)
    return _question_form_page(request, form, kind, None, preview)


@author_required
def new_exercise(request):
    """A new coding exercise (the index's "New coding exercise")."""
    return new_question(request, Kind.CODING)


def _question_form_page(request, form, kind, question, preview):
    context = {"form": form, "kind": Kind(kind), "question": question, "preview": preview}
    if preview is not None:
        context.update(_learner_view(preview))
    return render(request, "authoring/question_form.html", context)


def _save_or_check(request, form, kind, slug, question=None):
    """Save the form's question, or with "check" run the checks and build the unsaved
    question to preview as a learner reads it. Returns (saved question or None, preview or
    None); a refusal's every reason is added to the form, which keeps what was typed."""
    preview = None
    try:
        if "check" in request.POST:
            preview = writing.unsaved_question(kind, slug, form.values(), question)
            reasons = writing.check_question(kind, slug, form.values(), question)
            if reasons:
                raise AuthoringError("Not ready: fix what is listed.", reasons)
            messages.success(
                request,
                "Every check passes: the bank will load it"
                + (" and learners can type its answer." if kind == Kind.NUMERIC else ".")
                + " The preview below is what learners will read. Nothing was saved.",
            )
            return None, preview
        return writing.save_question(kind, slug, form.values(), request.user, question), None
    except AuthoringError as error:
        form.add_error(None, error.message)
        for reason in error.reasons:
            form.add_error(None, reason)
    return None, preview


@author_required
def exercise(request, slug):
    question = get_object_or_404(Question, slug=slug)
    return render(request, "authoring/exercise.html", _exercise_context(question))


@author_required
def preview(request, slug):
    """The question as a learner will read it, private drafts included: its text,
    hints and, for a coding exercise, the current version's starter code."""
    question = get_object_or_404(Question, slug=slug)
    return render(request, "authoring/preview.html", {"question": question, **_learner_view(question)})


def _learner_view(question):
    """What authoring/_learner_view.html needs to show `question` (saved or not) as a learner reads it."""
    context = {"shown": question, "current": question.current_exercise() if question.pk else None}
    # The answer form a learner fills in, shown disabled.
    if question.kind == Kind.NUMERIC:
        context["answer_form"] = NumericAnswerForm(unit=question.answer_unit)
    elif question.kind == Kind.CONCEPT:
        context["answer_form"] = ConceptAnswerForm()
    return context


def _exercise_context(question, export_error=None):
    return {
        "question": question,
        "versions": question.exercise_versions.all() if question.kind == Kind.CODING else [],
        "current": question.current_exercise(),
        "state": services.question_state(question),
        # What Publish and Export would refuse, shown before the author tries.
        "problems": writing.question_problems(question) if question.kind in writing.WRITTEN_KINDS else [],
        "events": question.authoring_events.select_related("user", "exercise_version")[:20],
        # Why the last load_bank left its file out, if it did.
        "left_out": services.left_out_entries(question),
        "export_error": export_error,
    }


@author_required
@require_POST
def validate(request, slug):
    question = get_object_or_404(Question, slug=slug, kind=Kind.CODING)
    version = question.current_exercise()
    if version is None:
        messages.error(request, "This exercise has no version to validate.")
        return redirect("authoring:exercise", slug)
    result = services.validate_version(version, request.user)
    if result.ok:
        messages.success(request, "Validation passed: the model solution was accepted against the reference.")
    else:
        messages.error(request, f"Validation failed: {result.message}")
    return redirect("authoring:exercise", slug)


@author_required
def edit(request, slug):
    """A coding exercise's code as a new version; any other question's form."""
    question = get_object_or_404(Question, slug=slug)
    if question.kind != Kind.CODING:
        return _edit_question(request, question)
    return _edit_code(request, question)


@author_required
def edit_text(request, slug):
    """A coding exercise's page (prompt, sample answer, the other sections, title, topic)."""
    return _edit_question(request, get_object_or_404(Question, slug=slug, kind=Kind.CODING))


def _edit_code(request, question):
    slug = question.slug
    current = question.current_exercise()
    form = ExerciseEditForm(request.POST or None, initial=ExerciseEditForm.initial_for(current))
    validation = None
    if request.method == "POST" and form.is_valid():
        spec, files = form.cleaned_data["spec"], form.files_dict()
        try:
            if "save" in request.POST:
                version = services.create_version(question, spec, files, request.user)
                messages.success(
                    request, f"Saved as version {version.number}. Export it to the bank to keep the files the source."
                )
                return redirect("authoring:exercise", slug)
            validation = services.validate_draft(spec, files)
        except AuthoringError as error:
            messages.error(request, error.message)
    context = {"question": question, "current": current, "form": form, "validation": validation}
    return render(request, "authoring/edit.html", context)


def _edit_question(request, question):
    form = QuestionForm(request.POST or None, kind=question.kind, question=question)
    preview = None
    if request.method == "POST" and form.is_valid():
        saved, preview = _save_or_check(request, form, question.kind, question.slug, question)
        if saved is not None:
            messages.success(request, "Saved. Export it to the bank to keep the files the source.")
            return redirect("authoring:exercise", question.slug)
    return _question_form_page(request, form, question.kind, question, preview)


@author_required
@require_POST
def publish(request, slug):
    """POST public=1 publishes, public=0 takes the question off the public pages."""
    question = get_object_or_404(Question, slug=slug)
    public = request.POST.get("public") == "1"
    try:
        changed = services.set_public(question, public, request.user)
    except AuthoringError as error:
        messages.error(request, " ".join([error.message, *error.reasons]))
        return redirect("authoring:exercise", slug)
    if changed:
        messages.success(
            request,
            (
                "Published: it is on the public pages now."
                if public
                else "Taken off the public pages: only assessments can use it now."
            )
            + " Export it to the bank to keep this in its file.",
        )
    return redirect("authoring:exercise", slug)


@author_required
@require_POST
def export(request, slug):
    question = get_object_or_404(Question, slug=slug)
    try:
        path = services.export_to_bank(question, request.user)
    except AuthoringError as error:
        # Shown beside the export button, as a form's errors are.
        return render(request, "authoring/exercise.html", _exercise_context(question, export_error=error))
    messages.success(request, f"Exported to questions/bank/{path}.")
    return redirect("authoring:exercise", slug)
