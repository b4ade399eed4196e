"""The site's websocket application: the interview rooms (rooms/routing.py), for
signed-in people (the session cookie), from this site's own origins (ALLOWED_HOSTS)."""

from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.security.websocket import AllowedHostsOriginValidator

from rooms.routing import websocket_urlpatterns


def websocket_application():
    return AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
