"""/api/v1/: thin views over the questions, grader and leaderboards services."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import Q
from django.shortcuts import get_object_or_404
from django.utils.text import slugify
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from leaderboards import services as boards
from leaderboards.models import LeaderboardEntry, TopicScore, UserScore
from practice import tracks
from practice.editorial import editorial_for
from questions.models import Kind, Question
from submissions.models import Submission
from submissions.services import gpu_workers, intake, queueing
from teams.services import integrity

from . import serializers as s
from .errors import ApiError, from_service_error
from .models import PersonalAccessToken
from .pagination import Pagination
from .permissions import TokenMaySubmit

ERRORS = {
    400: OpenApiResponse(s.ErrorSerializer, description="Bad input"),
    401: OpenApiResponse(s.ErrorSerializer, description="No, bad, expired or revoked token"),
    403: OpenApiResponse(s.ErrorSerializer, description="Not allowed (e.g. a read-only token)"),
    404: OpenApiResponse(s.ErrorSerializer, description="No such thing (or not yours)"),
}
#: Submissions the API shows: a learner's own practice and quick checks (assessments are the hiring team's).
API_PURPOSES = intake.WEB_PURPOSES


def _errors(*codes):
    return {code: ERRORS[code] for code in codes}


def _validated(serializer_class, data):
    """The query's filters, checked; paging parameters are left to the paginator."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return {name: value for name, value in serializer.validated_data.items() if name not in ("page", "page_size")}


def _with_current_version(questions):
    """Set `.current` (the newest ExerciseVersion) on each coding question; drop those with none."""
    result = []
    for question in questions.prefetch_related("exercise_versions"):
        versions = sorted(question.exercise_versions.all(), key=lambda version: version.number)
        if versions:
            question.current = versions[-1]
            result.append(question)
    return result


def _filtered_questions(params):
    questions = Question.objects.public().live()
    if params.get("topic"):
        wanted = params["topic"].strip().lower()
        names = questions.values_list("topic", flat=True).distinct()
        topics = [name for name in names if wanted in (name.lower(), slugify(name))]
        questions = questions.filter(topic__in=topics)
    for field in ("kind", "difficulty"):
        if params.get(field):
            questions = questions.filter(**{field: params[field]})
    for word in (params.get("q") or "").split():
        questions = questions.filter(Q(title__icontains=word) | Q(prompt__icontains=word) | Q(tags__icontains=word))
    return questions.order_by("topic", "difficulty", "title")


class QuestionList(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[s.QuestionFilterSerializer],
        operation_id="questions_list",
        responses={200: s.paginated(s.QuestionSerializer), **_errors(400, 404)},
    )
    def get(self, request):
        params = _validated(s.QuestionFilterSerializer, request.query_params)
        paginator = Pagination()
        page = paginator.paginate_queryset(_filtered_questions(params), request, view=self)
        return paginator.get_paginated_response(
            s.QuestionSerializer(page, many=True, context={"request": request}).data
        )


def refuse_during_sitting(request, slug):
    """The practice gate (teams.middleware) for the API: a question of the caller's sitting in
    progress is recorded as opened elsewhere and, unless
    settings.TEAMS_BLOCK_PRACTICE_DURING_SITTING is off, refused with a 403 that says why."""
    session, item = integrity.open_sitting_with_question(request.user, slug)
    if session is None:
        return
    integrity.record_question_opened(session, item, request.path)
    if settings.TEAMS_BLOCK_PRACTICE_DURING_SITTING:
        raise ApiError(
            status.HTTP_403_FORBIDDEN,
            "in_sitting",
            f"{slug!r} is question {item.number} of “{session.assessment.title}”, which you are taking now: "
            "it cannot be opened outside the assessment until you finish or your time runs out.",
        )


class QuestionDetail(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: s.QuestionDetailSerializer, **_errors(403, 404)})
    def get(self, request, slug):
        question = get_object_or_404(Question.objects.public().live(), slug=slug)
        refuse_during_sitting(request, slug)
        return Response(s.QuestionDetailSerializer(question, context={"request": request}).data)


class ExerciseList(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[s.QuestionFilterSerializer],
        operation_id="exercises_list",
        responses={200: s.paginated(s.ExerciseSerializer), **_errors(400, 404)},
    )
    def get(self, request):
        params = _validated(s.QuestionFilterSerializer, request.query_params)
        params.pop("kind", None)
        questions = _filtered_questions({**params, "kind": Kind.CODING})
        paginator = Pagination()
        page = paginator.paginate_queryset(_with_current_version(questions), request, view=self)
        return paginator.get_paginated_response(
            s.ExerciseSerializer(page, many=True, context={"request": request}).data
        )


def live_exercise(slug):
    """The question with `.current` set, or a 404 that names the slug."""
    found = _with_current_version(Question.objects.public().live().filter(slug=slug, kind=Kind.CODING))
    if not found:
        raise NotFound(f"There is no coding exercise called {slug!r}.")
    return found[0]


class ExerciseDetail(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: s.ExerciseDetailSerializer, **_errors(403, 404)})
    def get(self, request, slug):
        exercise = live_exercise(slug)
        refuse_during_sitting(request, slug)
        return Response(s.ExerciseDetailSerializer(exercise, context={"request": request}).data)


class TrackList(APIView):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="tracks_list", responses={200: s.TrackSerializer(many=True), **_errors(401)})
    def get(self, request):
        return Response(s.TrackSerializer(tracks.all_tracks(request.user), many=True).data)


class TrackDetail(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: s.TrackDetailSerializer, **_errors(401, 404)})
    def get(self, request, slug):
        progress = tracks.track_progress(slug, request.user)
        if progress is None:
            raise NotFound(f"There is no track called {slug!r}.")
        return Response(s.TrackDetailSerializer(progress).data)


class ExerciseEditorial(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="exercises_editorial",
        description="The sample answer and model solution, once the caller has an accepted practice submission for it.",
        responses={200: s.EditorialSerializer, **_errors(401, 403, 404)},
    )
    def get(self, request, slug):
        question = live_exercise(slug)
        question.exercise = question.current
        editorial = editorial_for(request.user, question)
        if editorial is None:
            raise ApiError(
                status.HTTP_403_FORBIDDEN,
                "editorial_not_earned",
                f"The editorial of {slug!r} opens once your own practice submission for it is accepted.",
            )
        return Response(s.EditorialSerializer(editorial).data)


def own_submissions(user):
    return Submission.objects.filter(user=user, purpose__in=API_PURPOSES).select_related("exercise__question")


def own_submission(user, pk):
    try:
        return own_submissions(user).get(pk=pk)
    except Submission.DoesNotExist:
        raise NotFound(f"You have no submission #{pk}.") from None


#: The live feed's fields (submissions.services.queueing.submission_progress), null once the row is final.
FEED_FIELDS = (
    "phase",
    "label",
    "fraction",
    "elapsed_s",
    "eta_s",
    "size_index",
    "sizes",
    "pair",
    "pairs",
    "queue_position",
)


def _progress(submission):
    feed = queueing.submission_progress(submission) or {}
    return {
        "state": submission.status,
        **{field: feed.get(field) for field in FEED_FIELDS},
        "waiting_for_gpu": gpu_workers.waiting_for_gpu(submission),
        "started_at": submission.started_at,
        "finished_at": submission.finished_at,
    }


def _detail_response(request, submission, status_code=status.HTTP_200_OK):
    context = {"request": request, "progress": _progress(submission)}
    return Response(s.SubmissionDetailSerializer(submission, context=context).data, status=status_code)


class SubmissionList(APIView):
    permission_classes = [IsAuthenticated, TokenMaySubmit]

    @extend_schema(
        parameters=[s.SubmissionFilterSerializer],
        operation_id="submissions_list",
        responses={200: s.paginated(s.SubmissionSerializer), **_errors(400, 401, 404)},
    )
    def get(self, request):
        params = _validated(s.SubmissionFilterSerializer, request.query_params)
        submissions = own_submissions(request.user).order_by("-created_at", "-id")
        if "exercise" in params:
            submissions = submissions.filter(exercise__question__slug=params.pop("exercise"))
        submissions = submissions.filter(**params)
        paginator = Pagination()
        page = paginator.paginate_queryset(submissions, request, view=self)
        return paginator.get_paginated_response(
            s.SubmissionSerializer(page, many=True, context={"request": request}).data
        )

    @extend_schema(
        request=s.SubmissionCreateSerializer,
        responses={
            201: s.SubmissionDetailSerializer,
            429: OpenApiResponse(s.ErrorSerializer, description="rate_limited or too_many_queued: wait, then retry"),
            **_errors(400, 401, 403, 404),
        },
    )
    def post(self, request):
        data = _validated(s.SubmissionCreateSerializer, request.data)
        exercise = live_exercise(data["exercise"]).current
        try:
            submission = intake.submit_practice(
                request.user, exercise, data["code"], purpose=data["purpose"], custom_input=_custom_input(data)
            )
        except ValidationError as exc:
            raise from_service_error(exc) from None
        return _detail_response(request, own_submission(request.user, submission.pk), status.HTTP_201_CREATED)


def _custom_input(data):
    """The fields of `custom_input` that were given (a null is not given), or None without one."""
    given = data.get("custom_input")
    if given is None:
        return None
    return {name: value for name, value in given.items() if value is not None}


class SubmissionGradeAgain(APIView):
    """Another grading of the same code (submissions.services.intake.grade_again): the leaderboard
    counts a program's gradings by their middle one, so this steadies a figure."""

    permission_classes = [IsAuthenticated, TokenMaySubmit]

    @extend_schema(
        request=None,
        responses={
            201: s.SubmissionDetailSerializer,
            429: OpenApiResponse(s.ErrorSerializer, description="rate_limited or too_many_queued: wait, then retry"),
            **_errors(400, 401, 403, 404),
        },
    )
    def post(self, request, pk):
        try:
            again = intake.grade_again(request.user, own_submission(request.user, pk))
        except ValidationError as exc:
            raise from_service_error(exc) from None
        return _detail_response(request, own_submission(request.user, again.pk), status.HTTP_201_CREATED)


class SubmissionDetail(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: s.SubmissionDetailSerializer, **_errors(401, 404)})
    def get(self, request, pk):
        return _detail_response(request, own_submission(request.user, pk))


class SubmissionTimings(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={
            200: OpenApiResponse(
                {"type": "object", "additionalProperties": True}, description="Every timed call behind the figures"
            ),
            **_errors(401, 404),
        }
    )
    def get(self, request, pk):
        data = own_submission(request.user, pk).timings()
        if data is None:
            raise ApiError(
                404, "no_timings", "This submission has no timed calls (a quick check, a failure, or not graded yet)."
            )
        return Response(data)


def _board_page(request, queryset):
    serializer = s.BoardFilterSerializer(data={"page": request.query_params.get("page", 1)})
    serializer.is_valid(raise_exception=True)
    number = serializer.validated_data["page"]
    paginator = Paginator(queryset, boards.PAGE_SIZE)
    if number > paginator.num_pages:
        raise NotFound(f"The board has {paginator.num_pages} page(s).")
    return paginator.page(number)


def _score_row(score, rank, user):
    return {
        "rank": rank,
        "name": boards.public_name(score.user),
        "points": score.points,
        "solved": score.solved,
        "is_you": score.user_id == user.pk,
    }


def _score_board(request, queryset, mine):
    page = _board_page(request, queryset)
    user = request.user
    return {
        "count": page.paginator.count,
        "page": page.number,
        "pages": page.paginator.num_pages,
        "you": _score_row(mine, boards.position_of_score(mine), user) if mine else None,
        "results": [_score_row(score, page.start_index() + offset, user) for offset, score in enumerate(page)],
    }


class GlobalBoard(APIView):
    permission_classes = [AllowAny]

    @extend_schema(parameters=[s.BoardFilterSerializer], responses={200: s.ScoreBoardSerializer, **_errors(400, 404)})
    def get(self, request):
        mine = None
        if request.user.is_authenticated:
            mine = UserScore.objects.filter(user=request.user, solved__gt=0).select_related("user__profile").first()
        return Response(_score_board(request, boards.global_board(), mine))


class TopicBoard(APIView):
    permission_classes = [AllowAny]

    @extend_schema(parameters=[s.BoardFilterSerializer], responses={200: s.ScoreBoardSerializer, **_errors(400, 404)})
    def get(self, request, slug):
        name = boards.topic_for_slug(slug)
        if name is None:
            raise NotFound(f"There are no exercises in a topic called {slug!r}.")
        mine = None
        if request.user.is_authenticated:
            mine = TopicScore.objects.filter(user=request.user, topic=name).select_related("user__profile").first()
        return Response(_score_board(request, boards.topic_board(name), mine))


def _entry_row(entry, rank, position, user):
    return {
        "rank": rank.number,
        "tied": rank.tied,
        "position": position,
        "name": boards.public_name(entry.user),
        "speedup": entry.speedup,
        "speedup_ci": [entry.speedup_ci_low, entry.speedup_ci_high] if entry.speedup_ci_low is not None else None,
        "gradings": entry.gradings,
        "peak_memory_bytes": entry.peak_memory_bytes,
        "exercise_version": entry.submission.exercise.number,
        "achieved_at": entry.achieved_at,
        "is_you": entry.user_id == user.pk,
    }


class ExerciseBoard(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[s.ExerciseBoardFilterSerializer], responses={200: s.ExerciseBoardSerializer, **_errors(400, 404)}
    )
    def get(self, request, slug):
        params = _validated(s.ExerciseBoardFilterSerializer, request.query_params)
        question = get_object_or_404(Question.objects.public(), slug=slug, kind=Kind.CODING)
        available = boards.hardware_for(question)
        hardware = params.get("hardware") or (available[0] if available else None)
        body = {"exercise": question.slug, "hardware": hardware, "hardware_available": available, "you": None}
        if hardware is None or hardware not in available:
            return Response({**body, "count": 0, "page": 1, "pages": 1, "results": []})
        page = _board_page(request, boards.exercise_board(question, hardware))
        user = request.user
        if user.is_authenticated:
            mine = (
                LeaderboardEntry.objects.filter(user=user, question=question, hardware=hardware)
                .select_related("user__profile", "submission__exercise")
                .first()
            )
            body["you"] = (
                _entry_row(mine, boards.rank_of_entry(mine), boards.position_of_entry(mine), user) if mine else None
            )
        results = [
            _entry_row(entry, rank, page.start_index() + offset, user)
            for offset, (entry, rank) in enumerate(boards.ranked_page(page))
        ]
        return Response(
            {
                **body,
                "count": page.paginator.count,
                "page": page.number,
                "pages": page.paginator.num_pages,
                "results": results,
            }
        )


class Me(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: s.MeSerializer, **_errors(401)})
    def get(self, request):
        token = request.auth if isinstance(request.auth, PersonalAccessToken) else None
        data = {
            "username": request.user.username,
            "public_name": boards.public_name(request.user),
            "token": {"name": token.name, "scope": token.scope, "expires_at": token.expires_at} if token else None,
        }
        return Response(s.MeSerializer(data).data)


@extend_schema(exclude=True)
class NoSuchEndpoint(APIView):
    """Any other /api/v1/ path: a JSON 404 in the API's error shape, not the site's HTML page."""

    permission_classes = [AllowAny]

    def not_found(self, request, *args, **kwargs):
        raise ApiError(404, "not_found", "No such API endpoint; see /api/v1/docs/.")

    get = post = put = patch = delete = not_found
