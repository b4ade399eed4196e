"""The ASGI entry point (uvicorn: `make run` and the compose web service): Django's pages over
HTTP, and the websockets of interview_platform/websockets.py."""

import os

from django.conf import settings
from django.core.asgi import get_asgi_application
from django.core.exceptions import ImproperlyConfigured

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "interview_platform.settings")
# Django first: the websocket routing imports models.
django_application = get_asgi_application()

from channels.routing import ProtocolTypeRouter  # noqa: E402

from .websockets import websocket_application  # noqa: E402

# As in wsgi.py: never serve sessions signed with the key that is in the repository.
if not settings.DEBUG and settings.SECRET_KEY == settings.DEFAULT_SECRET_KEY:
    raise ImproperlyConfigured("DEBUG is off but SECRET_KEY is the built-in default: set SECRET_KEY")

application = ProtocolTypeRouter({"http": django_application, "websocket": websocket_application()})
