from django.urls import path

from . import views

app_name = "mydata"

urlpatterns = [
    path("", views.overview, name="overview"),
    path("hotpath.json", views.export_json, name="export_json"),
    path("submissions.csv", views.export_submissions_csv, name="submissions_csv"),
    path("answers.csv", views.export_answers_csv, name="answers_csv"),
    path("close/", views.close_account, name="close"),
]
