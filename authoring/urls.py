from django.urls import path

from . import views

app_name = "authoring"

urlpatterns = [
    path("", views.index, name="index"),
    path("new-exercise/", views.new_exercise, name="new_exercise"),
    path("new/<str:kind>/", views.new_question, name="new_question"),
    path("<slug:slug>/", views.exercise, name="exercise"),
    path("<slug:slug>/preview/", views.preview, name="preview"),
    path("<slug:slug>/validate/", views.validate, name="validate"),
    path("<slug:slug>/edit/", views.edit, name="edit"),
    path("<slug:slug>/text/", views.edit_text, name="edit_text"),
    path("<slug:slug>/export/", views.export, name="export"),
    path("<slug:slug>/publish/", views.publish, name="publish"),
]
