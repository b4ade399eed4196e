"""The organisation's audit log, for its owners: the page (newest first, filtered by action
and by person, a page at a time) and the same filtered log as CSV (teams.services.audit)."""

import io

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import urlencode
from django.views.decorators.http import require_GET

from ..models import AuditAction
from ..services import TeamsError, audit
from .gates import OWNER, _organisation

#: Entries on one page of the log.
AUDIT_PAGE_SIZE = 50


def _filtered(request, organisation):
    """(entries, filters) for the request's `action` and `person`; TeamsError when either is unknown."""
    filters = {name: request.GET.get(name, "").strip() for name in ("action", "person")}
    return audit.entries(organisation, **filters), {name: value for name, value in filters.items() if value}


@login_required
@require_GET
def audit_log(request, org):
    organisation = _organisation(request, org, OWNER)
    try:
        entries, filters = _filtered(request, organisation)
    except TeamsError as error:
        messages.error(request, error.message)
        return redirect("teams:audit_log", organisation.slug)
    context = {
        "organisation": organisation,
        "entries": Paginator(entries, AUDIT_PAGE_SIZE).get_page(request.GET.get("page")),
        "actions": AuditAction.choices,
        "people": audit.people(organisation),
        "filters": filters,
        "querystring": urlencode(filters),
    }
    return render(request, "teams/audit_log.html", context)


@login_required
@require_GET
def audit_csv(request, org):
    organisation = _organisation(request, org, OWNER)
    try:
        entries, _filters = _filtered(request, organisation)
    except TeamsError as error:
        return HttpResponse(error.message, status=400, content_type="text/plain; charset=utf-8")
    buffer = io.StringIO()
    audit.write_csv(entries, buffer)
    response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="audit-{organisation.slug}.csv"'
    return response
