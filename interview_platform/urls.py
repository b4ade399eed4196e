from django.contrib import admin
from django.urls import include, path

from accounts import views as account_views

urlpatterns = [
    path("", account_views.home, name="home"),
    path("accounts/", include("accounts.urls")),
    # Before django.contrib.auth.urls, so these names resolve to the rate-limited views.
    path("accounts/login/", account_views.LoginView.as_view(), name="login"),
    path("accounts/password_reset/", account_views.PasswordResetView.as_view(), name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("questions/", include("questions.urls")),
    path("submissions/", include("submissions.urls")),
    path("teams/", include("teams.urls")),
    path("authoring/", include("authoring.urls")),
    path("leaderboards/", include("leaderboards.urls")),
    path("mock-interviews/", include("mock_interviews.urls")),
    path("api/", include("api.urls")),
    path("my-data/", include("mydata.urls")),
    path("admin/", admin.site.urls),
    path("", include("ops.urls")),  # /metrics (the health endpoints are middleware: ops/health.py)
]
