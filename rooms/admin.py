"""Staff see interview rooms read-only: the program and its version move only through the
step log (rooms.services), and the invitation token, which lets anyone holding it in as the
candidate, is never shown. The one thing staff may change is when the invitation expires."""

from django.contrib import admin

from .models import Room


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
        "created_at",
        "ended_at",
    )

    def has_add_permission(self, request, obj=None):
        return False
