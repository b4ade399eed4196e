from django.urls import path

from . import views
from .ratelimits import limit_lookups

app_name = "sso"

urlpatterns = [
    path("", limit_lookups(views.find_provider), name="find"),
    path("<slug:org>/", views.start, name="start"),
    path("<slug:org>/go/", views.go, name="go"),
    path("<slug:org>/callback/", views.callback, name="callback"),
]
