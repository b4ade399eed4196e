from django.contrib import admin
from django.urls import include, path

from interview_platform.accounts import views as account_views

urlpatterns = [
    path("", account_views.home, name="home"),
    path("accounts/", include("interview_platform.accounts.urls")),
    # Before django.contrib.auth.urls, so these names resolve to the rate-limited views.
    path("accounts/login/", account_views.LoginView.as_view(), name="login"),
    path("accounts/password_reset/", account_views.PasswordResetView.as_view(), name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("questions/", include("questions.urls")),
    path("submissions/", include("grader.urls")),
    path("teams/", include("interview_platform.teams.urls")),
    path("authoring/", include("interview_platform.authoring.urls")),
    path("leaderboards/", include("interview_platform.leaderboards.urls")),
    path("api/", include("interview_platform.api.urls")),
    path("my-data/", include("interview_platform.mydata.urls")),
    path("admin/", admin.site.urls),
]
