"""Room pages: open a room, join through the invitation, the room itself, a grading's
status and report, the end-of-interview report. Each asks rooms.services."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from submissions.services.queueing import submission_progress
from submissions.speed import submission_speed

from . import broadcast, peers, playback, services
from .broadcast import grading_message
from .models import RubricMark


def _room_or_404(user, public_id):
    try:
        return services.room_for(user, public_id)
    except services.RoomRefused:
        raise Http404("No such room") from None


def _grading_or_404(user, public_id, submission_id):
    try:
        return services.grading_for(user, public_id, submission_id)
    except services.RoomRefused:
        raise Http404("No such grading") from None


@login_required
@require_GET
def mine(request):
    """The rooms the signed-in person opened or joined: open ones lead to the room, ended ones to the report."""
    return render(request, "rooms/mine.html", {"rooms": services.rooms_of(request.user)})


@login_required
@require_http_methods(["GET", "POST"])
def new(request):
    """GET: what opening a room on ?exercise=<slug> means; POST: open it."""
    slug = request.POST.get("exercise") if request.method == "POST" else request.GET.get("exercise", "")
    if request.method == "POST":
        try:
            room = services.open_room(request.user, slug)
        except services.RoomRefused as exc:
            return render(request, "rooms/new.html", {"slug": slug, "error": str(exc)}, status=400)
        return redirect(room)
    return render(request, "rooms/new.html", {"slug": slug})


@login_required
@require_http_methods(["GET", "POST"])
def new_peer(request):
    """GET: what a peer interview is; POST: invite the learner named in `partner` to one."""
    if request.method == "POST":
        partner = request.POST.get("partner", "")
        try:
            room = peers.open_peer_room(request.user, partner)
        except services.RoomRefused as exc:
            return render(request, "rooms/new_peer.html", {"partner": partner, "error": str(exc)}, status=400)
        return redirect(room)
    return render(request, "rooms/new_peer.html", {"partner": request.GET.get("partner", "")})


@login_required
@require_GET
def join(request, token):
    try:
        room, joined = services.join(request.user, token)
    except services.RoomRefused as exc:
        return render(request, "rooms/refused.html", {"reason": str(exc)}, status=403)
    if joined:
        broadcast.send(room, {"event": "joined", "name": request.user.get_username()})
    return redirect(room)


@login_required
@require_GET
def room(request, public_id):
    room = _room_or_404(request.user, public_id)
    if not room.is_open:
        return redirect("rooms:report", public_id=room.public_id)
    is_interviewer = request.user.pk == room.interviewer_id
    halves = room.halves()
    context = {
        "room": room,
        "question": room.question,
        "is_interviewer": is_interviewer,
        # A peer interview's second half has no link: both people are in already.
        "invite_url": request.build_absolute_uri(reverse("rooms:join", args=[room.invite_token]))
        if is_interviewer and room.first_half_id is None
        else None,
        "half": halves.index(room) + 1 if room.is_peer else None,
        "partner": (room.candidate or room.invitee) if is_interviewer else room.interviewer,
        "gradings": [grading_message(grading) for grading in services.room_gradings(room)],
        "rubric": services.marked_rubric(room) if is_interviewer else [],
        "marks": RubricMark.choices,
        "next_questions": services.live_exercises().exclude(pk=room.question_id)
        if is_interviewer and not room.is_peer
        else [],
    }
    return render(request, "rooms/room.html", context)


@login_required
@require_GET
def grading_status(request, public_id, submission_id):
    """A grading's state and live progress, for either participant (the submission pages show it to its owner only)."""
    grading = _grading_or_404(request.user, public_id, submission_id)
    submission = grading.submission
    return JsonResponse(
        {
            "id": submission.pk,
            "is_final": submission.is_final,
            "status_label": submission.get_status_display(),
            "verdict_label": submission.verdict_label if submission.is_final else "",
            "progress": submission_progress(submission),
        }
    )


@login_required
@require_GET
def grading(request, public_id, submission_id):
    """A grading's report, for either participant."""
    grading = _grading_or_404(request.user, public_id, submission_id)
    submission = grading.submission
    context = {
        "room": grading.room,
        "grading": grading,
        "submission": submission,
        "question": grading.room.question,
        "report": submission.report or {},
        "progress": submission_progress(submission),
        "speed": submission_speed(submission) if submission.is_final else None,
    }
    return render(request, "rooms/grading.html", context)


@login_required
@require_GET
def report(request, public_id):
    """The interview's record: the final program and its playback, every grading, and (for the interviewer) the notes
    and rubric marks;
    a peer interview's, each half's, its notes for whoever interviewed in it."""
    room = _room_or_404(request.user, public_id)
    halves = room.halves()
    if halves[-1].is_open:  # a peer interview's second half goes on after the first has ended
        messages.info(request, "The report is written when the interviewer ends the interview.")
        return redirect(halves[-1])
    halves_shown = []
    for number, half in enumerate(halves, start=1):
        parts = services.questions_of(half)
        for part in parts:
            part["playback"] = playback.playback(half, part, f"{number}-{part['number']}")
        halves_shown.append(
            {
                "number": number,
                "room": half,
                "question": half.question,
                "is_interviewer": request.user.pk == half.interviewer_id,
                "parts": parts,
                # A peer half's headings sit under its own; several questions' under each question's.
                "level": 3 if half.is_peer else 2,
                "sub": (3 if half.is_peer else 2) + (len(parts) > 1),
            }
        )
    tracks = [part["playback"] for half in halves_shown for part in half["parts"]]
    context = {"room": halves[0], "halves": halves_shown, "playback": tracks}
    return render(request, "rooms/report.html", context)
