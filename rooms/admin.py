"""Staff see interview rooms read-only: the program and its version move only through the
step log (rooms.services), and the invitation token, which lets anyone holding it in as the
candidate, is never shown. The one thing staff may change is when the invitation expires.
The questions a room moved on from (RoomQuestion, written by rooms.services.move_to_question)
are shown on the room's page and listed on their own, read-only: their versions are stretches
of the room's step log, which the report and its playback read. They may be deleted (as
deleting their room needs), with the model's delete permission."""

from django.contrib import admin

from .models import Room, RoomQuestion


class RoomQuestionInline(admin.TabularInline):
    model = RoomQuestion
    extra = 0
    fields = ("question", "exercise", "first_version", "last_version", "left_at", "rubric_marks")
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ("public_id", "kind", "question", "interviewer", "candidate", "state", "created_at", "ended_at")
    list_filter = ("kind", "state")
    search_fields = ("public_id", "question__slug", "interviewer__username", "candidate__username")
    list_select_related = ("question", "interviewer", "candidate")
    exclude = ("invite_token",)
    readonly_fields = (
        "public_id",
        "kind",
        "question",
        "exercise",
        "interviewer",
        "candidate",
        "invitee",
        "swap_question",
        "first_half",
        "state",
        "text",
        "version",
        "notes",
        "rubric_marks",
        "created_at",
        "ended_at",
    )
    inlines = [RoomQuestionInline]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(RoomQuestion)
class RoomQuestionAdmin(admin.ModelAdmin):
    list_display = ("room_public_id", "question", "exercise", "interviewer", "first_version", "last_version", "left_at")
    search_fields = ("room__public_id", "question__slug", "room__interviewer__username", "room__candidate__username")
    list_select_related = ("room__interviewer", "question", "exercise__question")
    date_hierarchy = "left_at"
    readonly_fields = (
        "room",
        "question",
        "exercise",
        "first_version",
        "last_version",
        "text",
        "rubric_marks",
        "left_at",
    )

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description="room", ordering="room__created_at")
    def room_public_id(self, item):
        return item.room.public_id

    @admin.display(description="interviewer", ordering="room__interviewer__username")
    def interviewer(self, item):
        return item.room.interviewer
