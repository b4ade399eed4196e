from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from . import verification
from .forms import PasswordResetForm, ProfileForm, SignUpForm
from .models import profile_for
from .ratelimits import over_limit

TOO_MANY = "Too many attempts from here. Wait a few minutes, then try again."


def _safe_next(request):
    """?next= only when it stays on this site: never an open redirect to another host."""
    target = request.GET.get("next", "")
    allowed = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if allowed else None


def _too_many(request, template, context):
    messages.error(request, TOO_MANY)
    return render(request, template, context, status=429)


def _send_verification(request, user):
    verification.send_verification(
        user, lambda token: request.build_absolute_uri(reverse("accounts:verify_email", args=[token]))
    )


def signup(request):
    if request.user.is_authenticated:
        return redirect("questions:browse")
    if request.method == "POST" and over_limit(request, "accounts.signup"):
        return _too_many(request, "registration/signup.html", {"form": SignUpForm()})
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        _send_verification(request, user)
        messages.success(
            request,
            f"Welcome to Hotpath, {user.username}. We sent a link to {user.email}: open it to verify your address "
            "before you submit code or accept an invitation. Concept and numeric questions are open now. "
            f"{verification.where_mail_arrives()}".rstrip(),
        )
        return redirect(_safe_next(request) or "questions:browse")
    return render(request, "registration/signup.html", {"form": form})


def verify_email(request, token):
    """The link from the verification mail. Opening it again changes nothing."""
    try:
        user = verification.verify_token(token)
    except verification.VerificationError as error:
        return render(request, "accounts/verify_email.html", {"error": str(error)}, status=400)
    messages.success(request, f"{user.email} is verified.")
    return redirect("accounts:profile" if request.user.is_authenticated else "login")


@login_required
@require_POST
def resend_verification(request):
    if verification.is_verified(request.user):
        messages.info(request, f"{request.user.email} is already verified.")
    elif over_limit(request, "accounts.verification_mail"):
        messages.error(request, "A verification link was sent a short while ago: check your inbox, or try again later.")
    else:
        _send_verification(request, request.user)
        messages.success(
            request, f"We sent a new link to {request.user.email}. {verification.where_mail_arrives()}".rstrip()
        )
    return redirect(_safe_next(request) or "accounts:profile")


class LoginView(auth_views.LoginView):
    """Django's sign-in page, with attempts limited per address and per username."""

    def post(self, request, *args, **kwargs):
        if over_limit(request, "accounts.login"):
            messages.error(request, TOO_MANY)
            return self.render_to_response(self.get_context_data(form=self.form_class(request)), status=429)
        return super().post(request, *args, **kwargs)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset request, limited per address and per e-mail asked for; it
    reaches accounts without a password too (forms.PasswordResetForm)."""

    form_class = PasswordResetForm

    def post(self, request, *args, **kwargs):
        if over_limit(request, "accounts.password_reset"):
            messages.error(request, TOO_MANY)
            return self.render_to_response(self.get_context_data(form=self.form_class()), status=429)
        return super().post(request, *args, **kwargs)


@login_required
def profile(request):
    form = ProfileForm(request.POST or None, instance=profile_for(request.user))
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Profile saved.")
        return redirect("accounts:profile")
    return render(
        request,
        "accounts/profile.html",
        {
            "form": form,
            "verified": verification.is_verified(request.user),
            "mail_note": verification.where_mail_arrives(),
        },
    )
