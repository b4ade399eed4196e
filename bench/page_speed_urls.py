"""The URLconf of bench/page_speed_site.py: the project's URLs plus /bench-hello/."""

from django.http import HttpResponse
from django.urls import include, path


def hello(request):
    """The floor: the same server, middleware and settings, no query and no template."""
    return HttpResponse("hello", content_type="text/plain")


urlpatterns = [
    path("bench-hello/", hello),
    path("", include("interview_platform.urls")),
]
