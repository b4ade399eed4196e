from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render

from questions.models import Kind, Question

from .forms import ProfileForm, SignUpForm
from .models import profile_for


def home(request):
    live = Question.objects.live()
    counts = {kind: live.filter(kind=kind).count() for kind in Kind.values}
    first = live.filter(kind=Kind.CONCEPT, difficulty="easy").order_by("title").first() or live.first()
    return render(request, "home.html", {"counts": counts, "first_question": first})


def signup(request):
    if request.user.is_authenticated:
        return redirect("questions:browse")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome to Hotpath, {user.username}. Pick a question to start practising.")
        return redirect(request.GET.get("next") or "questions:browse")
    return render(request, "registration/signup.html", {"form": form})


@login_required
def profile(request):
    form = ProfileForm(request.POST or None, instance=profile_for(request.user))
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Profile saved.")
        return redirect("accounts:profile")
    return render(request, "accounts/profile.html", {"form": form})
