from django.urls import path

from . import views

app_name = "rooms"

urlpatterns = [
    path("", views.mine, name="mine"),
    path("new/", views.new, name="new"),
    path("peer/new/", views.new_peer, name="new_peer"),
    path("join/<str:token>/", views.join, name="join"),
    path("<uuid:public_id>/", views.room, name="room"),
    path("<uuid:public_id>/report/", views.report, name="report"),
    path("<uuid:public_id>/gradings/<int:submission_id>/", views.grading, name="grading"),
    path("<uuid:public_id>/gradings/<int:submission_id>/status/", views.grading_status, name="grading_status"),
]
