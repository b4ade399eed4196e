"""The organisation owner's single sign-on settings, and signing in through a provider
(sso/services.py does the work)."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode

from accounts.views import LoginView
from teams.access import scoped_object_or_404
from teams.models import Organisation, Role

from . import services
from .forms import FindProviderForm, ProviderForm, SsoAwareAuthenticationForm
from .models import IdentityProvider


class SsoAwareLoginView(LoginView):
    """The site's sign-in page: a member whose organisation requires single sign-on is sent there."""

    form_class = SsoAwareAuthenticationForm


@login_required
def provider_settings(request, org):
    """The owner's page: the organisation's provider, the domains it covers, whether members must use it."""
    organisation = scoped_object_or_404(request.user, Organisation, roles={Role.OWNER}, slug=org)
    provider = IdentityProvider.objects.filter(organisation=organisation).first()
    form = ProviderForm(request.POST or None, initial=_initial(provider))
    if request.method == "POST" and form.is_valid():
        try:
            provider = services.configure(organisation, actor=request.user, **form.cleaned_data)
        except services.SsoError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"Single sign-on for {organisation.name} is saved.")
            _warn_if_undiscoverable(request, provider)
            return redirect("sso_settings", org=organisation.slug)
    callback = request.build_absolute_uri(reverse("sso:callback", args=[organisation.slug]))
    return render(
        request,
        "sso/settings.html",
        {
            "organisation": organisation,
            "provider": provider,
            "form": form,
            "callback_url": callback,
            "start_url": request.build_absolute_uri(reverse("sso:start", args=[organisation.slug])),
        },
    )


def _initial(provider):
    if provider is None:
        return {"enabled": True}
    return {
        "issuer": provider.issuer,
        "client_id": provider.client_id,
        "domains": "\n".join(provider.domain_names),
        "enabled": provider.enabled,
        "required": provider.required,
        "join_as_member": provider.join_as_member,
    }


def _warn_if_undiscoverable(request, provider):
    try:
        services.discover(provider)
    except services.SsoError as error:
        messages.warning(request, f"Saved, but members cannot sign in yet: {error}")


def find_provider(request):
    """ "Sign in with your organisation's SSO": the e-mail's domain leads to its organisation's start page."""
    form = FindProviderForm(request.POST or None)
    next_url = _safe_next(request)
    if request.method == "POST" and form.is_valid():
        provider = services.provider_for_email(form.cleaned_data["email"])
        if provider is not None:
            return redirect(_with_next(reverse("sso:start", args=[provider.organisation.slug]), next_url))
        form.add_error(
            "email", "No organisation signs in through single sign-on for this address: sign in with your password."
        )
    return render(request, "sso/find.html", {"form": form, "next": next_url})


def start(request, org):
    """The organisation's "Sign in with <Org> SSO" page. Its button is a link to `go`, not a
    form: the site's Content-Security-Policy (form-action 'self') would stop a form whose
    answer redirects to the provider."""
    provider = get_object_or_404(IdentityProvider.objects.select_related("organisation"), organisation__slug=org)
    next_url = _safe_next(request)
    go_url = _with_next(reverse("sso:go", args=[provider.organisation.slug]), next_url)
    return render(request, "sso/start.html", {"provider": provider, "next": next_url, "go_url": go_url})


def go(request, org):
    """The redirect to the organisation's provider, or back to the start page saying why not."""
    provider = get_object_or_404(IdentityProvider.objects.select_related("organisation"), organisation__slug=org)
    redirect_uri = request.build_absolute_uri(reverse("sso:callback", args=[provider.organisation.slug]))
    try:
        return services.start_sign_in(request, provider, redirect_uri, _safe_next(request))
    except services.SsoError as error:
        messages.error(request, str(error))
        return redirect("sso:start", org=provider.organisation.slug)


def callback(request, org):
    """Where the provider sends the person back: signs them in, or says why not."""
    provider = get_object_or_404(IdentityProvider.objects.select_related("organisation"), organisation__slug=org)
    try:
        user = services.finish_sign_in(request, provider)
    except services.SsoError as error:
        messages.error(request, str(error))
        return redirect("sso:start", org=provider.organisation.slug)
    next_url = request.session.pop(services.NEXT_SESSION_KEY, "")
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(request, f"Signed in through {provider.organisation.name}'s single sign-on.")
    return redirect(next_url or "questions:browse")


def _with_next(url, next_url):
    return f"{url}?{urlencode({'next': next_url})}" if next_url else url


def _safe_next(request):
    candidate = request.POST.get("next") or request.GET.get("next") or ""
    allowed = url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return candidate if allowed else ""
