"""The roofline of a GPU exercise: the device's limits, measured through CuPy when a
GPU worker starts, held apart from the CPU's, and a hint in the GPU's terms. No GPU
runs here: the benchmark's GPU mode runs on a stand-in `cupy` backed by NumPy that
counts how often it is asked to wait for the device; scripts/gpu_check.sh runs the
real one on a GPU host."""

import json
import logging
import types
from io import StringIO

import numpy as np
import pytest
from django.core.management import CommandError, call_command
from django.core.management.base import OutputWrapper
from django.urls import reverse

from grader import host_limits, hostbench, roofline
from submissions.management.commands import gpu_worker
from submissions.management.commands.grade import Command as GradeCommand
from submissions.models import Submission
from submissions.states import Status, Verdict

from .test_roofline import LIMITS as CPU_LIMITS

GPU_LIMITS = {
    "host": "grader-gpu-1",
    "device": "Test GPU 9000",
    "bandwidth_gbs": 4000.0,
    "copy_gbs": 3800.0,
    "triad_gbs": 4000.0,
    "fresh_pass_gbs": 3700.0,
    "compute_gflops": 50000.0,
    "compute_dtype": "float32",
    "cupy": "13.0.0",
    "measured_at": "2026-12-04T11:00:00+00:00",
    "command": "python manage.py measure_host --gpu",
}
AXPY = {"bytes": "8*n", "flops": "3*n"}  # float32 in, float32 out
N = 16_000_000  # 128 MB to move: 32 us at the roof


def accepted(time_s, reference_time_s=1.0):
    return {
        "verdict": Verdict.ACCEPTED,
        "mode": "full",
        "sizes": [{"size": N, "time_s": time_s, "reference_time_s": reference_time_s}],
    }


@pytest.fixture(autouse=True)
def isolated_host_state(tmp_path, monkeypatch):
    """Measurements go to a folder of the test's own, not this host's."""
    monkeypatch.setattr(host_limits, "STATE_DIR", tmp_path)


class StandInCupy(types.SimpleNamespace):
    """NumPy under CuPy's name, with the device calls the benchmark makes."""

    def __init__(self):
        super().__init__(__version__="0-stand-in", waits=0, dtypes=[])
        device = types.SimpleNamespace(id=0, synchronize=self._wait)
        properties = {0: {"name": b"Stand-in GPU"}}
        self.cuda = types.SimpleNamespace(
            Device=lambda: device, runtime=types.SimpleNamespace(getDeviceProperties=properties.__getitem__)
        )

    def _wait(self):
        self.waits += 1

    def full(self, shape, value, dtype=None):
        self.dtypes.append(np.dtype(dtype or float).name)
        return np.full(shape, value, dtype=dtype)

    def __getattr__(self, name):
        return getattr(np, name)


def test_the_benchmarks_gpu_mode_times_every_run_to_the_device_and_reports_the_device(monkeypatch, capsys):
    for name, value in (
        ("GPU_ARRAY_ELEMENTS", 1 << 14),
        ("GPU_MATRIX_SIDE", 32),
        ("STREAM_BUDGET_S", 0.0),
        ("COMPUTE_BUDGET_S", 0.0),
    ):
        monkeypatch.setattr(hostbench, name, value)
    cupy = StandInCupy()
    hostbench.main_gpu(cupy)
    figures = json.loads(capsys.readouterr().out)
    assert (
        figures["device"] == "Stand-in GPU"
        and figures["cupy"] == "0-stand-in"
        and figures["compute_dtype"] == "float32"
    )
    assert figures["bandwidth_gbs"] == max(figures["copy_gbs"], figures["triad_gbs"]) > 0
    assert figures["fresh_pass_gbs"] > 0 and figures["compute_gflops"] > 0
    # Three streaming kernels and the product, each timed over at least STREAM_REPEATS /
    # COMPUTE_REPEATS runs, and every run waits for the device before its clock stops
    # (kernels are launched asynchronously); plus the product's warm-up.
    assert cupy.waits == 3 * hostbench.STREAM_REPEATS + hostbench.COMPUTE_REPEATS + 1
    assert cupy.dtypes == ["float64"] * 3 + ["float32"] * 2


def test_a_gpu_exercise_is_held_to_the_devices_roofs_not_the_cpus():
    for target, limits in (("cpu", CPU_LIMITS), ("gpu", GPU_LIMITS)):
        stored = {**limits, **host_limits.hardware_identity()}  # as measured on this host
        (host_limits.STATE_DIR / host_limits.FILES[target]).write_text(json.dumps(stored))
    figures = roofline.for_report({"target": "gpu", "work": AXPY}, accepted(0.000064))
    assert figures["target"] == "gpu" and figures["host"]["device"] == "Test GPU 9000"
    assert figures["sizes"][-1]["submission"]["bandwidth_fraction"] == pytest.approx(0.5)
    assert (
        "At size 16,000,000 you are at 50% of this GPU's memory bandwidth (2,000 GB/s of 4,000 GB/s measured)"
        in figures["hint"]
    )
    assert "fuse the steps into one kernel" in figures["hint"] and "about 2.0 times" in figures["hint"]
    # The same report on a CPU exercise reads the CPU's roofs.
    assert (
        roofline.for_report({"work": AXPY}, accepted(0.000064))["host"]["bandwidth_gbs"] == CPU_LIMITS["bandwidth_gbs"]
    )


@pytest.mark.parametrize(
    ("time_s", "work", "words"),
    [
        (0.00004, AXPY, ["at 80% of this GPU's memory bandwidth", "fewer passes over memory"]),
        (0.00001, AXPY, ["at 320% of this GPU's memory bandwidth", "fits in the GPU's L2 cache"]),
        (0.01, AXPY, ["at 0.32% of this GPU's memory bandwidth", "many small kernel launches", "one call"]),
        (
            0.01,
            {"bytes": "4*n", "flops": "4096*n"},
            ["at 13% of this GPU's float32 compute peak", "fewer, larger operations"],
        ),
    ],
)
def test_the_gpu_hint_speaks_of_kernels_and_the_device(time_s, work, words):
    hint = roofline.for_report({"target": "gpu", "work": work}, accepted(time_s), GPU_LIMITS)["hint"]
    assert all(word in hint for word in words), hint
    # None of the CPU's advice: its caches, the operating system's page clearing, one core's vector units.
    assert not any(words in hint for words in ("CPU", "operating system", "core", "per-element work in Python")), hint


def test_without_a_sandbox_that_can_reach_a_gpu_the_measurement_fails_with_the_reason(settings):
    """The bubblewrap sandbox runs CPU jobs only: measuring the GPU there fails
    cleanly (the worker goes on without a GPU roofline), never with a crash."""
    settings.SANDBOX_BACKEND = "bwrap"
    with pytest.raises(host_limits.MeasurementFailed, match="the gpu benchmark could not start: .*CPU jobs only"):
        host_limits.measure("gpu")
    assert host_limits.current("gpu") is None and host_limits.stored("gpu") is None
    with pytest.raises(CommandError, match="CPU jobs only"):
        call_command("measure_host", "--gpu")


def test_the_gpu_worker_measures_its_device_before_it_takes_work(monkeypatch, caplog):
    calls = []
    monkeypatch.setattr(gpu_worker, "detect_gpu", lambda: "Stand-in GPU")
    monkeypatch.setattr(
        host_limits, "measure_and_store", lambda target: calls.append(("measure", target)) or {**GPU_LIMITS}
    )
    monkeypatch.setattr(gpu_worker.current_app, "worker_main", lambda argv: calls.append(("worker", argv[2])))
    monkeypatch.setattr(gpu_worker.Heartbeat, "start", lambda self: None)
    monkeypatch.setattr(gpu_worker.Heartbeat, "stop", lambda self: None)
    with caplog.at_level(logging.INFO, logger=host_limits.logger.name):
        call_command("gpu_worker", stdout=StringIO())
    assert calls == [("measure", "gpu"), ("worker", "gpu")]
    assert "GPU limits on grader-gpu-1 (Test GPU 9000): 4000.0 GB/s device memory bandwidth" in caplog.text


def test_the_grade_command_and_the_page_name_the_gpu(candidate_client, candidate, exercise_version):
    figures = roofline.for_report({"target": "gpu", "work": AXPY}, accepted(0.000064), GPU_LIMITS)
    out = StringIO()
    command = GradeCommand(stdout=out)
    command.stdout = OutputWrapper(out)
    command.print_roofline(figures)
    assert (
        "Roofline on Test GPU 9000 (GPU): memory 4,000 GB/s, compute 50,000 GFLOP/s in float32 (measured 2026-12-04T11:00)"
        in out.getvalue()
    )

    report = {
        **accepted(0.000064),
        "message": "Correct on every input.",
        "speedup": 15000.0,
        "speedup_ci": [14000.0, 16000.0],
        "peak_memory_bytes": 1,
        "reference_peak_memory_bytes": 1,
        "hardware": "Test GPU 9000",
        "failure": None,
        "roofline": figures,
    }
    submission = Submission.objects.create(
        user=candidate,
        exercise=exercise_version,
        code="x = 1\n",
        status=Status.DONE,
        verdict=Verdict.ACCEPTED,
        report=report,
    )
    html = candidate_client.get(reverse("submissions:detail", args=[submission.pk])).content.decode()
    assert "How close to this GPU's limits" in html and "Test GPU 9000" in html and "float32 matrix product" in html
    assert "4,000 GB/s (STREAM-style copy and triad) and 50,000 GFLOP/s" in html  # no 4e+03
    assert "Huge pages" not in html and 'id="roofline-chart"' in html
