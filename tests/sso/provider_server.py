"""Run the test OpenID Connect provider (provider_site.py) on 127.0.0.1.

Usage: python tests/sso/provider_server.py SETUP.json, with the environment
provider_site.py reads. SETUP.json lists the provider's users ({username, password,
email, email_verified}) and clients ({client_id, client_secret, redirect_uri}). The
server creates them, prints "PORT <n>" on one line when it serves, and runs until
killed.
"""

import json
import os
import sys
from pathlib import Path
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ["DJANGO_SETTINGS_MODULE"] = "tests.sso.provider_site"

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import Group, User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402
from oauth2_provider.models import Application  # noqa: E402

from tests.sso.provider_site import UNVERIFIED_GROUP  # noqa: E402


class ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class QuietHandler(WSGIRequestHandler):
    def log_message(self, format, *args):
        pass


def create(setup):
    unverified = Group.objects.create(name=UNVERIFIED_GROUP)
    for person in setup["users"]:
        user = User.objects.create_user(person["username"], person["email"], person["password"])
        if not person["email_verified"]:
            user.groups.add(unverified)
    for client in setup["clients"]:
        Application.objects.create(
            name=client["client_id"],
            client_id=client["client_id"],
            client_secret=client["client_secret"],
            client_type=Application.CLIENT_CONFIDENTIAL,
            authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
            redirect_uris=client["redirect_uri"],
            algorithm=Application.RS256_ALGORITHM,
            skip_authorization=True,
        )


def main(setup_path):
    call_command("migrate", verbosity=0)
    create(json.loads(Path(setup_path).read_text()))
    server = make_server(
        "127.0.0.1", 0, get_wsgi_application(), server_class=ThreadingServer, handler_class=QuietHandler
    )
    print(f"PORT {server.server_port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main(sys.argv[1])
