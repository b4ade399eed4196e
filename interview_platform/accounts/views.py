from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme

from questions.models import Kind, Question

from .forms import ProfileForm, SignUpForm
from .models import profile_for


def home(request):
    live = Question.objects.public().live()
    counts = {kind: live.filter(kind=kind).count() for kind in Kind.values}
    first = live.filter(kind=Kind.CONCEPT, difficulty="easy").order_by("title").first() or live.first()
    return render(request, "home.html", {"counts": counts, "first_question": first})


def _safe_next(request):
    """?next= only when it stays on this site: never an open redirect to another host."""
    target = request.GET.get("next", "")
    allowed = url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure())
    return target if allowed else None


def signup(request):
    if request.user.is_authenticated:
        return redirect("questions:browse")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome to Hotpath, {user.username}. Pick a question to start practising.")
        return redirect(_safe_next(request) or "questions:browse")
    return render(request, "registration/signup.html", {"form": form})


@login_required
def profile(request):
    form = ProfileForm(request.POST or None, instance=profile_for(request.user))
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Profile saved.")
        return redirect("accounts:profile")
    return render(request, "accounts/profile.html", {"form": form})
