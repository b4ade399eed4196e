"""Every API error is JSON: {"code": stable id, "message": for people, "fields": optional}.

Codes are lowercase and stable (clients such as `hotpath` switch on them); the
message may be reworded."""

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

#: Service-level refusals that mean "wait, then retry" rather than "fix your input".
RETRY_LATER_CODES = {"rate_limited", "too_many_queued"}


class ApiError(exceptions.APIException):
    def __init__(self, status_code, code, message):
        self.status_code = status_code
        super().__init__(detail=message, code=code)


def from_service_error(error):
    """A django ValidationError raised by a service, as an ApiError with its code."""
    code = error.code or "invalid"
    status_code = status.HTTP_429_TOO_MANY_REQUESTS if code in RETRY_LATER_CODES else status.HTTP_400_BAD_REQUEST
    return ApiError(status_code, code, " ".join(error.messages))


def _code_of(exc):
    codes = exc.get_codes()
    if isinstance(codes, str):
        return codes
    return "invalid"


def _message_of(detail):
    if isinstance(detail, dict):
        return "Some fields are not valid: " + ", ".join(sorted(detail)) + "."
    if isinstance(detail, list):
        return " ".join(str(item) for item in detail)
    return str(detail)


def handle(exc, context):
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or "Not found.")
    elif isinstance(exc, DjangoValidationError):
        exc = from_service_error(exc)
    response = exception_handler(exc, context)
    if response is None:
        return None  # a bug: Django's 500 handler logs it
    body = {"code": _code_of(exc), "message": _message_of(exc.detail)}
    if isinstance(exc.detail, dict):
        body["fields"] = exc.detail
    response.data = body
    return response


def json_404(request, exception=None):
    """/api/ paths Django itself cannot route still answer in the API's shape."""
    return Response({"code": "not_found", "message": "No such API endpoint."}, status=404)
