"""The host's limits are kept once per host, as the best each figure has shown, so every
worker there holds reports to the same roofs (Django-free: the judge's own store)."""

import json
from datetime import datetime, timedelta, timezone

import pytest

from grader import host_limits


@pytest.fixture(autouse=True)
def isolated_host_state(tmp_path, monkeypatch):
    monkeypatch.setattr(host_limits, "STATE_DIR", tmp_path)


def measured(bandwidth, compute, **extra):
    return {
        **host_limits.hardware_identity(),
        "bandwidth_gbs": bandwidth,
        "copy_gbs": bandwidth * 0.8,
        "triad_gbs": bandwidth,
        "fresh_pass_gbs": bandwidth / 2,
        "compute_gflops": compute,
        "measured_at": datetime.now(timezone.utc).isoformat(),
        **extra,
    }


def measurements(monkeypatch, *runs):
    queue = list(runs)
    monkeypatch.setattr(host_limits, "measure", lambda target="cpu", backend=None: queue.pop(0))


def test_two_workers_on_one_host_read_the_same_best_figures(monkeypatch):
    # The first worker measured an idle host; the second measured it busy, a third of the bandwidth lower.
    measurements(monkeypatch, measured(36.3, 51.7), measured(23.0, 26.8))
    first = host_limits.measure_and_store()
    second = host_limits.measure_and_store()
    assert (second["bandwidth_gbs"], second["compute_gflops"]) == (36.3, 51.7)
    assert second["runs"] == 2 and host_limits.stored() == second
    assert first["bandwidth_gbs"] == host_limits.stored()["bandwidth_gbs"]


def test_each_figure_keeps_its_own_best(monkeypatch):
    measurements(monkeypatch, measured(30.0, 60.0), measured(40.0, 50.0))
    host_limits.measure_and_store()
    kept = host_limits.measure_and_store()
    assert (kept["bandwidth_gbs"], kept["compute_gflops"]) == (40.0, 60.0)


def test_an_old_best_is_replaced_not_kept(monkeypatch):
    week_ago = (datetime.now(timezone.utc) - timedelta(seconds=host_limits.KEEP_BEST_FOR_S + 60)).isoformat()
    measurements(monkeypatch, measured(90.0, 90.0, measured_at=week_ago), measured(20.0, 20.0))
    host_limits.measure_and_store()
    kept = host_limits.measure_and_store()
    assert (kept["bandwidth_gbs"], kept["runs"]) == (20.0, 1)


def test_limits_kept_on_other_hardware_are_not_read():
    other = {**measured(50.0, 50.0), "cpu_model": "Another CPU 9000"}
    (host_limits.STATE_DIR / host_limits.FILES["cpu"]).write_text(json.dumps(other))
    assert host_limits.stored() is None


def test_an_unreadable_file_reads_as_none():
    (host_limits.STATE_DIR / host_limits.FILES["cpu"]).write_text("{not json")
    assert host_limits.stored() is None
