"""GET /healthz: "ok" (200) while this process reaches its database, 503 when it
cannot. Answered by the first middleware, before anything reads the Host
header or redirects to HTTPS, so neither ALLOWED_HOSTS nor SECURE_SSL_REDIRECT
applies: container health checks and load balancers ask by address, over plain HTTP.
It says nothing about the site beyond that."""
from django.db import DatabaseError, connection
from django.http import HttpResponse

HEALTH_PATH = "/healthz"


def _database_answers():
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except DatabaseError:
        return False


class HealthCheckMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path != HEALTH_PATH:
            return self.get_response(request)
        if _database_answers():
            return HttpResponse("ok\n", content_type="text/plain")
        return HttpResponse("database unreachable\n", status=503, content_type="text/plain")
