from django.contrib import admin

from .models import MockInterview, MockItem


class MockItemInline(admin.TabularInline):
    model = MockItem
    extra = 0
    fields = ("position", "question", "exercise_version", "seen_before", "confidence", "attempt")
    readonly_fields = fields
    can_delete = False


@admin.register(MockInterview)
class MockInterviewAdmin(admin.ModelAdmin):
    list_display = ("user", "minutes", "difficulty", "started_at", "finish_reason")
    list_filter = ("minutes", "finish_reason")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)
    readonly_fields = ("started_at", "deadline", "finished_at", "finish_reason", "pool_note")
    inlines = [MockItemInline]
