"""Template helpers for submission pages and the coding panel."""

import re

from django import template

from accounts.verification import unverified_coding_notice
from grader.grading import exercise_limits as clamped_limits
from grader.harness.input_rules import parameter_names, quick_check_sizes
from questions.services.drafts import draft_text
from submissions.services import gpu_workers, listing
from submissions.states import Speed

register = template.Library()

MISSING = "–"


@register.filter
def speed_label(word):
    """The words for a submissions.states.Speed value: 'Correct, but not faster than the reference'."""
    return Speed.LABELS.get(word, "")


@register.simple_tag
def recent_submissions(user, question, limit=10):
    return listing.recent_submissions(user, question, limit)


@register.simple_tag
def editor_code(user, exercise, posted=None):
    """What the editor opens with: the code just posted (a refused submission shown
    again), else the learner's draft of this exercise, else the starter code (also
    for code emptied out: an empty editor helps nobody)."""
    if posted:
        return posted
    return draft_text(user, exercise.question) or exercise.starter_code


@register.simple_tag
def gpu_unavailable(exercise):
    """Why `exercise` cannot be graded now (a GPU exercise with no GPU worker online), or ""."""
    if exercise.target == "gpu" and not gpu_workers.gpu_worker_online():
        return gpu_workers.no_gpu_worker_message()
    return ""


@register.simple_tag
def unverified_notice(user):
    """Why a signed-in learner cannot run or submit practice code yet (an unverified address), or ""."""
    return unverified_coding_notice(user)


@register.simple_tag
def exercise_limits(exercise):
    """The limits an exercise's submissions run under (defaults filled in)."""
    return clamped_limits(exercise.spec)


@register.simple_tag
def custom_input_rules(exercise):
    """What "Run my input" takes on this exercise: the largest size, and the entry point's parameters."""
    return {
        "max_size": max(quick_check_sizes(exercise.spec), default=0),
        "parameters": parameter_names(exercise.reference_code, exercise.spec["entry_point"]),
    }


#: The harness names each input it checks by how it was made ("edge size 0", "edge
#: case 2", "size 8,000"); learners read what those are instead.
HARNESS_INPUT_NAMES = (
    (re.compile(r"\bedge size ([\d,]+)"), r"a tiny input (size \1)"),
    (re.compile(r"\bedge case (\d+)"), r"special input \1 of this exercise"),
    (re.compile(r"(?<![\w(-])size ([\d,]+)"), r"the input of size \1"),
)


@register.filter
def plain_input_names(text):
    """A harness message or input label in the learner's words."""
    text = str(text or "")
    for pattern, words in HARNESS_INPUT_NAMES:
        text = pattern.sub(words, text)
    return text


@register.filter
def shape(dimensions):
    """[3, 4] -> '3 × 4'; [] -> 'a single value'."""
    if dimensions is None:
        return MISSING
    return " × ".join(f"{n:,}" for n in dimensions) or "a single value"


@register.filter
def tolerance(value):
    if not value:
        return MISSING
    return ", ".join(
        f"{name} {value[key]:g}" for key, name in (("rtol", "relative"), ("atol", "absolute")) if key in value
    )


@register.simple_tag
def source_excerpt(code, line, around=2):
    """The lines of `code` around `line` (1-based): [(number, text, is_the_line)]."""
    lines = (code or "").splitlines()
    if not line or not 1 <= line <= len(lines) + 1:
        return []
    first, last = max(1, line - around), min(len(lines), line + around)
    return [(number, lines[number - 1], number == line) for number in range(first, last + 1)]
