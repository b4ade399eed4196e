from django import template

from questions.models import Kind

register = template.Library()


@register.filter
def graded_on_gpu(question):
    """Whether `question` is a coding exercise whose current version runs on a GPU."""
    if question.kind != Kind.CODING:
        return False
    exercise = getattr(question, "exercise", None) or question.current_exercise()
    return exercise is not None and exercise.target == "gpu"


@register.filter
def significant(value, digits=6):
    """A float for people: 6.17, 31, 4.29497e+09 (not 31.0 or 4294967296.0000001)."""
    if value is None or value == "":
        return ""
    return format(float(value), f".{int(digits)}g")


@register.filter
def percent(value):
    """0..1 -> '62%'."""
    if value is None:
        return "–"
    return f"{round(100 * float(value))}%"
