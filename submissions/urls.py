from django.urls import path

from . import views

app_name = "submissions"

urlpatterns = [
    path("", views.submission_list, name="list"),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/status/", views.status, name="status"),
    path("<int:pk>/timings.json", views.timings, name="timings"),
    path("<int:pk>/edit/", views.edit_again, name="edit_again"),
    path("<int:pk>/grade-again/", views.grade_again, name="grade_again"),
    path("exercise/<slug:slug>/submit/", views.submit, name="submit"),
]
