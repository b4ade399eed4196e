"""The practice gate of a mock interview: while it runs, the question pages of its
questions (statement, answer checks, attempts: where a sample answer is revealed) are
refused with a page that says why, as an assessment sitting's are (teams.middleware)."""

from django.shortcuts import render

from .sittings import open_item_with_question

#: The question pages that show a question's statement, answer checks or attempts.
GATED_VIEWS = frozenset({"questions:detail", "questions:save_draft", "questions:attempt"})


class MockInterviewGateMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        match = request.resolver_match
        if match is None or match.view_name not in GATED_VIEWS or not request.user.is_authenticated:
            return None
        item = open_item_with_question(request.user, view_kwargs.get("slug", ""))
        if item is None:
            return None
        return render(request, "mock_interviews/practice_blocked.html", {"item": item}, status=403)
