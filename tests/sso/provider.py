"""Start the test OpenID Connect provider (provider_server.py) and act as a person at it.

Used by tests/sso (conftest.py) and the browser test tests/e2e/test_sso_flow.py."""

import contextlib
import json
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

SERVER = Path(__file__).with_name("provider_server.py")
CLIENT_ID = "hotpath-acme"
CLIENT_SECRET = "a-client-secret-only-the-test-knows"
PASSWORD = "provider-password"
#: The provider's users: (username, e-mail, verified by the provider).
PROVIDER_USERS = [
    ("alice", "alice@acme.test", True),
    ("bob", "bob@acme.test", True),
    ("carol", "carol@acme.test", True),
    ("unverified", "unverified@acme.test", False),
    ("outsider", "outsider@elsewhere.test", True),
]


def rsa_key_pem():
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()


class Provider:
    """The running provider: its issuer, and a person's sign-in there."""

    def __init__(self, port, published_key_file):
        self.issuer = f"http://127.0.0.1:{port}/o"
        self.published_key_file = published_key_file

    def authorize(self, authorize_url, username):
        """Sign `username` in at the provider and open `authorize_url`: the provider's
        redirect back to us (the callback's path and query)."""
        with requests.Session() as browser:
            login_url = f"{urlsplit(self.issuer)._replace(path='/accounts/login/').geturl()}"
            browser.get(login_url, timeout=10)
            signed_in = browser.post(
                login_url,
                timeout=10,
                allow_redirects=False,
                data={
                    "username": username,
                    "password": PASSWORD,
                    "csrfmiddlewaretoken": browser.cookies["csrftoken"],
                },
            )
            assert signed_in.status_code == 302, signed_in.text
            answer = browser.get(authorize_url, timeout=10, allow_redirects=False)
        assert answer.status_code == 302, answer.text
        back = urlsplit(answer.headers["Location"])
        assert back.netloc == "testserver", answer.headers["Location"]
        return f"{back.path}?{back.query}"


@contextlib.contextmanager
def running_provider(folder, redirect_uri):
    """The provider, serving on 127.0.0.1 until the block ends, with PROVIDER_USERS and one
    client (CLIENT_ID, CLIENT_SECRET) whose redirect URI is `redirect_uri`; its database and
    keys in `folder`."""
    (folder / "signing.pem").write_text(rsa_key_pem())
    setup = {
        "users": [
            {"username": name, "email": email, "password": PASSWORD, "email_verified": verified}
            for name, email, verified in PROVIDER_USERS
        ],
        "clients": [{"client_id": CLIENT_ID, "client_secret": CLIENT_SECRET, "redirect_uri": redirect_uri}],
    }
    (folder / "setup.json").write_text(json.dumps(setup))
    environment = {
        "PROVIDER_DATABASE": str(folder / "provider.sqlite3"),
        "PROVIDER_SIGNING_KEY_FILE": str(folder / "signing.pem"),
        "PROVIDER_PUBLISHED_KEY_FILE": str(folder / "published.pem"),
        "PATH": "/usr/bin:/bin",
    }
    process = subprocess.Popen(
        [sys.executable, str(SERVER), str(folder / "setup.json")], env=environment, stdout=subprocess.PIPE, text=True
    )
    try:
        line = process.stdout.readline()
        assert line.startswith("PORT "), f"the provider did not start (exit code {process.poll()})"
        yield Provider(int(line.split()[1]), folder / "published.pem")
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()  # a loaded host can outlast a polite request; the provider keeps nothing
            process.wait(timeout=10)
        process.stdout.close()
