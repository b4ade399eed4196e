"""What the team pages share: the access gates (teams.access.scoped_object_or_404 scoped to
the user's memberships, optionally to some roles) and how a refusal is shown."""

from django.contrib import messages
from django.shortcuts import redirect

from ..access import scoped_object_or_404
from ..models import Assessment, Organisation, Role


OWNER = {Role.OWNER}


def _organisation(request, org, roles=frozenset(Role.values)):
    return scoped_object_or_404(request.user, Organisation, roles=roles, slug=org)


def _assessment(request, org, pk, roles=frozenset(Role.values)):
    return scoped_object_or_404(
        request.user, Assessment.objects.select_related("organisation"), roles=roles, pk=pk, organisation__slug=org
    )


def _refusal(request, error, target):
    messages.error(request, error.message)
    return redirect(target)
