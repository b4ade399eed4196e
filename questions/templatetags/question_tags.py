from django import template

register = template.Library()


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
