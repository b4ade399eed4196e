from django.contrib import admin

from .models import (
    Answer,
    Assessment,
    AssessmentItem,
    AuditEntry,
    CandidateInvitation,
    CandidateSession,
    MemberInvitation,
    Membership,
    Organisation,
    OrganisationToken,
    WebhookDelivery,
    WebhookEndpoint,
)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ("user",)


@admin.register(Organisation)
class OrganisationAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "created_at")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [MembershipInline]


@admin.register(MemberInvitation)
class MemberInvitationAdmin(admin.ModelAdmin):
    list_display = ("email", "organisation", "role", "created_at", "expires_at", "used_at")
    list_filter = ("role",)
    search_fields = ("email", "organisation__name")
    # The token itself is never stored; its hash is of no use to a person.
    exclude = ("token_hash",)
    readonly_fields = ("used_at", "accepted_by")


class AssessmentItemInline(admin.TabularInline):
    model = AssessmentItem
    extra = 0
    raw_id_fields = ("question", "exercise_version")


@admin.register(Assessment)
class AssessmentAdmin(admin.ModelAdmin):
    list_display = ("title", "organisation", "time_limit_minutes", "opens_at", "closes_at", "published_at")
    list_filter = ("organisation",)
    search_fields = ("title",)
    inlines = [AssessmentItemInline]


@admin.register(CandidateInvitation)
class CandidateInvitationAdmin(admin.ModelAdmin):
    list_display = ("email", "assessment", "created_at", "expires_at", "used_at", "extra_minutes")
    search_fields = ("email", "assessment__title")
    exclude = ("token_hash",)
    readonly_fields = ("used_at",)


@admin.register(CandidateSession)
class CandidateSessionAdmin(admin.ModelAdmin):
    list_display = ("invitation", "assessment", "started_at", "finished_at", "finish_reason")
    list_filter = ("finish_reason",)
    raw_id_fields = ("invitation", "candidate")


@admin.register(Answer)
class AnswerAdmin(admin.ModelAdmin):
    list_display = ("session", "item", "numeric_correct", "reviewed_at", "updated_at")
    raw_id_fields = ("session", "item", "reviewed_by")


class ViewOnlyAdmin(admin.ModelAdmin):
    """Rows made and changed only through teams.services and teams.webhooks, which keep their
    invariants (a token shown once, a secret generated, a delivery's tries counted)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(AuditEntry)
class AuditEntryAdmin(ViewOnlyAdmin):
    """The audit log is append-only (AuditEntry): the admin reads it, never removes an entry."""

    list_display = ("at", "organisation", "actor_label", "action", "target_label", "detail")
    list_filter = ("action",)
    search_fields = ("organisation__name", "actor_label", "target_label")
    list_select_related = ("organisation",)

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(OrganisationToken)
class OrganisationTokenAdmin(ViewOnlyAdmin):
    list_display = (
        "name",
        "organisation",
        "role",
        "shown_prefix",
        "created_by",
        "created_at",
        "last_used_at",
        "revoked_at",
    )
    list_filter = ("role",)
    search_fields = ("name", "prefix", "organisation__name")
    list_select_related = ("organisation", "created_by")
    # Only the token's first characters, which owners see too; never its hash.
    exclude = ("token_hash", "prefix")
    readonly_fields = ("shown_prefix",)

    @admin.display(description="token starts")
    def shown_prefix(self, token):
        return f"{token.prefix}…"


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(ViewOnlyAdmin):
    list_display = ("url", "organisation", "created_by", "created_at")
    search_fields = ("url", "organisation__name")
    list_select_related = ("organisation", "created_by")
    # The signing secret is the organisation's alone.
    exclude = ("secret",)


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(ViewOnlyAdmin):
    list_display = ("event", "endpoint", "status", "attempts", "response_code", "created_at", "delivered_at")
    list_filter = ("status", "event")
    search_fields = ("endpoint__url", "endpoint__organisation__name")
    list_select_related = ("endpoint__organisation",)
