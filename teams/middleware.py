"""The practice gate: while a candidate's sitting is in progress, the assessment's
questions opened elsewhere on the site (the question pages of the questions app)
are recorded on the sitting, and by default refused with a page that says why
(settings.TEAMS_BLOCK_PRACTICE_DURING_SITTING). It lives here, not in questions,
because questions sits below teams and knows nothing of sittings."""

from django.conf import settings
from django.shortcuts import render

from .services import integrity

#: The question pages that show a question's statement, answer checks or attempts.
GATED_VIEWS = frozenset({"questions:detail", "questions:save_draft", "questions:attempt"})


class PracticeGateMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        match = request.resolver_match
        if match is None or match.view_name not in GATED_VIEWS or not request.user.is_authenticated:
            return None
        session, item = integrity.open_sitting_with_question(request.user, view_kwargs.get("slug", ""))
        if session is None:
            return None
        integrity.record_question_opened(session, item, request.path)
        if not settings.TEAMS_BLOCK_PRACTICE_DURING_SITTING or not item.question.is_public:
            return None  # a private question's page answers 404 to everyone: the gate must not tell it exists
        context = {"session": session, "assessment": session.assessment, "number": item.number}
        return render(request, "teams/practice_blocked.html", context, status=403)
