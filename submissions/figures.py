"""Template filters for every measured figure, on every page: one unit system
(memory in MiB) and one format per kind of number. A builtin template library
(settings.TEMPLATES), so no template loads it and none defines its own. The
formats themselves are the harness's (grader.harness.feedback), so the graded
message and the page write a number the same way."""

from django import template

from grader.harness import feedback

register = template.Library()

MISSING = "–"


def _missing(value):
    return value is None or value == ""


@register.filter
def mib(value):
    """Bytes as MiB: '48.8 MiB'."""
    return MISSING if _missing(value) else feedback.mebibytes(value)


@register.filter
def seconds(value):
    return MISSING if _missing(value) else feedback.seconds(value)


@register.filter
def times(value):
    """A speedup: '12.5×'."""
    return MISSING if _missing(value) else feedback.times(value)


@register.filter
def ratio(value, reference):
    """value / reference, for "memory vs reference": '0.52×'."""
    if not value or not reference:
        return MISSING
    return feedback.times(value / reference)


@register.filter
def interval(pair):
    """A 95% interval of a speedup: '11–14×'."""
    if not pair or len(pair) != 2 or None in pair:
        return MISSING
    return feedback.interval(*pair)


@register.simple_tag
def interval_of(low, high):
    """{% interval_of low high %}: interval for the two bounds kept apart (Submission's columns)."""
    return interval([low, high])


@register.filter
def rate(value, unit):
    """A throughput to three significant figures: '8.42 GB/s', '0.75 GFLOP/s', '4,830 GB/s'."""
    return MISSING if _missing(value) else f"{feedback.three_figures(value)} {unit}"


@register.filter
def percent(fraction):
    """A fraction of a measured roof: 0.84 -> '84%', 0.0016 -> '0.16%'."""
    return MISSING if _missing(fraction) else feedback.percent(fraction)
