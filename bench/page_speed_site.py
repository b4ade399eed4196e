"""Settings for bench/page_speed.py alone: the project's settings with the URLconf of
bench/page_speed_urls.py, which adds a bare Django "hello" view to measure the pages
against. Production never loads either module (interview_platform/urls.py has no hello
view); gunicorn finds them with `--pythonpath bench` and DJANGO_SETTINGS_MODULE=page_speed_site."""

from interview_platform.settings import *  # noqa: F401,F403  (the project's settings, unchanged)

ROOT_URLCONF = "page_speed_urls"
