"""Roofline feedback: the host's limits measured on the runner's CPU, per-size GB/s
and GFLOP/s for both sides against them, the hint built from them, the page's chart."""

import json
import logging
import os
import shutil
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from grader import host_limits, roofline
from grader.harness import hugepages
from submissions import tasks
from submissions.models import Submission
from submissions.states import Status, Verdict

from .conftest import TINY_FILES, needs_harness

LIMITS = {
    "host": "grader-1",
    "cpu_model": "Test CPU 3000",
    "cpu": 1,
    "logical_cpus": 2,
    "bandwidth_gbs": 10.0,
    "copy_gbs": 9.0,
    "triad_gbs": 10.0,
    "fresh_pass_gbs": 5.0,
    "compute_gflops": 20.0,
    "measured_at": "2026-12-03T15:00:00+00:00",
    "command": "python manage.py measure_host",
    "transparent_huge_pages": "madvise",
    "shmem_huge_pages": "within_size",
}
WORK = {"bytes": "16*n", "flops": "3*n"}
N = 1_000_000  # 16 MB to move and 3 MFLOP to do


def accepted(time_s, reference_time_s, size=N, mode="full"):
    return {
        "verdict": Verdict.ACCEPTED,
        "mode": mode,
        "sizes": [
            {"size": size // 8, "time_s": time_s / 8, "reference_time_s": reference_time_s / 8},
            {"size": size, "time_s": time_s, "reference_time_s": reference_time_s},
        ],
    }


@pytest.fixture(autouse=True)
def isolated_host_state(tmp_path, monkeypatch):
    """Measurements go to a folder of the test's own, not this host's."""
    monkeypatch.setattr(host_limits, "STATE_DIR", tmp_path)


def test_per_size_figures_for_both_sides_against_the_hosts_roofs():
    figures = roofline.for_report({"work": WORK}, accepted(0.004, 0.4), LIMITS)
    largest = figures["sizes"][-1]
    assert (largest["bytes"], largest["flops"]) == (16e6, 3e6)
    assert largest["submission"]["gbs"] == pytest.approx(4.0) and largest["submission"][
        "bandwidth_fraction"
    ] == pytest.approx(0.4)
    assert largest["submission"]["gflops"] == pytest.approx(0.75) and largest["submission"][
        "compute_fraction"
    ] == pytest.approx(0.0375)
    assert largest["reference"]["gbs"] == pytest.approx(0.04) and largest["reference"][
        "bandwidth_fraction"
    ] == pytest.approx(0.004)
    assert figures["sizes"][0]["size"] == N // 8 and figures["sizes"][0]["submission"]["gbs"] == pytest.approx(4.0)
    assert figures["host"]["cpu_model"] == "Test CPU 3000" and figures["work"] == WORK
    assert figures["ridge_flops_per_byte"] == pytest.approx(2.0)


@pytest.mark.parametrize(
    ("time_s", "words"),
    [
        (0.0019, ["you are at 84% of this machine's memory bandwidth", "fewer passes over memory, not faster ones"]),
        (
            0.004,
            [
                "at 40% of this machine's memory bandwidth",
                "about what one pass that writes a new array reaches",
                "(5 GB/s measured",
                "little left to gain",
            ],
        ),
        (0.0039, ["at 41% of this machine's memory bandwidth", "about what one pass that writes a new array reaches"]),
        (
            0.0041,
            [
                "at 39% of this machine's memory bandwidth",
                "about 2.6 times",
                "Each extra pass costs time",
                "Even one fused pass that writes a new array reaches 5 GB/s here",
                "Count the passes",
            ],
        ),
        (0.024, ["at 7% of this machine's memory bandwidth", "about 15 times", "Each extra pass costs time"]),
        (0.079, ["at 2% of this machine's memory bandwidth", "about 49 times", "Each extra pass costs time"]),
        (0.081, ["at 2% of this machine's memory bandwidth", "about 51 times", "per-element work in Python"]),
        (0.8, ["at 0.2% of this machine's memory bandwidth", "about 500 times", "per-element work in Python"]),
        (0.0008, ["at 200% of this machine's memory bandwidth", "fits in the CPU's caches"]),
    ],
)
def test_the_hint_reads_the_largest_size(time_s, words):
    hint = roofline.for_report({"work": WORK}, accepted(time_s, 1.0), LIMITS)["hint"]
    assert all(word in hint for word in words), hint
    assert f"At size {N:,}" in hint


def test_without_the_one_pass_figure_the_hint_counts_passes_alone():
    """Limits measured before hostbench had its fresh-pass kernel: no claim about it."""
    older = {key: value for key, value in LIMITS.items() if key != "fresh_pass_gbs"}
    hint = roofline.for_report({"work": WORK}, accepted(0.004, 1.0), older)["hint"]
    assert "about 2.5 times" in hint and "Each extra pass costs time" in hint and "fused pass" not in hint


def test_the_grade_command_prints_the_roofs_and_each_sides_rates():
    from django.core.management.base import OutputWrapper

    from submissions.management.commands.grade import Command

    out = StringIO()
    command = Command(stdout=out)
    command.stdout = OutputWrapper(out)
    command.print_roofline(roofline.for_report({"work": WORK}, accepted(0.8, 1.0), LIMITS))
    text = out.getvalue()
    assert (
        "Roofline on Test CPU 3000 (CPU 1): memory 10 GB/s, compute 20 GFLOP/s on one core (measured 2026-12-03T15:00)"
        in text
    )
    assert "; one pass into a new array 5 GB/s" in text
    assert f"size {N}: submission 0.02 GB/s (0.2%), 0.00375 GFLOP/s (0.019%); reference 0.016 GB/s (0.16%)" in text


def test_compute_bound_work_is_held_to_the_compute_roof():
    matmul_like = {"bytes": "24*n", "flops": "2*n**1.5"}  # 1e9 flops on 24 MB: far right of the ridge
    hint = roofline.for_report({"work": matmul_like}, accepted(0.12, 1.0), LIMITS)["hint"]
    assert "83% of this machine's compute peak on one core" in hint and "fewer operations" in hint


@pytest.mark.parametrize(
    ("work", "words"),
    [
        ({"bytes": "0", "flops": "2*n**1.5"}, "compute peak on one core"),  # all arithmetic: the compute roof
        ({"bytes": "0", "flops": "0"}, None),  # nothing declared to hold the time to: no hint
    ],
)
def test_work_that_moves_no_bytes_gets_the_compute_roof_or_no_hint(work, words):
    hint = roofline.for_report({"work": work}, accepted(0.12, 1.0), LIMITS)["hint"]
    assert (words in hint) if words else hint == ""


@pytest.mark.parametrize(
    ("spec", "report"),
    [
        ({}, accepted(0.004, 0.4)),
        ({"work": WORK}, {**accepted(0.004, 0.4), "verdict": Verdict.WRONG_ANSWER}),
        ({"work": WORK}, accepted(0.004, 0.4, mode="check")),
    ],
)
def test_no_roofline_without_declared_work_or_an_accepted_full_grading(spec, report):
    assert roofline.for_report(spec, report, LIMITS) is None


def test_a_side_without_a_time_has_no_figures():
    report = accepted(0.004, 0.4)
    report["sizes"][-1]["reference_time_s"] = None
    assert roofline.for_report({"work": WORK}, report, LIMITS)["sizes"][-1]["reference"] is None


def test_the_host_is_measured_on_a_runner_cpu_and_kept_with_its_identity():
    """The real benchmark, as a worker runs it when it starts (no figure is asserted:
    only that each was measured)."""
    tasks.measure_host_limits()
    limits = host_limits.stored()
    assert limits is not None and limits["cpu"] in os.sched_getaffinity(0)
    assert limits["bandwidth_gbs"] > 0 and limits["compute_gflops"] > 0
    assert limits["bandwidth_gbs"] == max(limits["copy_gbs"], limits["triad_gbs"])
    assert limits["fresh_pass_gbs"] > 0  # measured, not derived: no bound on it against the roof holds on every host
    assert limits["cpu_model"] and limits["host"] and limits["measured_at"]
    assert limits["transparent_huge_pages"] == host_limits.transparent_huge_pages()
    assert limits["shmem_huge_pages"] == host_limits.transparent_huge_pages(host_limits.SHMEM_HUGE_PAGES)
    out = StringIO()
    call_command("measure_host", "--json", stdout=out)
    assert json.loads(out.getvalue())["cpu"] in os.sched_getaffinity(0)


def roofline_page(client, user, exercise_version, limits):
    """The submission page of an accepted full grading drawn against host `limits`."""
    report = {
        **accepted(0.0019, 0.4),
        "message": "Correct on every input.",
        "speedup": 210.0,
        "speedup_ci": [200.0, 220.0],
        "peak_memory_bytes": 1,
        "reference_peak_memory_bytes": 1,
        "hardware": "cpu",
        "failure": None,
    }
    report["roofline"] = roofline.for_report({"work": WORK}, report, limits)
    submission = Submission.objects.create(
        user=user,
        exercise=exercise_version,
        code="x = 1\n",
        status=Status.DONE,
        verdict=Verdict.ACCEPTED,
        report=report,
    )
    return client.get(reverse("submissions:detail", args=[submission.pk])).content.decode()


def test_the_page_draws_the_chart_and_shows_the_hint(candidate_client, candidate, exercise_version):
    html = roofline_page(candidate_client, candidate, exercise_version, LIMITS)
    assert 'id="roofline-chart"' in html and 'id="roofline-data"' in html
    assert "84% of this machine&#x27;s memory bandwidth" in html and "Test CPU 3000" in html and "10 GB/s" in html
    # A memory-bound figure depends on the host's huge pages modes, so the page names them.
    assert "Huge pages: <code>madvise</code> for your arrays" in html
    assert "<code>within_size</code>\n        for the inputs handed to your function" in html
    assert "one pass\n        that writes a new array, which the operating system must clear first, 5 GB/s" in html


@pytest.mark.parametrize(
    "in_huge_pages, said",
    [
        (True, "the inputs handed to your\n        function are in huge pages too"),
        (False, "are in ordinary 4 KiB pages on this host"),
    ],
)
def test_the_page_says_whether_the_inputs_were_in_huge_pages(
    candidate_client, candidate, exercise_version, in_huge_pages, said
):
    """What moves a memory-bound figure is whether the inputs were in huge pages,
    which the harness arranges itself where the kernel can collapse shared memory;
    the shmem mode is named only as the reason when they were not."""
    limits = {**LIMITS, "shmem_huge_pages": "never", "inputs_in_huge_pages": in_huge_pages}
    html = roofline_page(candidate_client, candidate, exercise_version, limits)
    assert said in html
    assert ("<code>never</code>" in html) is not in_huge_pages


@needs_harness
@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
def test_grade_json_reports_the_roofline_per_size_and_for_the_host(exercise_version, tmp_path):
    exercise_version.spec = {**exercise_version.spec, "work": {"bytes": "16*n", "flops": "2*n"}}
    exercise_version.save()
    answer = tmp_path / "answer.py"
    answer.write_text(TINY_FILES["solution.py"])
    out = StringIO()
    call_command("grade", "tiny-scale", str(answer), "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert report["verdict"] == "accepted", report["message"]
    figures = report["roofline"]
    assert figures["host"]["bandwidth_gbs"] > 0 and figures["host"]["cpu_model"]
    assert figures["host"]["transparent_huge_pages"] == host_limits.transparent_huge_pages()
    assert figures["host"]["shmem_huge_pages"] == host_limits.transparent_huge_pages(host_limits.SHMEM_HUGE_PAGES)
    assert [row["size"] for row in figures["sizes"]] == [2000, 8000]
    for row in figures["sizes"]:
        assert row["bytes"] == 16 * row["size"] and row["flops"] == 2 * row["size"]
        for side in ("submission", "reference"):
            assert row[side]["gbs"] > 0 and row[side]["bandwidth_fraction"] > 0 and row[side]["compute_fraction"] > 0
    assert figures["hint"].startswith("At size 8,000 you are at")


@pytest.mark.parametrize(
    "text, mode",
    [
        ("always [madvise] never\n", "madvise"),
        ("[always] madvise never\n", "always"),
        ("always madvise [never]\n", "never"),
        ("always [within_size] advise never deny force\n", "within_size"),
        ("garbled\n", "unknown"),
    ],
)
def test_the_report_names_the_hosts_huge_pages_mode(tmp_path, text, mode):
    """Code is graded with NumPy's defaults, so the host's huge pages mode decides
    memory-bound times; every report carries it with the hardware identity."""
    setting = tmp_path / "enabled"
    setting.write_text(text)
    assert host_limits.transparent_huge_pages(setting) == mode
    assert host_limits.transparent_huge_pages(tmp_path / "absent") == "unknown"


@pytest.mark.parametrize(
    "thp, inputs_huge, warned",
    [("madvise", True, 0), ("always", True, 0), ("madvise", False, 1), ("never", True, 1), ("never", False, 2)],
)
def test_a_worker_on_an_untuned_host_says_so_when_it_starts(monkeypatch, caplog, thp, inputs_huge, warned):
    """A host whose settings move the figures away from a learner's desk says so,
    one line a setting, when the worker starts; a kernel that can collapse shared
    memory into huge pages needs no tuning for the inputs whatever the shmem mode."""
    limits = {**LIMITS, "transparent_huge_pages": thp, "shmem_huge_pages": "never", "inputs_in_huge_pages": inputs_huge}
    monkeypatch.setattr(host_limits, "measure_and_store", lambda target: limits)
    with caplog.at_level(logging.WARNING, logger=host_limits.logger.name):
        assert host_limits.measure_at_worker_start()["inputs_in_huge_pages"] is inputs_huge
    warnings = [record.getMessage() for record in caplog.records if record.levelno == logging.WARNING]
    assert len(warnings) == warned
    assert all("lower speedups" in text for text in warnings)
    assert all("scripts/tune_grading_host.sh" in text for text in warnings if "shared memory" in text)


def test_the_hardware_identity_says_whether_inputs_get_huge_pages():
    identity = host_limits.hardware_identity()
    assert identity["inputs_in_huge_pages"] is (
        identity["shmem_huge_pages"] in host_limits.SHMEM_HUGE_PAGES_GIVEN or hugepages.shared_memory_collapses()
    )
