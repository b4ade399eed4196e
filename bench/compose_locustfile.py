"""Locust's learners for the load-and-fault run on the compose stack (bench/compose_load.py starts it).

Each simulated learner signs in with an account from HOTPATH_LOAD_LEARNERS (a JSON file of
{"username", "password"}, one account per Locust user) and then, with a few seconds' thought
between actions, browses the site (home, the question list, the exercise, its leaderboard,
the learner's submissions and progress), runs quick checks of python-loop-to-numpy (posted as
the exercise page's script posts them, then its status polled every second until final) and
submits full gradings through the form (a third the model solution, the rest a wrong answer,
its status polled every few seconds as the submission page does, for a minute at most).
Requests carry the headers the TLS proxy adds (X-Forwarded-Proto: https), so the site treats
them as it treats a browser's.

Every submission the site accepted is written, when the run stops, to HOTPATH_LOAD_RECORD
(JSON: id, learner, purpose, the time it was accepted, and the time and verdict its learner
saw it final, or null when the run ended first): the driver checks each against the database.
Locust's own statistics (per page: p50, p95, p99) come from its --csv files; the quick check's
latency, submission to verdict as the learner sees it, is recorded as the pseudo-request
"quick check: submit to verdict" so it lands in the same table.
"""

import itertools
import json
import os
import re
import threading
import time
from pathlib import Path

from locust import HttpUser, between, events, task

SLUG = "python-loop-to-numpy"
WRONG_ANSWER = "import numpy as np\n\n\ndef transform(x):\n    return 2.0 * x + 1.0\n"
CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
#: How long a learner watches a submission before going back to browsing (it is still checked later).
CHECK_WATCH_S = 90
GRADING_WATCH_S = 60
QUICK_CHECK_LATENCY = "quick check: submit to verdict"

_learners = json.loads(Path(os.environ["HOTPATH_LOAD_LEARNERS"]).read_text())
_next_learner = itertools.count()
_record_lock = threading.Lock()
_records = []


def _solution():
    bank = Path(__file__).resolve().parent.parent / "questions" / "bank"
    return next(bank.glob(f"*/{SLUG}/solution.py")).read_text()


SOLUTION = _solution()


@events.test_stop.add_listener
def _write_records(**kwargs):
    with _record_lock:
        Path(os.environ["HOTPATH_LOAD_RECORD"]).write_text(json.dumps(_records, indent=1))


class Learner(HttpUser):
    wait_time = between(2, 6)

    def on_start(self):
        account = _learners[next(_next_learner) % len(_learners)]
        self.username = account["username"]
        host = self.host.split("://", 1)[1]
        self.origin = f"https://{host}"
        self.client.headers.update({"X-Forwarded-Proto": "https", "Origin": self.origin})
        self.submitted = 0
        self.signed_in = False
        self.password = account["password"]
        self._sign_in()

    def _sign_in(self):
        token = self._csrf("/accounts/login/", "/accounts/login/")
        if token is None:
            return
        with self.client.post(
            "/accounts/login/",
            data={"csrfmiddlewaretoken": token, "username": self.username, "password": self.password},
            headers={"Referer": self.origin + "/accounts/login/"},
            name="/accounts/login/ (post)",
            catch_response=True,
        ) as response:
            self.signed_in = response.ok and "/accounts/login/" not in response.url
            if not self.signed_in:
                response.failure(f"sign-in refused for {self.username}")

    def _csrf(self, path, name):
        response = self.client.get(path, name=name)
        match = CSRF_FIELD.search(response.text) if response.ok else None
        return match.group(1) if match else None

    def _record(self, submission_id, purpose, accepted_at):
        entry = {
            "id": submission_id,
            "learner": self.username,
            "purpose": purpose,
            "accepted_at": accepted_at,
            "seen_final_at": None,
            "verdict": None,
        }
        with _record_lock:
            _records.append(entry)
        return entry

    def _watch(self, entry, every_s, limit_s):
        """Polls the status as the page does until final; True when the learner saw the verdict."""
        deadline = time.time() + limit_s
        while time.time() < deadline:
            response = self.client.get(f"/submissions/{entry['id']}/status/", name="/submissions/[id]/status/")
            if response.ok:
                state = response.json()
                if state["is_final"]:
                    entry["seen_final_at"], entry["verdict"] = time.time(), state["verdict"]
                    return True
            time.sleep(every_s)
        return False

    @task(4)
    def browse(self):
        if not self.signed_in:
            self._sign_in()
            return
        self.client.get("/", name="/ (home)")
        self.client.get("/questions/", name="/questions/")
        self.client.get(f"/questions/{SLUG}/", name="/questions/[slug]/")
        self.client.get(f"/leaderboards/exercises/{SLUG}/", name="/leaderboards/exercises/[slug]/")
        self.client.get("/submissions/", name="/submissions/")
        self.client.get("/questions/progress/", name="/questions/progress/")

    @task(2)
    def quick_check(self):
        if not self.signed_in:
            return
        token = self._csrf(f"/questions/{SLUG}/", "/questions/[slug]/")
        if token is None:
            return
        code = SOLUTION if self.submitted % 2 == 0 else WRONG_ANSWER
        started = time.time()
        response = self.client.post(
            f"/submissions/exercise/{SLUG}/submit/",
            data={"csrfmiddlewaretoken": token, "code": code, "purpose": "check"},
            headers={"Accept": "application/json", "Referer": f"{self.origin}/questions/{SLUG}/"},
            name="/submissions/exercise/[slug]/submit/ (check)",
        )
        if response.status_code != 201:
            return  # refused (rate, queue cap) or failed: Locust counts it; nothing was queued
        self.submitted += 1
        entry = self._record(response.json()["id"], "check", started)
        if self._watch(entry, 1, CHECK_WATCH_S):
            events.request.fire(
                request_type="CHECK",
                name=QUICK_CHECK_LATENCY,
                response_time=(entry["seen_final_at"] - started) * 1000,
                response_length=0,
                exception=None,
                context={},
            )

    @task(2)
    def submit(self):
        if not self.signed_in:
            return
        token = self._csrf(f"/questions/{SLUG}/", "/questions/[slug]/")
        if token is None:
            return
        # A third of the full gradings are the model solution (a whole timed grading), the rest a wrong
        # answer (stopped at its first wrong input), as learners get an exercise right after some tries.
        code = SOLUTION if self.submitted % 3 == 0 else WRONG_ANSWER
        started = time.time()
        with self.client.post(
            f"/submissions/exercise/{SLUG}/submit/",
            data={"csrfmiddlewaretoken": token, "code": code},
            headers={"Referer": f"{self.origin}/questions/{SLUG}/"},
            name="/submissions/exercise/[slug]/submit/ (grading)",
            catch_response=True,
        ) as response:
            match = re.search(r"/submissions/(\d+)/$", response.url or "")
            if not match:
                if response.ok:
                    response.failure("not taken (rate or queue cap)")
                return
        self.submitted += 1
        entry = self._record(int(match.group(1)), "practice", started)
        self._watch(entry, 3, GRADING_WATCH_S)
