"""The GPU call's three phases (stage, timed call, fetch) without a GPU: the
real supervisor side (Side) talks to the real runner over a socket pair, and
the runner's Device runs on a stand-in `cupy` module that logs what happens."""

import os
import socket
import sys
import threading
import time
import types
from pathlib import Path

import numpy as np
import pytest

from grader.harness import compare, feedback, ipc
from grader.harness.gpu import Device, DeviceHoldings, MemoryProbe
from grader.harness.runner import Runner
from grader.harness.sides import CallOutcome, InputBundle, PhaseClock, Side
from grader.harness.supervisor import Finished, Grading, copy_phase_overrun

from .jobs import pair_grading

TOLERANCE = {"rtol": 1e-9, "atol": 0.0}
#: The stand-in copies take this long, so the test can see which phase paid for them.
COPY_DELAY_S = 0.05
WAIT_NS = 10 * 1_000_000_000


# -- the staging guard ------------------------------------------------------------


@pytest.mark.parametrize(
    "submission_s, reference_s, rejected",
    [
        (0.0100, 0.0100, False),
        (0.0010, 0.0002, False),  # 0.8 ms over: inside the 2 ms floor
        (0.0025, 0.0002, True),  # 2.3 ms over a tiny copy
        (0.0140, 0.0100, False),  # 40% over: inside the 50% band
        (0.0160, 0.0100, True),  # 60% over
        (0.0050, 0.0100, False),  # faster than the reference is never work moved out
    ],
)
def test_copy_phase_overrun_allows_noise_but_not_work(submission_s, reference_s, rejected):
    assert copy_phase_overrun(submission_s, reference_s) is rejected


# -- the message protocol ---------------------------------------------------------


class FakeCupyArray:
    """Device memory as the stand-in cupy sees it: a private host copy."""

    def __init__(self, host):
        self.host = np.array(host, copy=True)


class FakePool:
    def __init__(self, events):
        self.events = events

    def free_all_blocks(self):
        self.events.append("free pool")


def fake_cupy():
    events = []
    uploaded = []  # the size of each array copied to the device

    def asarray(array):
        time.sleep(COPY_DELAY_S)
        events.append("upload")
        uploaded.append(np.asarray(array).size)
        return FakeCupyArray(array)

    def device_properties(index):
        assert index == 0, "the sandbox shows one GPU, device 0"
        return {"name": b"Stand-in GPU"}

    def asnumpy(array):
        time.sleep(COPY_DELAY_S)
        events.append("download")
        return array.host

    runtime = types.SimpleNamespace(
        deviceSynchronize=lambda: events.append("synchronize"),
        getDeviceProperties=device_properties,
    )
    module = types.ModuleType("cupy")
    module.__dict__.update(
        events=events,
        uploaded=uploaded,
        ndarray=FakeCupyArray,
        asarray=asarray,
        asnumpy=asnumpy,
        cuda=types.SimpleNamespace(runtime=runtime),
        get_default_memory_pool=lambda: FakePool(events),
        get_default_pinned_memory_pool=lambda: FakePool(events),
    )
    return module


@pytest.fixture
def gpu_side(tmp_path, monkeypatch):
    """Starts a GPU runner thread on `submission`; yields (side, cupy stand-in)."""
    cupy = fake_cupy()
    monkeypatch.setitem(sys.modules, "cupy", cupy)
    monkeypatch.setitem(sys.modules, "submission", None)  # the runner registers its module there
    threads = []
    sides = []

    def start(submission, role="submission"):
        module_path = tmp_path / "submission.py"
        module_path.write_text(submission)
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        runner = Runner(role, ipc.Channel(theirs), str(module_path), "transform", "gpu", ["cupy", "numpy"])
        thread = threading.Thread(target=runner.serve, daemon=True)
        thread.start()
        threads.append(thread)
        job = types.SimpleNamespace(target="gpu", memory_limit_bytes=0)
        side = Side(role, str(module_path), submission, job, str(tmp_path), str(Path(module_path).parent))
        side.channel = ipc.Channel(ours)
        side.channel.send({"op": "module", "source": submission})
        sides.append(side)
        ready, _ = side.channel.receive(time.perf_counter_ns() + WAIT_NS)
        assert ready == {"op": "ready"}
        # The device (its CUDA context) is set up before the memory baseline at "ready".
        assert cupy.events == DEVICE_SET_UP
        cupy.events.clear()
        side.channel.send({"op": "load"})
        hello, _ = side.channel.receive(time.perf_counter_ns() + WAIT_NS)
        assert hello == {"op": "hello", "ok": True, "hardware": "Stand-in GPU"}
        return side, cupy

    yield start
    for side in sides:
        side.channel.sock.close()
    for thread in threads:
        thread.join(timeout=5)
        assert not thread.is_alive()


#: Device.__init__ allocates once, so CUDA makes its context, and returns the block.
DEVICE_SET_UP = ["upload", "synchronize", "free pool", "free pool"]


def exchange(side, args, echo_like=None):
    bundle = InputBundle(args)
    clock = PhaseClock()
    try:
        reply, buffer = side._exchange(bundle, WAIT_NS, time.perf_counter_ns() + WAIT_NS, clock, echo_like)
    finally:
        bundle.close()
    return reply, buffer, clock


def test_copies_happen_outside_the_timed_window(gpu_side):
    side, cupy = gpu_side(
        "import cupy as cp\n\n"
        "def transform(x, factor):\n"
        "    cp.events.append('entry point')\n"
        "    return cp.ndarray(x.host * factor)\n"
    )
    reply, buffer, clock = exchange(side, (np.arange(6.0), 2.0))

    assert reply["ok"] is True
    assert np.array_equal(ipc.decode(reply["value"], buffer), np.arange(6.0) * 2.0)
    # The first download is the input check (the device copy of x is unchanged), the second the answer.
    assert cupy.events == ["upload", "synchronize", "entry point", "synchronize", "download", "download"]
    assert reply["placement"] == ["device"] and reply["modified_arguments"] == []
    assert clock.seconds("staging") >= COPY_DELAY_S
    assert clock.seconds("fetch") >= COPY_DELAY_S
    assert clock.seconds("call") < COPY_DELAY_S


def test_the_reference_echo_times_the_round_trip_and_the_synchronisation_alone(gpu_side):
    """The window's own cost (0.65 ms a call on an H200) is measured with nothing
    staged, run or fetched, and subtracted from both sides like the CPU's echo."""
    side, cupy = gpu_side(REFERENCE_THAT_LOGS, role="reference")
    reply, buffer, clock = exchange(side, (np.arange(6.0),), echo_like={})

    assert (reply, buffer) == (None, None)
    assert cupy.events == ["synchronize"]
    assert set(clock.elapsed_ns) == {"call"} and clock.seconds("call") < COPY_DELAY_S
    # The runner carries on as before: the next call is staged, run and fetched.
    reply, buffer, _ = exchange(side, (np.arange(6.0),))
    assert np.array_equal(ipc.decode(reply["value"], buffer), np.arange(6.0))
    assert cupy.events[:4] == ["synchronize", "upload", "synchronize", "entry point"]


def test_the_submission_runner_does_not_echo(gpu_side):
    """Only the trusted reference times the harness's share: a submission runner
    asked to echo ends, as on any message it does not answer."""
    side, cupy = gpu_side(REFERENCE_THAT_LOGS)
    with pytest.raises(ipc.ChannelClosed):
        exchange(side, (np.arange(6.0),), echo_like={})
    assert cupy.events == []


REFERENCE_THAT_LOGS = (
    "import cupy as cp\n\ndef transform(x):\n    cp.events.append('entry point')\n    return cp.ndarray(x.host)\n"
)


def test_submission_cannot_swap_the_copy_functions(gpu_side):
    side, cupy = gpu_side(
        "import cupy as cp\n\n"
        "def precompute(array):\n"
        "    cp.events.append('submission code while staging')\n"
        "    return cp.ndarray(array)\n\n"
        "cp.asarray = precompute\n\n"
        "def transform(x):\n"
        "    return x\n"
    )
    reply, buffer, _ = exchange(side, (np.ones(3),))

    assert np.array_equal(ipc.decode(reply["value"], buffer), np.ones(3))
    assert "submission code while staging" not in cupy.events


@pytest.mark.parametrize("returned", ["[1.0, 2.0, 3.0]", "(lambda: x)"])
def test_anything_but_a_device_or_host_array_is_a_wrong_answer(gpu_side, returned):
    side, _ = gpu_side(f"def transform(x):\n    return {returned}\n")
    reply, buffer, _ = exchange(side, (np.ones(3),))

    value = ipc.decode(reply["value"], buffer)
    assert isinstance(value, ipc.UnsupportedValue)
    assert compare.compare(np.ones(3), value, TOLERANCE) is not None


def test_an_exception_arrives_with_the_fetch(gpu_side):
    side, cupy = gpu_side("def transform(x):\n    raise ValueError('no kernel today')\n")
    reply, buffer, clock = exchange(side, (np.ones(3),))

    assert reply["ok"] is False and buffer is None
    assert reply["error"]["type"] == "ValueError"
    assert 'File "solution.py", line 2' in reply["error"]["traceback"]
    assert "download" not in cupy.events
    assert set(clock.elapsed_ns) == {"staging", "call", "fetch"}


# -- CuPy's memory pool: kept between calls on one shape, emptied before a new input --


MIB = 1 << 20


class ScriptedProbe:
    """NVML's device-wide "used" bytes, read in the order a test scripts them."""

    def __init__(self, *readings):
        self.readings = list(readings)

    def used_bytes(self):
        return self.readings.pop(0)


def test_the_pool_is_kept_after_a_call_and_emptied_only_when_asked(gpu_side):
    """Harness 1.8 emptied the pool after every call, so each timed call paid
    cudaMalloc for every array it made: on an H200 twice the work read 0.78 of
    the reference's time, not 0.5. Now only the supervisor's "release", sent
    untimed before a call on a new input, empties it."""
    side, cupy = gpu_side(REFERENCE_THAT_LOGS)
    for _ in range(2):
        exchange(side, (np.arange(6.0),))
    assert "free pool" not in cupy.events

    side.device_probe = ScriptedProbe(900 * MIB, 600 * MIB)
    side._release_device_pool(time.perf_counter_ns() + WAIT_NS)
    assert cupy.events[-2:] == ["free pool", "free pool"]  # the device pool and the pinned host pool
    reply, _, _ = exchange(side, (np.arange(6.0),))
    assert reply["ok"] is True  # the runner carries on


def test_a_warm_pool_counts_as_the_runners_memory():
    """A call served from the pool moves NVML's reading by nothing; its peak is
    still what the runner holds, as the cold call that filled the pool read."""
    holdings = DeviceHoldings()
    # device-wide readings: 1,000 MiB are the other runner's and the contexts'
    cold = holdings.call_peak(before_bytes=1000 * MIB, sampled_peak_bytes=1096 * MIB, after_bytes=1096 * MIB)
    warm = [holdings.call_peak(1096 * MIB, 1096 * MIB, 1096 * MIB) for _ in range(3)]
    assert cold == 96 * MIB and warm == [96 * MIB] * 3
    grew = holdings.call_peak(1096 * MIB, 1128 * MIB, 1128 * MIB)  # a call that needed one more block
    assert grew == 128 * MIB and holdings.held_bytes == 128 * MIB


def test_an_emptied_pool_leaves_the_holdings_and_a_smaller_input_reads_its_own_peak():
    holdings = DeviceHoldings()
    holdings.call_peak(1000 * MIB, 1400 * MIB, 1400 * MIB)  # a large size: 400 MiB pooled
    holdings.changed(1400 * MIB, 1002 * MIB)  # emptied before an edge input (2 MiB stay: its context's)
    assert holdings.held_bytes == 2 * MIB
    assert holdings.call_peak(1002 * MIB, 1004 * MIB, 1004 * MIB) == 4 * MIB


def test_a_peak_between_samples_is_bounded_by_what_the_call_left_pooled():
    holdings = DeviceHoldings()
    assert holdings.call_peak(1000 * MIB, 1000 * MIB, 1064 * MIB) == 64 * MIB  # the sampler saw no growth
    assert holdings.call_peak(1064 * MIB, 1200 * MIB, 1064 * MIB) == 200 * MIB  # a transient peak above the pool


def test_holdings_never_go_below_nothing():
    """Memory the runner had before its first call (a module-level array) freed
    later is not a credit against what its calls need."""
    holdings = DeviceHoldings()
    holdings.changed(1500 * MIB, 1000 * MIB)
    assert holdings.held_bytes == 0
    assert holdings.call_peak(1000 * MIB, 1032 * MIB, 1032 * MIB) == 32 * MIB


def test_emptying_the_pool_is_read_off_the_runners_holdings(gpu_side):
    side, _ = gpu_side(REFERENCE_THAT_LOGS)
    side.device_holdings.held_bytes = 400 * MIB
    side.device_probe = ScriptedProbe(1400 * MIB, 1100 * MIB)
    side._release_device_pool(time.perf_counter_ns() + WAIT_NS)
    assert side.device_holdings.held_bytes == 100 * MIB


def test_device_memory_the_module_takes_at_import_counts(tmp_path, monkeypatch):
    """The CPU's rule (docs/security.md, "memory made resident before the first
    call"): what the module allocates from its first line on counts. A table
    made on the device at import was never seen by the per-call readings."""
    monkeypatch.setitem(sys.modules, "cupy", fake_cupy())
    monkeypatch.setitem(sys.modules, "submission", None)
    module_path = tmp_path / "submission.py"
    source = "import cupy as cp\n\nTABLE = cp.asarray(list(range(1000)))\n\ndef transform(x):\n    return x\n"
    module_path.write_text(source)
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    runner = Runner("submission", ipc.Channel(theirs), str(module_path), "transform", "gpu", ["cupy", "numpy"])
    thread = threading.Thread(target=runner.serve, daemon=True)
    thread.start()
    side = Side(
        "submission",
        str(module_path),
        source,
        types.SimpleNamespace(target="gpu", memory_limit_bytes=0),
        str(tmp_path),
        str(tmp_path),
        device_probe=ScriptedProbe(1000 * MIB, 1256 * MIB),
    )
    side.channel = ipc.Channel(ours)
    side.channel.send({"op": "module", "source": source})
    side.process = types.SimpleNamespace(pid=os.getpid(), returncode=None)  # for the host baseline's reading
    side.load_sampler = types.SimpleNamespace(finish=lambda: None, breached_bytes=None)
    side.drain = types.SimpleNamespace(exceeded=False)
    try:
        outcome = side.wait_hello(time.perf_counter_ns() + WAIT_NS)
    finally:
        ours.close()
        thread.join(timeout=5)
    assert outcome.status == "ok" and outcome.value == "Stand-in GPU"
    assert side.device_holdings.held_bytes == 256 * MIB


def test_the_inputs_device_copies_are_not_the_codes_memory():
    """The exercise page says the inputs you are given are not counted: on the
    CPU their mapped pages are taken off, and on a GPU so are the device copies
    the harness staged (until harness 1.9 both sides were charged for them)."""
    grading = types.SimpleNamespace(sides={})
    staged = CallOutcome("ok", device_bytes=96 * MIB, input_bytes=32 * MIB)
    assert Grading._peak_bytes(grading, "reference", staged) == 64 * MIB
    tiny = CallOutcome("ok", device_bytes=0, input_bytes=8)  # below NVML's granularity
    assert Grading._peak_bytes(grading, "reference", tiny) == 0


def test_only_a_new_input_gets_an_empty_pool():
    """Edge inputs, check sizes and each timed size's warm-up are new inputs
    (untimed, with the compile grace); the timed pairs run on a warm pool."""
    asked = []

    class RecordingSide:
        def call(self, bundle, budget_ns, deadline_ns, answer_bytes=0, fresh_device_pool=False):
            asked.append(fresh_device_pool)
            return CallOutcome("ok", value=np.ones(3))

    grading = pair_grading({"reference": RecordingSide(), "submission": RecordingSide()})
    for new_input in (True, False):
        grading._checked_pair((np.ones(3),), "size 3", None, ("reference", "submission"), new_input=new_input)
    assert asked == [True, True, False, False]


def test_the_device_is_set_up_with_a_real_allocation(gpu_side):
    """CuPy makes no allocation for an empty array, so only a non-empty one makes
    CUDA create its context before the memory baseline."""
    _, cupy = gpu_side(REFERENCE_THAT_LOGS)
    assert cupy.uploaded[0] > 0


def test_scalars_stay_on_the_host_and_a_tuple_comes_home_as_a_tuple(gpu_side):
    side, cupy = gpu_side(
        "import cupy as cp\n\n"
        "def transform(x, factor):\n"
        "    assert not isinstance(factor, cp.ndarray), 'a NumPy scalar is not copied to the device'\n"
        "    return cp.ndarray(x.host * factor), cp.ndarray(x.host + factor)\n"
    )
    reply, buffer, _ = exchange(side, (np.arange(3.0), np.float64(2.0)))
    assert reply["ok"] is True, reply
    first, second = ipc.decode(reply["value"], buffer)
    assert np.array_equal(first, [0.0, 2.0, 4.0]) and np.array_equal(second, [2.0, 3.0, 4.0])
    assert reply["placement"] == ["device", "device"]


def test_placement_names_only_arrays():
    device = Device.__new__(Device)
    device._ndarray = FakeCupyArray
    assert device.placement(np.float64(1.0)) == [None]  # a NumPy scalar is not a host array
    assert device.placement(None) == [None]
    assert device.placement((np.ones(2), FakeCupyArray(np.ones(2)), 3)) == ["host", "device", None]


def test_an_untouched_input_holding_nan_is_not_reported_changed(gpu_side):
    side, _ = gpu_side(REFERENCE_THAT_LOGS)
    reply, _, _ = exchange(side, (np.array([1.0, np.nan, 3.0]),))
    assert reply["ok"] is True and reply["modified_arguments"] == []


def fake_pynvml(used_bytes):
    def handle_by_index(index):
        assert index == 0, "the sandbox shows one GPU, device 0"
        return "device 0"

    return types.SimpleNamespace(
        nvmlInit=lambda: None,
        nvmlDeviceGetHandleByIndex=handle_by_index,
        nvmlDeviceGetMemoryInfo=lambda handle: types.SimpleNamespace(used=used_bytes),
    )


def test_the_memory_probe_reads_device_zero_through_nvml(monkeypatch):
    monkeypatch.setitem(sys.modules, "pynvml", fake_pynvml(used_bytes=123 * MIB))
    probe = MemoryProbe()
    assert probe.available is True
    assert probe.used_bytes() == 123 * MIB


def test_without_a_driver_the_probe_reports_nothing(monkeypatch):
    broken = fake_pynvml(used_bytes=0)
    broken.nvmlInit = lambda: (_ for _ in ()).throw(RuntimeError("NVML Shared Library Not Found"))
    monkeypatch.setitem(sys.modules, "pynvml", broken)
    probe = MemoryProbe()
    assert probe.available is False and probe.used_bytes() is None


def test_a_cpu_runner_refuses_the_gpu_messages(tmp_path):
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    runner = Runner("submission", ipc.Channel(theirs), str(tmp_path / "submission.py"), "transform", "cpu", ["numpy"])
    try:
        for op in ("stage", "fetch"):
            assert runner.handle(op, {"op": op}, []) is False
    finally:
        ours.close()
        theirs.close()


def test_a_host_array_where_the_reference_returns_a_device_array_is_a_wrong_answer(gpu_side):
    """finding 5 of issue 12: `return np.concatenate(chunks)` skipped the upload the
    exercise measures and was accepted, because the copy home let NumPy through."""
    side, _ = gpu_side("import numpy as np\n\ndef transform(x):\n    return np.asarray(x.host) * 2.0\n")
    reply, buffer, _ = exchange(side, (np.ones(3),))
    assert reply["ok"] is True and reply["placement"] == ["host"]

    outcomes = {
        "reference": CallOutcome("ok", placement=["device"]),
        "submission": CallOutcome("ok", placement=reply["placement"]),
    }
    with pytest.raises(Finished) as raised:
        Grading._check_placement(None, outcomes, "size 3", None)
    assert raised.value.verdict == feedback.WRONG_ANSWER
    assert "NumPy array in host memory" in raised.value.message
    outcomes["submission"] = CallOutcome("ok", placement=["device"])
    Grading._check_placement(None, outcomes, "size 3", None)  # a device answer passes


def test_a_device_input_changed_in_place_is_reported(gpu_side):
    side, _ = gpu_side("def transform(x, y):\n    y.host[0] = -1.0\n    return x\n")
    reply, _, _ = exchange(side, (np.ones(3), np.ones(4)))
    assert reply["ok"] is True and reply["modified_arguments"] == [1]


def test_the_supervisor_rejects_a_changed_device_input_as_it_rejects_a_changed_host_input():
    grading = types.SimpleNamespace(job=types.SimpleNamespace(allow_input_mutation=False), parameter_names=["x", "y"])
    untouched_host = types.SimpleNamespace(modified_arguments=lambda: [])
    args = (np.ones(2), np.zeros(1))
    with pytest.raises(Finished) as raised:
        Grading._check_inputs_untouched(
            grading, untouched_host, CallOutcome("ok", modified_arguments=[1]), "size 4", None, args
        )
    assert raised.value.verdict == feedback.WRONG_ANSWER
    assert raised.value.failure["modified_arguments"] == [2]
    assert raised.value.failure["arguments"] == [
        "x = np.array([1.0, 1.0], dtype=np.float64)",
        "y = np.array([0.0], dtype=np.float64)",
    ]
    Grading._check_inputs_untouched(grading, untouched_host, CallOutcome("ok"), "size 4", None, args)
