from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from . import team_views, token_pages, views

app_name = "api"

v1 = [
    path("v1/schema", SpectacularAPIView.as_view(api_version="v1"), name="schema"),
    # Swagger UI with its inline script run by the request's CSP nonce (ops: no other inline script).
    path(
        "v1/docs/",
        SpectacularSwaggerView.as_view(url_name="api:schema", template_name="api/swagger_ui.html"),
        name="docs",
    ),
    path("v1/me/", views.Me.as_view(), name="me"),
    path("v1/questions/", views.QuestionList.as_view(), name="questions"),
    path("v1/questions/<slug:slug>/", views.QuestionDetail.as_view(), name="question"),
    path("v1/exercises/", views.ExerciseList.as_view(), name="exercises"),
    path("v1/exercises/<slug:slug>/", views.ExerciseDetail.as_view(), name="exercise"),
    path("v1/exercises/<slug:slug>/editorial/", views.ExerciseEditorial.as_view(), name="exercise_editorial"),
    path("v1/tracks/", views.TrackList.as_view(), name="tracks"),
    path("v1/tracks/<slug:slug>/", views.TrackDetail.as_view(), name="track"),
    path("v1/submissions/", views.SubmissionList.as_view(), name="submissions"),
    path("v1/submissions/<int:pk>/", views.SubmissionDetail.as_view(), name="submission"),
    path("v1/submissions/<int:pk>/timings/", views.SubmissionTimings.as_view(), name="timings"),
    path("v1/submissions/<int:pk>/grade-again/", views.SubmissionGradeAgain.as_view(), name="grade_again"),
    path("v1/leaderboards/", views.GlobalBoard.as_view(), name="global_board"),
    path("v1/leaderboards/topics/<slug:slug>/", views.TopicBoard.as_view(), name="topic_board"),
    path("v1/leaderboards/exercises/<slug:slug>/", views.ExerciseBoard.as_view(), name="exercise_board"),
    path("v1/team/assessments/", team_views.AssessmentList.as_view(), name="team_assessments"),
    path("v1/team/assessments/<int:pk>/", team_views.AssessmentDetail.as_view(), name="team_assessment"),
    path("v1/team/assessments/<int:pk>/invitations/", team_views.InvitationList.as_view(), name="team_invitations"),
    path("v1/team/assessments/<int:pk>/sittings/", team_views.SittingList.as_view(), name="team_sittings"),
    path("v1/team/invitations/<int:pk>/", team_views.InvitationDetail.as_view(), name="team_invitation"),
    path("v1/team/sittings/<int:pk>/", team_views.SittingReport.as_view(), name="team_sitting"),
    re_path(r"^v1/", views.NoSuchEndpoint.as_view(), name="no_such_endpoint"),
]

urlpatterns = [
    path("tokens/", token_pages.token_list, name="tokens"),
    path("tokens/<int:pk>/revoke/", token_pages.revoke, name="revoke_token"),
    *v1,
]
