from django.urls import path

from . import views

app_name = "sso"

urlpatterns = [
    path("", views.find_provider, name="find"),
    path("<slug:org>/", views.start, name="start"),
    path("<slug:org>/go/", views.go, name="go"),
    path("<slug:org>/callback/", views.callback, name="callback"),
]

