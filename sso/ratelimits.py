"""The limit on looking up which organisation an e-mail address signs in through (`/sso/`).

Each answer tells whether a domain uses single sign-on, so a script asking for many
domains would map the site's customers: look-ups are counted per client address
(django-ratelimit, in the shared cache; behind the TLS proxy the forwarded address,
settings.RATELIMIT_IP_META_KEY) at settings.SSO_FIND_RATE, and past it the page answers
429 without looking anything up."""

from functools import wraps

from django.conf import settings
from django.shortcuts import render
from django_ratelimit.core import is_ratelimited

GROUP = "sso.find"


def limit_lookups(view):
    """`view` with its POSTs (the look-ups) counted per client address; past the rate, a 429 page."""

    @wraps(view)
    def limited(request, *args, **kwargs):
        if request.method == "POST" and is_ratelimited(
            request, group=GROUP, key="ip", rate=settings.SSO_FIND_RATE, increment=True
        ):
            return render(request, "sso/too_many.html", status=429)
        return view(request, *args, **kwargs)

    return limited
