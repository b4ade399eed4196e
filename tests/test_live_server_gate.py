"""The gate that keeps a browser test's last requests out of the database flush
(tests/live_server_gate.py): it waits for a request in flight, turns later ones away
without calling the app, and opens again for the next test."""

import threading

import pytest

from tests.live_server_gate import RequestGate


class SlowApp:
    """A WSGI app that answers only once `release` is set, and counts its calls."""

    def __init__(self):
        self.started = threading.Event()
        self.release = threading.Event()
        self.calls = 0

    def __call__(self, environ, start_response):
        self.calls += 1
        self.started.set()
        self.release.wait(10)
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"saved"]


def serve(gate):
    """What wsgiref's handler does with a response: start it, read the body, close it."""
    statuses = []
    result = gate({}, lambda status, headers: statuses.append(status))
    try:
        body = b"".join(result)
    finally:
        if hasattr(result, "close"):
            result.close()
    return statuses[0], body


def test_the_flush_waits_for_a_request_in_flight_and_later_ones_never_reach_the_app():
    app = SlowApp()
    gate = RequestGate(app)
    served = []
    request = threading.Thread(target=lambda: served.append(serve(gate)))
    request.start()
    assert app.started.wait(10)

    closing = threading.Thread(target=gate.close_and_wait, kwargs={"timeout_s": 10})
    closing.start()
    closing.join(0.2)
    assert closing.is_alive(), "the gate did not wait for the request in flight"
    assert serve(gate)[0].startswith("503") and app.calls == 1  # turned away: the database is not touched

    app.release.set()
    request.join(10)
    closing.join(10)
    assert not closing.is_alive() and served == [("200 OK", b"saved")]

    gate.open()
    assert serve(gate) == ("200 OK", b"saved") and app.calls == 2


def test_a_request_whose_client_went_away_still_counts_as_finished():
    app = SlowApp()
    app.release.set()
    gate = RequestGate(app)
    result = gate({}, lambda status, headers: None)
    result.close()  # wsgiref closes the response when the client disconnects mid-body
    result.close()  # and closing twice counts once
    gate.close_and_wait(timeout_s=1)
    assert gate.in_flight == 0


def test_a_request_still_running_after_the_timeout_fails_the_test_loudly():
    app = SlowApp()
    gate = RequestGate(app)
    threading.Thread(target=serve, args=(gate,), daemon=True).start()
    assert app.started.wait(10)
    with pytest.raises(TimeoutError, match="1 live-server request"):
        gate.close_and_wait(timeout_s=0.2)
    app.release.set()


def test_every_live_server_test_runs_behind_the_gate(live_server):
    """The autouse fixture (tests/conftest.py) put the gate in front of the live
    server's app and opened it for this test; requests go through to Django."""
    from urllib.request import urlopen

    gate = live_server.thread.httpd.get_app()
    assert isinstance(gate, RequestGate) and gate.is_open
    with urlopen(f"{live_server.url}/healthz", timeout=10) as response:
        assert response.status == 200
    gate.close_and_wait(timeout_s=10)  # the server closes the response just after sending it
    assert gate.in_flight == 0
