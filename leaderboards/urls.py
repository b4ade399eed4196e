from django.urls import path

from . import views

app_name = "leaderboards"

urlpatterns = [
    path("", views.index, name="index"),
    path("exercises/<slug:slug>/", views.exercise, name="exercise"),
    path("topics/<slug:slug>/", views.topic, name="topic"),
    path("standing/<int:pk>/", views.standing, name="standing"),
]
