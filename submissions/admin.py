from django.contrib import admin

from .models import Submission


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    """Read-only: rows change only through grading."""

    list_display = (
        "pk",
        "user",
        "exercise",
        "purpose",
        "status",
        "verdict",
        "speedup",
        "hardware",
        "attempts",
        "created_at",
    )
    list_filter = ("status", "verdict", "purpose", "hardware")
    search_fields = ("user__username", "exercise__question__slug")
    date_hierarchy = "created_at"
    list_select_related = ("user", "exercise__question")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in self.model._meta.fields]
