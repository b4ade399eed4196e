from django.urls import path

from . import views

app_name = "mock_interviews"

urlpatterns = [
    path("", views.index, name="index"),
    path("start/", views.start, name="start"),
    path("<int:pk>/q/<int:number>/", views.question, name="question"),
    path("<int:pk>/q/<int:number>/save/", views.save_answer, name="save_answer"),
    path("<int:pk>/q/<int:number>/submit/", views.submit_code, name="submit_code"),
    path("<int:pk>/q/<int:number>/status/", views.submission_status, name="submission_status"),
    path("<int:pk>/q/<int:number>/mark/", views.mark, name="mark"),
    path("<int:pk>/finish/", views.finish, name="finish"),
    path("<int:pk>/", views.report, name="report"),
]
