import os

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "interview_platform.settings")
application = get_wsgi_application()

# Every server (gunicorn, runserver) loads this module: refuse to serve sessions and
# password-reset links signed with a key that is in the repository.
if not settings.DEBUG and settings.SECRET_KEY == settings.DEFAULT_SECRET_KEY:
    raise ImproperlyConfigured("DEBUG is off but SECRET_KEY is the built-in default: set SECRET_KEY")
