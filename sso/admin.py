"""Staff see each organisation's provider, its domains and the identities linked to accounts,
read-only: the client secret is sealed (sso/sealing.py) and never shown, and a provider is
configured by the organisation's owner on its settings page (sso.services.configure), which
checks the issuer and the domains."""

from django.contrib import admin

from .models import ClaimedDomain, IdentityProvider, ProviderIdentity


class ViewOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ClaimedDomainInline(admin.TabularInline):
    model = ClaimedDomain
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(IdentityProvider)
class IdentityProviderAdmin(ViewOnlyAdmin):
    list_display = ("organisation", "issuer", "client_id", "enabled", "required", "join_as_member", "updated_at")
    list_filter = ("enabled", "required")
    search_fields = ("organisation__name", "issuer", "domains__name")
    exclude = ("client_secret_sealed",)
    inlines = [ClaimedDomainInline]


@admin.register(ProviderIdentity)
class ProviderIdentityAdmin(ViewOnlyAdmin):
    list_display = ("user", "provider", "subject", "created_at")
    search_fields = ("user__username", "user__email", "subject", "provider__organisation__name")
    list_select_related = ("user", "provider__organisation")
