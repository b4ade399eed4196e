"""Every page under /questions/, named in the "questions" namespace as they always were:
practice's own pages and the pure question pages of questions.views, in one list
because "<slug>/" must come after the fixed paths."""

from django.urls import path

from questions import views as question_views

from . import views

app_name = "questions"

urlpatterns = [
    path("", views.browse, name="browse"),
    path("progress/", views.progress, name="progress"),
    path("preview/", question_views.preview, name="preview"),
    path("tracks/<slug:slug>/", views.track, name="track"),
    path("<slug:slug>/", views.detail, name="detail"),
    path("<slug:slug>/draft/", question_views.save_draft, name="save_draft"),
    path("<slug:slug>/attempts/<int:pk>/", question_views.attempt, name="attempt"),
]
