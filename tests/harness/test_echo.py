"""The transfer-overhead correction: the reference runner's "echo" call, the
net-of-overhead statistics and the byte-level comparisons."""

import os
import socket
import sys
import time

import numpy as np
import pytest

from grader.harness import compare, ipc, stats, supervisor
from grader.harness.runner import Runner
from grader.harness.sides import CallOutcome, InputBundle, _result_buffer

from .jobs import pair_grading

WAIT_NS = 10 * 1_000_000_000
TOLERANCE = {"rtol": 1e-9, "atol": 0.0}
#: A reference that must never run during an echo.
EXPLODING_REFERENCE = """
def transform(x, scale):
    raise RuntimeError("the entry point ran during an echo")
"""


@pytest.fixture
def cpu_runner(tmp_path, monkeypatch):
    """A loaded CPU runner for `role`, driven message by message; yields a start(role) function."""
    channels = []

    def start(role):
        monkeypatch.setitem(sys.modules, role, None)  # load() registers the module there
        module_path = tmp_path / f"{role}.py"
        module_path.write_text(EXPLODING_REFERENCE)
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        channels.extend([ours, theirs])
        runner = Runner(role, ipc.Channel(theirs), str(module_path), "transform", "cpu", ["numpy"])
        runner.source = EXPLODING_REFERENCE  # what the supervisor's "module" message brings
        runner.load()
        return runner, ipc.Channel(ours)

    yield start
    for sock in channels:
        sock.close()


def echo(runner, channel, args, like):
    """Sends an echo of `args` shaped like `like`; returns (handled, decoded answer or reply)."""
    bundle = InputBundle(args)
    try:
        message = {"op": "echo", "like": ipc.encode(like, ipc.Arena()), "args": bundle.meta, "size": bundle.size}
        handled = runner.handle("echo", message, [os.dup(bundle.fd)])
    finally:
        bundle.close()
    if not handled:
        return False, None
    reply, fds = channel.receive(time.perf_counter_ns() + WAIT_NS)
    try:
        buffer = _result_buffer(reply, fds)
    finally:
        ipc.close_fds(fds)
    assert reply["ok"] is True, reply
    return True, ipc.decode(reply["value"], buffer)


def test_reference_echo_returns_a_blank_answer_shaped_like_the_reference_without_running_it(cpu_runner):
    runner, channel = cpu_runner("reference")
    like = (np.ones((3, 4), dtype=np.float32), np.arange(5, dtype=np.int64), 2.5, None)
    handled, answer = echo(runner, channel, (np.arange(12.0), 2.0), like)
    assert handled
    assert answer[0].shape == (3, 4) and answer[0].dtype == np.float32
    assert answer[1].shape == (5,) and answer[1].dtype == np.int64
    assert answer[2] == 2.5 and answer[3] is None
    assert compare.compare(like, answer, TOLERANCE, custom_check=lambda *_: (True, "")) is None


def test_only_the_reference_runner_echoes(cpu_runner):
    runner, _ = cpu_runner("submission")
    handled, _ = echo(runner, None, (np.arange(4.0), 1.0), np.ones(4))
    assert handled is False


# -- net-of-overhead statistics ---------------------------------------------------


def test_speedup_is_the_median_ratio_of_net_pair_times():
    overhead = [0.10, 0.11, 0.09, 0.10, 0.10]
    reference = [0.33, 0.34, 0.32, 0.33, 0.33]  # 0.23 s of work
    submission = [0.56, 0.57, 0.55, 0.56, 0.56]  # 0.46 s of work
    assert stats.net_median(reference, overhead) == pytest.approx(0.23)
    assert stats.speedup(reference, submission, overhead) == pytest.approx(0.5)
    assert stats.speedup(reference, submission) == pytest.approx(0.33 / 0.56)
    low, high = stats.speedup_interval(reference, submission, overhead)
    assert 0.49 <= low <= 0.5 <= high <= 0.51  # pair ratios of 0.22/0.45 .. 0.24/0.47, net of the echoes
    assert (low, high) == stats.speedup_interval(reference, submission, overhead)


def test_net_time_never_falls_below_its_floor():
    overhead = [0.10, 0.10, 0.10]
    submission = [0.098, 0.101, 0.099]  # all overhead: noise must not become a huge speedup
    assert stats.net_median(submission, overhead) == pytest.approx(stats.NET_FLOOR_FRACTION * 0.099)
    low, high = stats.speedup_interval([0.3, 0.3, 0.3], submission, overhead)
    assert 0 < low <= high <= 0.2 / (stats.NET_FLOOR_FRACTION * min(submission))
    jittery = [0.08, 0.10, 0.12, 0.10, 0.08]  # below its jitter a difference cannot be told from zero
    assert stats.overhead_level(jittery) == pytest.approx(0.10)
    assert stats.overhead_jitter(jittery) == pytest.approx(0.0)  # the faster half: 0.08, 0.08, 0.10
    assert stats.overhead_jitter([0.08, 0.09, 0.10, 0.11, 0.12]) == pytest.approx(0.01)


def test_echo_stalls_do_not_swallow_the_speedup():
    """On a virtual machine some echoes stall for longer than a whole real call.
    Four of eleven here: the overhead must still be read from the unstalled ones."""
    echoes = [0.04, 0.30, 0.04, 0.05, 0.32, 0.04, 0.05, 0.04, 0.29, 0.04, 0.31]
    reference = [0.28] * 11
    submission = [0.13] * 11
    assert stats.overhead_level(echoes) == pytest.approx(0.04)
    assert stats.speedup(reference, submission, echoes) == pytest.approx((0.28 - 0.04) / (0.13 - 0.04))
    low, high = stats.speedup_interval(reference, submission, echoes)
    assert 2.0 < low <= high < 3.0


def test_overhead_level_is_not_read_low_under_ordinary_jitter():
    """Jitter that goes both ways must not move the level: a level read low
    leaves overhead in both sides' times and pulls the ratio towards 1."""
    rng = np.random.default_rng(7)
    echoes = 0.05 + rng.normal(0.0, 0.005, size=15)
    reference = 0.05 + 0.20 + rng.normal(0.0, 0.002, size=15)
    submission = 0.05 + 0.40 + rng.normal(0.0, 0.002, size=15)
    assert stats.overhead_level(echoes) == pytest.approx(0.05, abs=0.003)
    assert stats.speedup(reference, submission, echoes) == pytest.approx(0.5, abs=0.01)


def test_overhead_level_works_along_the_last_axis():
    rows = np.array([[0.04, 0.30, 0.04, 0.05], [0.10, 0.11, 0.09, 0.10]])
    assert stats.overhead_level(rows) == pytest.approx([0.04, 0.10])


def test_overhead_needs_one_timing_per_pair():
    with pytest.raises(ValueError):
        stats.speedup_interval([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], [0.1, 0.1])


# -- byte-level comparisons -------------------------------------------------------


def test_same_bytes_is_exact():
    values = np.array([1.0, np.nan, -0.0, np.inf, 5e-324])
    assert ipc.same_bytes(values, values.copy())
    assert not ipc.same_bytes(values, np.array([1.0, np.nan, 0.0, np.inf, 5e-324]))
    assert not ipc.same_bytes(values, values.astype(np.float32))
    assert not ipc.same_bytes(values, values.reshape(5, 1))
    odd = np.arange(7, dtype=np.uint8)  # not a whole number of words
    changed = odd.copy()
    changed[6] = 0
    assert ipc.same_bytes(odd, odd.copy()) and not ipc.same_bytes(odd, changed)
    assert ipc.same_bytes(values[::2], values[::2].copy())


def test_comparison_still_finds_values_that_differ_in_their_last_bit():
    expected = np.linspace(0.0, 1.0, 1001)
    got = expected.copy()
    got[500] = np.nextafter(got[500], 2.0)
    assert compare.compare(expected, got, TOLERANCE) is None  # within rtol, though not the same bytes
    mismatch = compare.compare(expected, got, {"rtol": 0.0, "atol": 0.0})
    assert mismatch is not None and mismatch.failure["index"] == [500]


def test_input_mutation_is_seen_in_any_byte():
    args = (np.arange(1001, dtype=np.float64), np.arange(3, dtype=np.int8), 4.0)
    bundle = InputBundle(args)
    try:
        assert bundle.modified_arguments() == []
        view = ipc.map_shared(bundle.fd, bundle.size, writable=True)
        second = bundle.regions[1][1]
        view[second + 2] ^= 1
        assert bundle.modified_arguments() == [1]
    finally:
        bundle.close()


@pytest.mark.parametrize("order", [("reference", "submission"), ("submission", "reference")])
def test_each_sides_input_is_written_just_before_its_own_call(monkeypatch, order):
    """A desk's loop calls on an input it has just had; where a last-level cache
    holds a whole input, one written a call earlier has left it. So the second
    side's input is written after the first side's call, whichever goes first."""
    events = []

    class RecordingBundle(InputBundle):
        def __init__(self, args):
            super().__init__(args)
            events.append("written")

    class RecordingSide:
        def __init__(self, role):
            self.role = role

        def call(self, bundle, budget_ns, deadline_ns, answer_bytes=0, fresh_device_pool=False):
            events.append(f"{self.role} called")
            return CallOutcome("ok", value=np.ones(3))

    monkeypatch.setattr(supervisor, "InputBundle", RecordingBundle)
    grading = pair_grading({role: RecordingSide(role) for role in order})
    grading._checked_pair((np.ones(3),), "size 3", None, order)
    assert events == ["written", f"{order[0]} called", "written", f"{order[1]} called"]
