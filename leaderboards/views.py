from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, render

from questions.models import DIFFICULTY_POINTS, Kind
from questions.services import browsing
from submissions.models import Submission

from . import services
from .models import LeaderboardEntry, TopicScore, UserScore, hardware_label


def _page(request, queryset):
    return Paginator(queryset, services.PAGE_SIZE).get_page(request.GET.get("page"))


def index(request):
    mine = None
    if request.user.is_authenticated:
        mine = UserScore.objects.filter(user=request.user, solved__gt=0).first()
    context = {
        "page_obj": _page(request, services.global_board()),
        "mine": mine,
        "my_position": services.position_of_score(mine) if mine else None,
        # Read only when the cached list of boards (per bank version) is missing: the template calls them.
        "topics": services.topics,
        "exercises": services.exercises,
        "difficulty_points": DIFFICULTY_POINTS,
        "base_points": services.BASE_POINTS,
        "max_doublings": services.MAX_DOUBLINGS,
    }
    return render(request, "leaderboards/index.html", context)


def exercise(request, slug):
    question = browsing.public_question(slug)  # cached under the bank's version
    if question is None or question.kind != Kind.CODING:
        raise Http404("No such exercise.")
    available = services.hardware_for(question)
    hardware = request.GET.get("hardware") or (available[0] if available else None)
    mine = None
    if hardware and request.user.is_authenticated:
        mine = LeaderboardEntry.objects.filter(user=request.user, question=question, hardware=hardware).first()
    page_obj = _page(request, services.exercise_board(question, hardware)) if hardware else None
    context = {
        "question": question,
        "tabs": [(value, hardware_label(value)) for value in available],
        "hardware": hardware,
        "hardware_label": hardware_label(hardware) if hardware else "",
        "page_obj": page_obj,
        "ranked_entries": services.ranked_page(page_obj) if page_obj else [],
        "mine": mine,
        "my_rank": services.rank_of_entry(mine) if mine else None,
    }
    return render(request, "leaderboards/exercise.html", context)


def topic(request, slug):
    name = services.topic_for_slug(slug)
    if name is None:
        raise Http404("No exercises in that topic.")
    mine = None
    if request.user.is_authenticated:
        mine = TopicScore.objects.filter(user=request.user, topic=name).first()
    context = {
        "topic": name,
        "page_obj": _page(request, services.topic_board(name)),
        "mine": mine,
        "my_position": services.position_of_score(mine) if mine else None,
        # Called by the template only when its cached list (per bank version) is missing.
        "exercises": lambda: services.exercises().filter(topic=name),
    }
    return render(request, "leaderboards/topic.html", context)


@login_required
def standing(request, pk):
    """The "faster than N%" fragment for one of your own submissions (staff may see any)."""
    submission = get_object_or_404(Submission.objects.select_related("exercise"), pk=pk)
    if submission.user_id != request.user.pk and not request.user.is_staff:
        raise Http404("No such submission.")
    return render(request, "leaderboards/_standing.html", {"submission": submission})
