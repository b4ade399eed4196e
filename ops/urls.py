from django.urls import path

from .metrics import metrics_view

app_name = "ops"

# The health endpoints are answered by ops.health.HealthCheckMiddleware, before URL routing.
urlpatterns = [
    path("metrics", metrics_view, name="metrics"),
]
