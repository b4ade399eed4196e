import json

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from . import services
from .forms import CloseAccountForm


def _download(content, content_type, filename):
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
def overview(request):
    user = request.user
    context = {
        "submission_count": services.own_submissions(user).count(),
        "answer_count": services.answers(user).count(),
        "form": CloseAccountForm(user),
    }
    return render(request, "mydata/overview.html", context)


@login_required
def export_json(request):
    data = json.dumps(services.export(request.user), indent=1, ensure_ascii=False)
    return _download(data, "application/json", f"hotpath-{request.user.username}.json")


@login_required
def export_submissions_csv(request):
    return _download(
        services.submissions_csv(request.user),
        "text/csv; charset=utf-8",
        f"hotpath-{request.user.username}-submissions.csv",
    )


@login_required
def export_answers_csv(request):
    return _download(
        services.answers_csv(request.user), "text/csv; charset=utf-8", f"hotpath-{request.user.username}-answers.csv"
    )


@require_POST
@login_required
def close_account(request):
    form = CloseAccountForm(request.user, request.POST)
    if not form.is_valid():
        context = {
            "submission_count": services.own_submissions(request.user).count(),
            "answer_count": services.answers(request.user).count(),
            "form": form,
        }
        return render(request, "mydata/overview.html", context, status=400)
    user = request.user
    try:
        services.close_account(user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("mydata:overview")
    logout(request)
    messages.success(request, "Your account is closed and your data deleted.")
    return redirect("home")
