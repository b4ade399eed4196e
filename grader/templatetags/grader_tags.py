"""Template helpers for submission pages and the coding panel."""
from django import template

from grader import services
from grader.grading import exercise_limits as clamped_limits
from questions.services import draft_text

register = template.Library()

MISSING = "–"


@register.simple_tag
def recent_submissions(user, question, limit=10):
    return services.recent_submissions(user, question, limit)


@register.simple_tag
def editor_code(user, exercise, posted=None):
    """What the editor opens with: the code just posted (a refused submission shown
    again), else the learner's draft of this exercise, else the starter code (also
    for code emptied out: an empty editor helps nobody)."""
    if posted:
        return posted
    return draft_text(user, exercise.question) or exercise.starter_code


@register.simple_tag
def exercise_limits(exercise):
    """The limits an exercise's submissions run under (defaults filled in)."""
    return clamped_limits(exercise.spec)


@register.filter
def mib(value):
    if value is None or value == "":
        return MISSING
    return f"{value / 1024**2:,.1f} MiB"


@register.filter
def seconds(value):
    """A duration with a unit that keeps three significant digits readable."""
    if value is None or value == "":
        return MISSING
    if value < 1e-3:
        return f"{value * 1e6:.3g} µs"
    if value < 1:
        return f"{value * 1e3:.3g} ms"
    return f"{value:.3g} s"


@register.filter
def times(value):
    if value is None or value == "":
        return MISSING
    return f"{value:.3g}×"


@register.filter
def ratio(value, reference):
    """value / reference, for "memory vs reference"."""
    if not value or not reference:
        return MISSING
    return f"{value / reference:.2g}×"


@register.filter
def interval(pair):
    if not pair or len(pair) != 2 or None in pair:
        return MISSING
    return f"{pair[0]:.3g}–{pair[1]:.3g}×"
