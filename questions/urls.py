from django.urls import path

from . import views

app_name = "questions"

urlpatterns = [
    path("", views.browse, name="browse"),
    path("progress/", views.progress, name="progress"),
    path("preview/", views.preview, name="preview"),
    path("tracks/<slug:slug>/", views.track, name="track"),
    path("<slug:slug>/", views.detail, name="detail"),
    path("<slug:slug>/draft/", views.save_draft, name="save_draft"),
    path("<slug:slug>/attempts/<int:pk>/", views.attempt, name="attempt"),
]
