"""The timings download: every timed call behind a submission's figures, as JSON.
Offered to the submission's owner (submissions.views) and to hiring teams for their
candidates' submissions (teams)."""

from django.http import Http404, JsonResponse


def timings_response(submission):
    """The JSON download of Submission.timings; 404 when there are none."""
    data = submission.timings()
    if data is None:
        raise Http404("This submission has no timed calls")
    response = JsonResponse(data, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="submission-{submission.pk}-timings.json"'
    return response
