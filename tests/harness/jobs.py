"""Runs the real harness as a subprocess on a temporary job directory (no
sandbox: the harness only needs the directory, passed as its argument, and
the trusted files on stdin, as the host sends them)."""

import json
import os
import secrets
import shutil
import subprocess
import sys
import textwrap
import time
import types
from pathlib import Path

from grader.harness import COMMAND, protocol
from grader.harness.supervisor import Grading
from grader.sandbox.cpuslots import claim_runner_cpus

HARNESS_SOURCE = Path(__file__).resolve().parents[2] / "grader" / "harness"

FLOAT_INPUTS = """
import numpy as np

def make_inputs(size, seed):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(size),)
"""

LOOP_REFERENCE = """
import math
import numpy as np

def transform(x):
    out = np.empty_like(x)
    for i in range(len(x)):
        out[i] = math.sqrt(x[i] * x[i] + 1.0)
    return out
"""

VECTOR_SOLUTION = """
import numpy as np

def transform(x):
    out = x * x
    out += 1.0
    np.sqrt(out, out=out)
    return out
"""

DEFAULT_JOB = {
    "mode": "full",
    "entry_point": "transform",
    "sizes": [2000, 8000],
    "edge_sizes": [0, 1, 7],
    "tolerance": {"rtol": 1e-9, "atol": 0.0},
    "repeats": 5,
    "target": "cpu",
    "allowed_imports": ["numpy", "math"],
    "graded_on": ["time", "memory"],
    "limits": {"time_s": 60, "memory_mb": 512, "processes": 16, "output_kb": 64, "disk_mb": 64},
}


class Run:
    def __init__(self, report, stdout, stderr, returncode, secret):
        self.report = report
        self.stdout = stdout
        self.stderr = stderr
        self.returncode = returncode
        self.secret = secret

    @property
    def verdict(self):
        return self.report["verdict"]

    def __repr__(self):
        # What went wrong first: a long report is cut, and the cause must survive the cut.
        first = {key: self.report.get(key) for key in ("verdict", "message", "failure")}
        rest = {key: value for key, value in self.report.items() if key not in first}
        return json.dumps(first, indent=1)[:4000] + "\n" + json.dumps(rest, indent=1)[:3000]


def run_job(
    directory, submission, reference=LOOP_REFERENCE, inputs=FLOAT_INPUTS, check=None, timeout=120, **job_changes
):
    """Builds a job directory under `directory`, runs COMMAND on it, returns the verified report."""
    job_dir = Path(directory) / "job"
    shutil.copytree(HARNESS_SOURCE, job_dir / "harness", ignore=shutil.ignore_patterns("__pycache__"))
    job = json.loads(json.dumps(DEFAULT_JOB))
    for key, value in job_changes.items():
        if key == "limits":
            job["limits"].update(value)
        else:
            job[key] = value
    (job_dir / "submission.py").write_text(textwrap.dedent(submission))
    files = {"reference.py": textwrap.dedent(reference), "inputs.py": textwrap.dedent(inputs)}
    if check is not None:
        files["check.py"] = textwrap.dedent(check)
    command = [sys.executable if part == "python3" else part.replace("/job", str(job_dir)) for part in COMMAND]
    secret = secrets.token_hex(16).encode()
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO", "PYTEST"))}
    # A CPU slot, as grader.grading claims one: two test runs at once (or a worker beside
    # them) then time on different CPUs instead of sharing one and bending every ratio.
    with claim_runner_cpus(job.get("cpus", 1)) as runner_cpus:
        if "runner_cpus" not in job_changes:
            job["runner_cpus"] = runner_cpus
        files["job.json"] = json.dumps(job)
        completed = subprocess.run(
            command, input=protocol.format_stdin(secret + b"\n", files), capture_output=True, timeout=timeout, env=env
        )
    report = protocol.parse_report(secret, completed.stdout)
    assert report is not None, (
        f"no signed report; rc={completed.returncode}\nstdout={completed.stdout[-2000:]!r}\nstderr={completed.stderr[-4000:]!r}"
    )
    assert completed.returncode == 0
    return Run(report, completed.stdout, completed.stderr, completed.returncode, secret)


def pair_grading(sides: dict) -> Grading:
    """A Grading that only pairs calls: `sides` stand in for both runners (each
    with a `call` like Side.call's), every budget is ten seconds and the
    placement checks pass, so _checked_pair can be driven without processes."""
    grading = Grading.__new__(Grading)
    grading.sides = sides
    grading.job = types.SimpleNamespace(processes=1, tolerance={"rtol": 1e-9, "atol": 0.0}, allow_input_mutation=False)
    grading.deadline_ns = time.perf_counter_ns() + 10 * 1_000_000_000
    grading.first_call_s, grading.check = None, None
    grading.runner_cpus = {0}
    grading._budget_ns = lambda *args: 10 * 1_000_000_000
    grading._check_one_cpu = grading._check_placement = lambda *args: None
    return grading
