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


