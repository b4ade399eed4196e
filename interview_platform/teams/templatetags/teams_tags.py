from django import template

register = template.Library()


@register.filter
def duration_minutes(value):
    """A timedelta as '42 min' or '1 h 05 min'."""
    if value is None:
        return "–"
    minutes = int(value.total_seconds() // 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"


@register.filter
def mebibytes(value):
    if value is None:
        return "–"
    return f"{value / 2**20:.1f} MiB"


@register.filter
def ratio(value, reference):
    """value / reference, e.g. peak memory against the reference's, as '0.52×'."""
    if not value or not reference:
        return "–"
    return f"{value / reference:.2f}×"
