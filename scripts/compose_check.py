"""The HTTP half of `make compose-check` (scripts/compose_check.sh brings the
stack up and down): a learner's round trip through the running stack, as a
browser behind the TLS proxy would make it (X-Forwarded-Proto: https).

    python3 scripts/compose_check.py --web http://127.0.0.1:8000 --mail http://127.0.0.1:8025 [--invite] [--room]

Signs up, opens the verification link from the mail catcher when the site sends
one, submits the model solution of python-loop-to-numpy and a wrong answer
through the exercise's form and waits for `accepted` and `wrong_answer`; with
--invite, creates an organisation and invites a member, and waits for that
invitation in the mail catcher; with --room, opens an interview room and its
websocket through the same host and port, as the room's page does, and has one
message go through the room and back. The standard library only, and the
`websockets` package for --room. Exits 1 with the reason on the first failure.
"""

import argparse
import http.cookiejar
import json
import re
import secrets
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

SLUG = "python-loop-to-numpy"
WRONG_ANSWER = "import numpy as np\n\n\ndef transform(x):\n    return 2.0 * x + 1.0\n"
GRADING_WAIT_S = 900
MAIL_WAIT_S = 180
CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class CheckFailed(Exception):
    pass


class Browser:
    """Cookies, CSRF tokens and the headers a TLS proxy adds."""

    def __init__(self, base):
        self.base = base.rstrip("/")
        netloc = urllib.parse.urlsplit(self.base).netloc
        self.origin = f"https://{netloc}"
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))
        self.opener.addheaders = [("X-Forwarded-Proto", "https"), ("Origin", self.origin)]

    def request(self, path, data=None):
        url = path if path.startswith("http") else self.base + path
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(
            url, data=body, headers={"Referer": self.origin + urllib.parse.urlsplit(url).path}
        )
        try:
            with self.opener.open(request, timeout=60) as response:
                return response.geturl(), response.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as error:
            raise CheckFailed(
                f"{'POST' if data is not None else 'GET'} {path}: HTTP {error.code}: {error.read()[:400]!r}"
            ) from None

    def csrf(self, path):
        _, page = self.request(path)
        match = CSRF_FIELD.search(page)
        if not match:
            raise CheckFailed(f"no CSRF token on {path}")
        return match.group(1)

    def post_form(self, form_path, action, fields):
        return self.request(action, {"csrfmiddlewaretoken": self.csrf(form_path), **fields})


def mail_to(mail_base, address, subject_part, deadline):
    while time.monotonic() < deadline:
        with urllib.request.urlopen(f"{mail_base.rstrip('/')}/messages", timeout=10) as response:
            for message in json.load(response):
                if address in message["to"] and subject_part.lower() in message["subject"].lower():
                    return message
        time.sleep(2)
    return None


def sign_up(browser, mail_base, username, email, password):
    url, page = browser.post_form(
        "/accounts/signup/",
        "/accounts/signup/",
        {"username": username, "email": email, "password1": password, "password2": password},
    )
    if "/accounts/signup/" in url:
        raise CheckFailed(f"sign-up refused: {re.sub(r'<[^>]+>', ' ', page)[-600:]}")
    print(f"signed up {username}")
    if "verify" in page.lower():  # the site asks for the address to be verified first
        message = mail_to(mail_base, email, "", time.monotonic() + MAIL_WAIT_S)
        if message is None:
            raise CheckFailed(f"no verification mail to {email} reached the mail catcher")
        link = re.search(r"https?://\S+/accounts/verify/[^\s/]+/", message["body"])
        if not link:
            raise CheckFailed(f"no verification link in the mail: {message['body'][:400]!r}")
        browser.request(urllib.parse.urlsplit(link.group(0)).path)
        print(f"verified {email} with the link from the mail catcher")


def submit(browser, code):
    url, _ = browser.post_form(f"/questions/{SLUG}/", f"/submissions/exercise/{SLUG}/submit/", {"code": code})
    match = re.search(r"/submissions/(\d+)/", url)
    if not match:
        raise CheckFailed(f"submitting did not lead to a submission page (ended on {url})")
    return int(match.group(1))


def wait_for_verdicts(browser, expected):
    """expected: {submission id: verdict}. Returns {id: status JSON} once all are final."""
    deadline = time.monotonic() + GRADING_WAIT_S
    final = {}
    while len(final) < len(expected):
        if time.monotonic() > deadline:
            raise CheckFailed(f"not graded within {GRADING_WAIT_S}s: {sorted(set(expected) - set(final))}")
        for pk in expected:
            if pk not in final:
                _, body = browser.request(f"/submissions/{pk}/status/")
                state = json.loads(body)
                if state["is_final"]:
                    final[pk] = state
                    print(f"submission {pk}: {state['verdict']}")
        time.sleep(3)
    for pk, verdict in expected.items():
        if final[pk]["verdict"] != verdict:
            raise CheckFailed(
                f"submission {pk} got {final[pk]['verdict']!r}, expected {verdict!r}: {json.dumps(final[pk])[:2000]}"
            )
    return final


def invite(browser, mail_base, suffix):
    organisation = f"Check {suffix}"
    url, _ = browser.post_form("/teams/new/", "/teams/new/", {"name": organisation})
    match = re.search(r"/teams/org/([\w-]+)/", url)
    if not match:
        raise CheckFailed(f"creating an organisation did not lead to its page (ended on {url})")
    invitee = f"invitee-{suffix}@example.com"
    path = f"/teams/org/{match.group(1)}/"
    browser.post_form(path, f"{path}members/invite/", {"email": invitee, "role": "reviewer"})
    message = mail_to(mail_base, invitee, organisation, time.monotonic() + MAIL_WAIT_S)
    if message is None:
        raise CheckFailed(f"the invitation to {invitee} did not reach the mail catcher")
    print(f"invitation mail reached the catcher: {message['subject']!r}")


def room_round_trip(browser):
    """Opens a room on the exercise, connects to its websocket with the session cookie and the
    site's origin (as the browser does, through web's own port), waits for the room's hello,
    sends a cursor and waits for it to come back through the room's group (the channel layer)."""
    from websockets.exceptions import WebSocketException
    from websockets.sync.client import connect

    url, _ = browser.post_form(f"/rooms/new/?exercise={SLUG}", "/rooms/new/", {"exercise": SLUG})
    match = re.search(r"/rooms/([0-9a-f-]{36})/$", url)
    if not match:
        raise CheckFailed(f"opening a room did not lead to it (ended on {url})")
    cookies = "; ".join(f"{cookie.name}={cookie.value}" for cookie in browser.cookies)
    address = browser.base.replace("http://", "ws://", 1) + f"/ws/rooms/{match.group(1)}/"
    try:
        with connect(address, origin=browser.origin, additional_headers={"Cookie": cookies}, open_timeout=30) as socket:
            hello = json.loads(socket.recv(timeout=30))
            if hello.get("event") != "hello":
                raise CheckFailed(f"the room's first message is not its hello: {hello!r}")
            socket.send(json.dumps({"type": "cursor", "anchor": 0, "head": 1, "clientID": "compose-check"}))
            echoed = json.loads(socket.recv(timeout=30))
    except (OSError, TimeoutError, WebSocketException) as error:
        raise CheckFailed(f"the room's websocket at {address}: {type(error).__name__}: {error}") from None
    if echoed.get("event") != "cursor" or echoed.get("clientID") != "compose-check":
        raise CheckFailed(f"the cursor did not come back through the room: {echoed!r}")
    print(f"room {match.group(1)}: websocket hello (version {hello['version']}) and a cursor back through the room")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--web", required=True)
    parser.add_argument("--mail", required=True)
    parser.add_argument("--solution", default=None, help="the model solution (default: from the bank)")
    parser.add_argument(
        "--invite", action="store_true", help="also create an organisation and check its invitation mail"
    )
    parser.add_argument("--room", action="store_true", help="also open an interview room and use its websocket")
    args = parser.parse_args()
    solution = Path(args.solution) if args.solution else next(Path("questions/bank").glob(f"*/{SLUG}/solution.py"))
    suffix = secrets.token_hex(4)
    browser = Browser(args.web)
    try:
        sign_up(browser, args.mail, f"check{suffix}", f"check-{suffix}@example.com", secrets.token_urlsafe(16))
        expected = {submit(browser, solution.read_text()): "accepted", submit(browser, WRONG_ANSWER): "wrong_answer"}
        wait_for_verdicts(browser, expected)
        if args.invite:
            invite(browser, args.mail, suffix)
        if args.room:
            room_round_trip(browser)
    except CheckFailed as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
