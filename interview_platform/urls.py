from django.contrib import admin
from django.urls import include, path

from accounts import views as account_views
from practice import views as practice_views
from sso import views as sso_views

urlpatterns = [
    path("", practice_views.home, name="home"),
    path("accounts/", include("accounts.urls")),
    # Before django.contrib.auth.urls, so these names resolve to the rate-limited views.
    # The sign-in page is sso's: it refuses a password where an organisation requires its single sign-on.
    path("accounts/login/", sso_views.SsoAwareLoginView.as_view(), name="login"),
    path("accounts/password_reset/", account_views.PasswordResetView.as_view(), name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("questions/", include("practice.urls")),
    path("submissions/", include("submissions.urls")),
    # The owner's single sign-on settings, among the organisation's pages (teams cannot import sso).
    path("teams/org/<slug:org>/sso/", sso_views.provider_settings, name="sso_settings"),
    path("teams/", include("teams.urls")),
    path("authoring/", include("authoring.urls")),
    path("leaderboards/", include("leaderboards.urls")),
    path("mock-interviews/", include("mock_interviews.urls")),
    path("api/", include("api.urls")),
    path("my-data/", include("mydata.urls")),
    path("rooms/", include("rooms.urls")),
    path("sso/", include("sso.urls")),
    path("admin/", admin.site.urls),
    path("", include("ops.urls")),  # /metrics (the health endpoints are middleware: ops/health.py)
]
