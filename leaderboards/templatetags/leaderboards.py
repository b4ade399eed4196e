from django import template

from leaderboards import services
from leaderboards.models import hardware_label as label_for_hardware

register = template.Library()


@register.simple_tag
def submission_standing(submission):
    """{% submission_standing submission as standing %}: services.standing plus the id of
    the element that carries the chart data, unique per submission on the page."""
    result = services.standing(submission)
    if result is None:
        return None
    return {**result, "element_id": f"standing-data-{submission.pk}"}


@register.simple_tag
def counted_submission_ids(user, question):
    """{% counted_submission_ids user question as counted %}: the ids of the user's
    submissions that their leaderboard entries for `question` hold (one per hardware)."""
    return services.counted_submission_ids(user, question)


@register.filter
def public_name(user):
    return services.public_name(user)


@register.filter
def hardware_label(hardware):
    return label_for_hardware(hardware)
