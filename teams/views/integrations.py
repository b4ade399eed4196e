"""The organisation's integrations, for its owners: team API tokens (on the organisation's
page) and webhook endpoints with their delivery log (the webhooks page)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from .. import webhooks
from ..access import scoped_object_or_404
from ..forms import OrganisationTokenForm, WebhookEndpointForm
from ..models import WebhookDelivery, WebhookEndpoint
from ..services import TeamsError, org_tokens
from .gates import OWNER, _organisation
from .organisations import organisation_page

#: Delivery rows shown on the webhooks page, newest first.
DELIVERY_LOG_LENGTH = 100


@login_required
@require_POST
def create_api_token(request, org):
    organisation = _organisation(request, org, OWNER)
    form = OrganisationTokenForm(request.POST)
    new_token = None
    if form.is_valid():
        try:
            name, role = form.cleaned_data["name"], form.cleaned_data["role"]
            _row, new_token = org_tokens.create_token(organisation, name, role, request.user)
        except TeamsError as error:
            form.add_error(None, error.message)
        else:
            form = OrganisationTokenForm()
    response = organisation_page(request, organisation, token_form=form, new_token=new_token)
    if new_token:
        response["Cache-Control"] = "no-store"  # the token is on this page once; keep it out of caches
    return response


@login_required
@require_POST
def revoke_api_token(request, org, pk):
    organisation = _organisation(request, org, OWNER)
    if org_tokens.revoke_token(organisation, pk, request.user):
        messages.success(request, "Token revoked: it no longer works.")
    else:
        messages.error(request, "No such active token.")
    return redirect(organisation)


@login_required
def webhook_list(request, org):
    organisation = _organisation(request, org, OWNER)
    form = WebhookEndpointForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            endpoint = webhooks.register_endpoint(organisation, form.cleaned_data["url"], request.user)
        except TeamsError as error:
            form.add_error("url", error.message)
        else:
            messages.success(request, f"Webhooks will be sent to {endpoint.url}.")
            return redirect("teams:webhooks", organisation.slug)
    context = {
        "organisation": organisation,
        "form": form,
        "endpoints": organisation.webhook_endpoints.all(),
        "deliveries": WebhookDelivery.objects.filter(endpoint__organisation=organisation).select_related("endpoint")[
            :DELIVERY_LOG_LENGTH
        ],
        "signature_header": webhooks.SIGNATURE_HEADER,
        "max_attempts": webhooks.MAX_ATTEMPTS,
    }
    return render(request, "teams/webhooks.html", context)


@login_required
@require_POST
def remove_webhook(request, org, pk):
    endpoint = scoped_object_or_404(request.user, WebhookEndpoint, roles=OWNER, pk=pk, organisation__slug=org)
    webhooks.remove_endpoint(endpoint, request.user)
    messages.success(request, f"{endpoint.url} removed, with its delivery log.")
    return redirect("teams:webhooks", org)


@login_required
@require_POST
def send_webhook_again(request, org, pk):
    delivery = scoped_object_or_404(
        request.user,
        WebhookDelivery.objects.select_related("endpoint__organisation"),
        roles=OWNER,
        pk=pk,
        endpoint__organisation__slug=org,
    )
    webhooks.send_again(delivery)
    messages.success(request, f"{delivery.event} queued again for {delivery.endpoint.url}.")
    return redirect("teams:webhooks", org)
