"""The tokens page (reached from the profile): make, list and revoke personal access tokens."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from . import tokens
from .forms import TokenForm
from .models import PersonalAccessToken


@login_required
def token_list(request):
    form = TokenForm(request.POST or None)
    new_token = None
    if request.method == "POST" and form.is_valid():
        try:
            row, new_token = tokens.create_token(request.user, **form.cleaned_data)
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            form = TokenForm()
    context = {
        "form": form,
        "new_token": new_token,
        "tokens": PersonalAccessToken.objects.filter(user=request.user),
        "server": request.build_absolute_uri("/").rstrip("/"),
    }
    response = render(request, "api/tokens.html", context)
    if new_token:
        response["Cache-Control"] = "no-store"  # the token is on this page once; keep it out of caches
    return response


@require_POST
@login_required
def revoke(request, pk):
    if tokens.revoke_token(request.user, pk):
        messages.success(request, "Token revoked: it no longer works.")
    else:
        messages.error(request, "No such active token.")
    return redirect("api:tokens")
