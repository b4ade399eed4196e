from django.contrib import admin

from .models import AuthoringEvent


@admin.register(AuthoringEvent)
class AuthoringEventAdmin(admin.ModelAdmin):
    list_display = ("created_at", "user", "question", "action", "exercise_version")
    list_filter = ("action",)
    readonly_fields = ("user", "question", "exercise_version", "action", "detail", "created_at")
