"""Our 404 page under DEBUG too. `make run` turns DEBUG on for its tracebacks and template
errors, and with DEBUG on Django answers every 404 with its own yellow page that lists the
URL patterns; a visitor trying the demo should see the page production shows. Everything
else DEBUG does is unchanged: this only answers a 404 (a URL that matches nothing, or a view
raising Http404) with `django.views.defaults.page_not_found`, the production handler.
With DEBUG off it does nothing: Django already renders our 404.html."""

from django.conf import settings
from django.http import Http404
from django.urls import Resolver404, get_resolver
from django.views.defaults import page_not_found


class NotFoundPageMiddleware:
    """Placed last: the page knows who is signed in (as production's does), and CommonMiddleware,
    further out, still redirects "/path" without its slash to "/path/"."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if settings.DEBUG:
            try:
                get_resolver(getattr(request, "urlconf", None)).resolve(request.path_info)
            except Resolver404 as missing:
                return page_not_found(request, missing)
        return self.get_response(request)

    def process_exception(self, request, exception):
        if settings.DEBUG and isinstance(exception, Http404):
            return page_not_found(request, exception)
        return None
