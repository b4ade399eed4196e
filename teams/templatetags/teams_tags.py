from django import template

register = template.Library()


@register.filter
def duration_minutes(value):
    """A timedelta as '50 s', '25 min' (whole minutes), '25 min 10 s' or '1 h 05 min':
    never '0 min' for a sitting that took seconds."""
    if value is None:
        return "–"
    total = int(value.total_seconds())
    hours, rest = divmod(total, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes:02d} min"
    if not minutes:
        return f"{seconds} s"
    return f"{minutes} min {seconds} s" if seconds else f"{minutes} min"
