"""A small version of bench/load_bench.py (30 submissions from 6 users, one
worker): all graded, none lost or graded twice, the flood refused with a
message, and a light user's submission served ahead of a flooder's backlog."""

import json
import subprocess
import sys

import pytest

from .conftest import ROOT, requires_services

pytestmark = [requires_services, pytest.mark.slow]


def test_small_burst_is_all_graded_and_the_flood_is_refused(postgres_url, tmp_path):
    out = tmp_path / "load.json"
    done = subprocess.run(
        [
            sys.executable,
            "bench/load_bench.py",
            "--users",
            "6",
            "--per-user",
            "5",
            "--workers",
            "1",
            "--database-url",
            postgres_url,
            "--skip-migrate",
            "--timeout",
            "120",
            "--json",
            str(out),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    result = json.loads(out.read_text())
    assert result["submitted"] == 30 + result["flood"]["queued"]
    assert result["graded"] == result["submitted"] and result["lost"] == 0
    assert result["graded_more_than_once"] == 0
    assert result["flood"]["queued"] == 10 and result["flood"]["refused"] == 15
    assert "the limit is 10" in result["flood"]["message"]
    assert set(result["verdicts"]) <= {"accepted", "wrong_answer", "runtime_error"}
    # submissions.services.queueing.fair_priority: the light user's one submission overtakes the flooder's backlog.
    assert result["fairness"]["order"] == "fair", result["fairness"]
