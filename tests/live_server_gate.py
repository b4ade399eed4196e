"""The live server's requests, counted, so a test's database flush never races one.

A browser test ends by closing its pages, and a page being closed still sends what
it sends on `pagehide` (the draft autosave posts with `keepalive`). pytest-django
then empties the database with one TRUNCATE of every table. On PostgreSQL a draft
save that reached the live server at that moment deadlocked it (the save held a
lock on one table and waited for another that the TRUNCATE held; CI of 3 December,
tests/e2e/test_learner_loop.py). The gate wraps the live server's WSGI app: when a
test is over it turns new requests away without touching the database and waits
for those in flight to finish; the next test opens it again.
"""

import threading
import time


class RequestGate:
    def __init__(self, app):
        self.app = app
        self.is_open = True
        self.in_flight = 0
        self.changed = threading.Condition()

    @classmethod
    def on(cls, live_server):
        """The gate around `live_server`'s app, put there the first time it is asked for."""
        server = live_server.thread.httpd
        app = server.get_app()
        if not isinstance(app, cls):
            app = cls(app)
            server.set_app(app)
        return app

    def __call__(self, environ, start_response):
        with self.changed:
            if not self.is_open:
                start_response("503 Service Unavailable", [("Content-Type", "text/plain; charset=utf-8")])
                return [b"The test this request belonged to is over.\n"]
            self.in_flight += 1
        try:
            result = self.app(environ, start_response)
        except BaseException:
            self._finished()
            raise
        return _ClosingResult(result, self._finished)

    def open(self):
        with self.changed:
            self.is_open = True

    def close_and_wait(self, timeout_s):
        """Turns new requests away and waits until none is in flight."""
        deadline = time.monotonic() + timeout_s
        with self.changed:
            self.is_open = False
            while self.in_flight:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(
                        f"{self.in_flight} live-server request(s) still running {timeout_s} s after the test"
                    )
                self.changed.wait(left)

    def _finished(self):
        with self.changed:
            self.in_flight -= 1
            self.changed.notify_all()


class _ClosingResult:
    """The app's response, passed through; done once the server closes it (after the
    body is sent, or when the client went away), which is when Django ends the request."""

    def __init__(self, result, done):
        self.result = result
        self.done = done

    def __iter__(self):
        return iter(self.result)

    def close(self):
        try:
            close = getattr(self.result, "close", None)
            if close is not None:
                close()
        finally:
            done, self.done = self.done, None
            if done is not None:
                done()
