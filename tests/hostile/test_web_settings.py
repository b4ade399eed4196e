"""Issue 12, finding 7: settings that leak. DEBUG is off unless asked for, a
foreign Host header gets a plain 400 (the debug page showed DATABASE_URL with
its password), the server refuses the repository's SECRET_KEY, and
`manage.py check --deploy` is clean under docker-compose.yml's settings.

Each runs Django in a fresh process with a clean environment, since settings
are read once, at import."""

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
#: What the environment of a fresh shell holds: nothing of the project's own settings.
PROJECT_VARIABLES = re.compile(
    r"^(DEBUG|SECRET_KEY|DATABASE_URL|REDIS_URL|ALLOWED_HOSTS|SECURE_\w+|TRUST_X_FORWARDED_PROTO|DJANGO_\w+|PYTEST\w*)$"
)


def clean_environment(tmp_path, **settings):
    environment = {name: value for name, value in os.environ.items() if not PROJECT_VARIABLES.match(name)}
    environment.update(DJANGO_SETTINGS_MODULE="interview_platform.settings", HOTPATH_RUN_DIR=str(tmp_path / "run"))
    environment.update(settings)
    return environment


def run_python(code, environment):
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120
    )


def test_debug_is_off_unless_asked_for(tmp_path):
    show = "import django; django.setup(); from django.conf import settings; print(settings.DEBUG)"
    assert run_python(show, clean_environment(tmp_path)).stdout.strip() == "False"
    assert run_python(show, clean_environment(tmp_path, DEBUG="1")).stdout.strip() == "True"


SERVE_FOREIGN_HOST = """
import io, sys
from wsgiref.util import setup_testing_defaults
from interview_platform.wsgi import application
environ = {"HTTP_HOST": "attacker.example", "PATH_INFO": "/", "wsgi.errors": io.StringIO()}
setup_testing_defaults(environ)
status = []
body = b"".join(application(environ, lambda line, headers, exc_info=None: status.append(line)))
print(status[0])
print(body.decode())
"""


def test_a_foreign_host_gets_a_plain_400_without_settings(tmp_path):
    """What gunicorn serves with only a SECRET_KEY and a database URL set: no debug
    page, so no DATABASE_URL (whose password Django's cleanser does not hide)."""
    password = f"canary-{secrets.token_hex(8)}"
    environment = clean_environment(
        tmp_path,
        SECRET_KEY=secrets.token_urlsafe(50),
        DATABASE_URL=f"postgres://hotpath:{password}@db.invalid:5432/hotpath",
    )
    served = run_python(SERVE_FOREIGN_HOST, environment)
    assert served.returncode == 0, served.stderr[-2000:]
    assert served.stdout.startswith("400 ")
    assert password not in served.stdout and "DATABASE_URL" not in served.stdout
    assert "Bad Request" in served.stdout


@pytest.mark.parametrize("entry_point", ["interview_platform.wsgi", "interview_platform.asgi"])
def test_the_server_refuses_the_built_in_secret_key(tmp_path, entry_point):
    served = run_python(f"import {entry_point}", clean_environment(tmp_path))
    assert served.returncode != 0
    assert "SECRET_KEY is the built-in default" in served.stderr
    assert run_python(f"import {entry_point}", clean_environment(tmp_path, DEBUG="1")).returncode == 0


#: Values docker-compose.yml requires that are not secrets of any shape.
OPERATOR_SETS = {"EMAIL_URL": "smtp+tls://hotpath:password@smtp.example.com:587"}


def compose_environment():
    """docker-compose.yml's app environment with its defaults, as `docker compose` expands it."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())

    def expand(text):
        def one(match):
            name, operator, default = match.group(1), match.group(2) or "", match.group(3) or ""
            if operator != ":?":
                return default
            # What it requires (`${SECRET_KEY:?...}`) the operator sets: a realistic value, else a strong random one.
            return OPERATOR_SETS.get(name) or secrets.token_urlsafe(50)

        return re.sub(r"\$\{(\w+)(?:(:-|:\?)([^}]*))?\}", one, str(text))

    return {name: expand(value) for name, value in compose["x-app-environment"].items()}


def test_check_deploy_is_clean_under_docker_compose_settings(tmp_path):
    environment = clean_environment(tmp_path, **compose_environment())
    assert environment["DEBUG"] == "0"
    checked = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 0, checked.stderr[-3000:]
    assert "no issues" in checked.stdout
