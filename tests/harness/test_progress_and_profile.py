"""What a grading reports while and after it works (issue 15, harness side):
signed progress lines, a profile of the learner's own functions, and a
per-call limit that stops an endless loop within seconds."""

import types

import numpy as np
import pytest

from grader.harness import per_size, protocol, supervisor

from .jobs import run_job

SECRET = b"k" * 64


def progress_lines(stdout, secret):
    return [
        protocol.parse_progress(secret, line.decode())
        for line in stdout.splitlines()
        if line.startswith(b"HOTPATH-PROGRESS")
    ]


def test_progress_reader_passes_on_signed_lines_split_across_chunks_and_nothing_else():
    seen = []
    reader = protocol.ProgressReader(SECRET, seen.append)
    good = protocol.format_progress(
        SECRET, {"phase": "timing", "size_index": 2, "sizes": 3, "pair": 4, "pairs": 9, "elapsed_s": 3.5, "eta_s": 7.25}
    ).encode()
    forged = protocol.format_progress(b"x" * 64, {"phase": "timing", "elapsed_s": 1.0}).encode()
    reader.feed(b"noise\n" + good[:20])
    reader.feed(good[20:] + b"\n" + forged + b"\n" + b"HOTPATH-PROGRESS " + b"z" * 5000 + b"\npartial")
    assert seen == [
        {"phase": "timing", "size_index": 2, "sizes": 3, "pair": 4, "pairs": 9, "elapsed_s": 3.5, "eta_s": 7.25}
    ]


@pytest.mark.parametrize(
    "fields", [{"phase": "hacking"}, {"phase": "timing", "pair": -1}, {"phase": "timing", "eta_s": "soon"}]
)
def test_malformed_progress_is_dropped_or_cleaned(fields):
    parsed = protocol.parse_progress(SECRET, protocol.format_progress(SECRET, fields))
    if fields["phase"] == "hacking":
        assert parsed is None
    else:
        assert parsed["pair"] is None and parsed["eta_s"] is None and parsed["phase"] == "timing"


def test_progress_notes_every_phase_change_but_at_most_one_a_second_within_a_phase(monkeypatch):
    now = [0]
    monkeypatch.setattr(supervisor.time, "perf_counter_ns", lambda: now[0])
    notes = []
    progress = supervisor.ProgressNotes(notes.append, started_ns=0)
    for step in range(30):  # thirty pairs, a tenth of a second apart
        now[0] = step * supervisor.NS // 10
        progress.note("timing", pair=step + 1, pairs=30)
    progress.note("comparing")
    assert [note["pair"] for note in notes[:-1]] == [1, 11, 21]
    assert notes[-1]["phase"] == "comparing" and notes[-1]["elapsed_s"] == 2.9


def test_a_grading_reports_its_phases_in_order_and_profiles_the_learners_functions(tmp_path):
    solution = """
    import numpy as np

    def _square(x):
        return x * x

    def transform(x):
        return np.sqrt(_square(x) + 1.0) * 2.0 - x
    """
    reference = """
    import numpy as np

    def transform(x):
        return np.sqrt(x * x + 1.0) * 2.0 - x
    """
    run = run_job(tmp_path, solution, reference)
    assert run.verdict == "accepted", run.report["message"]
    phases = [line["phase"] for line in progress_lines(run.stdout, run.secret)]
    assert phases[:2] == ["loading", "checking"] and phases[-2:] == ["profiling", "comparing"]
    assert "timing" in phases
    assert progress_lines(run.stdout, b"not the key" * 6) == [None] * len(phases)
    profile = run.report["profile"]
    assert profile["status"] == "done" and profile["size"] == 8000
    assert [row["function"] for row in profile["functions"]] == ["transform", "_square"]
    assert all(row["calls"] == 1 and row["cumulative_s"] >= row["own_s"] >= 0 for row in profile["functions"])
    # Line by line, as each ran once; the line that calls _square includes its time.
    by_code = {row["code"]: row for row in profile["lines"]}
    assert set(by_code) == {"return x * x", "return np.sqrt(_square(x) + 1.0) * 2.0 - x"}
    assert all(row["hits"] == 1 for row in profile["lines"])
    assert by_code["return np.sqrt(_square(x) + 1.0) * 2.0 - x"]["seconds"] >= by_code["return x * x"]["seconds"] > 0
    # The entry point's one line is within the traced call, which is within the call as the harness timed it.
    assert by_code["return np.sqrt(_square(x) + 1.0) * 2.0 - x"]["seconds"] <= profile["traced_s"] <= profile["seconds"]


class ProfilingSide:
    """Stands in for the submission's runner: records the profiled call's input size."""

    def __init__(self, status="ok"):
        self.sizes = []
        self.status = status

    def call(self, bundle, budget_ns, deadline_ns, answer_bytes=0, profile=False):
        self.sizes.append(bundle.regions[0][2].size)  # the input array the call was given
        self.budget_s = budget_ns / supervisor.NS
        if self.status != "ok":
            return types.SimpleNamespace(status=self.status)
        lines = [{"line": 2, "code": "return x * 2.0", "hits": 1, "seconds": 0.001}]
        return types.SimpleNamespace(
            status="ok", seconds=0.002, profile=[], profile_lines=lines, profile_traced_s=0.0015
        )


def grading_with(median_by_size, seconds_left, target="cpu"):
    records = {}
    for size, median in median_by_size.items():
        records[size] = per_size.SizeRecord(size)
        records[size].times["submission"] = [median] * 3
    return types.SimpleNamespace(
        job=types.SimpleNamespace(target=target),
        records=records,
        report={},
        deadline_ns=supervisor.time.perf_counter_ns() + int(seconds_left * supervisor.NS),
        sides={"submission": ProfilingSide()},
        progress=types.SimpleNamespace(note=lambda *args, **kwargs: None),
        _make_inputs=lambda size: (np.zeros(size),),
    )


def test_the_profile_is_taken_at_the_largest_size_whose_plan_fits():
    # Planned at 12 x the median + 0.5 s, at most 2 s: 0.1 s at 800 k plans 1.7 s, 1 s at 6.4 M plans 12.5 s.
    grading = grading_with({100_000: 0.01, 800_000: 0.1, 6_400_000: 1.0}, seconds_left=100)
    supervisor.Grading._profile(grading)
    profile = grading.report["profile"]
    assert profile["status"] == "done" and profile["size"] == 800_000 and grading.sides["submission"].sizes == [800_000]
    assert profile["lines"] == [{"line": 2, "code": "return x * 2.0", "hits": 1, "seconds": 0.001}]
    assert (profile["seconds"], profile["traced_s"]) == (0.002, 0.0015)
    assert grading.sides["submission"].budget_s == pytest.approx(2 * (12 * 0.1 + 0.5))
    # With less time left than that, the next size down.
    grading = grading_with({100_000: 0.01, 800_000: 0.1, 6_400_000: 1.0}, seconds_left=1.0)
    supervisor.Grading._profile(grading)
    assert grading.report["profile"]["size"] == 100_000


def test_a_profiled_call_past_twice_its_plan_is_stopped_and_said_so():
    grading = grading_with({8000: 0.1}, seconds_left=100)  # planned at 1.7 s, stopped at 3.4 s
    grading.sides["submission"] = ProfilingSide(status="timeout")
    supervisor.Grading._profile(grading)
    assert grading.report["profile"]["status"] == "skipped"
    assert (
        grading.report["profile"]["reason"]
        == "The profiled call was stopped after 3.4 s, twice the time planned for it."
    )
    grading.sides["submission"] = ProfilingSide(status="died")
    supervisor.Grading._profile(grading)
    assert grading.report["profile"]["reason"] == "The profiled call did not finish (died)."


def test_no_profile_when_not_even_the_smallest_size_fits():
    grading = grading_with({8000: 2.0}, seconds_left=5)  # planned at 12 x 2 s + 0.5 s
    supervisor.Grading._profile(grading)
    assert grading.report["profile"]["status"] == "skipped" and grading.sides["submission"].sizes == []
    assert grading.report["profile"]["reason"].startswith("Not enough of the time limit was left for a profiled call (")
    grading = grading_with({8000: 0.2}, seconds_left=100)  # 2.9 s planned: the time left holds it, the cap does not
    supervisor.Grading._profile(grading)
    assert grading.report["profile"]["reason"] == (
        "A profiled call on the smallest input would take about 2.9 s (profiling slows Python code down about 12 "
        "times), more than the 2 s it may add to a grading."
    )
    grading = grading_with({8000: 0.01}, seconds_left=100, target="gpu")
    supervisor.Grading._profile(grading)
    assert grading.report["profile"]["reason"] == "Profiles are taken on CPU exercises only."


def test_an_endless_loop_is_stopped_on_the_first_call_with_the_limit_named(tmp_path):
    run = run_job(tmp_path, "def transform(x):\n    while True:\n        pass\n", limits={"time_s": 120})
    assert run.verdict == "time_limit"
    assert run.report["message"].startswith("Your code was stopped after ")
    assert "for compiling on a new input, such as JIT compilation" in run.report["message"]
    limit_s = run.report["failure"]["limit_s"]
    assert supervisor.NEW_INPUT_GRACE_S <= limit_s < supervisor.NEW_INPUT_GRACE_S + 5


def timed_record(size, pairs, jitter, seed=1):
    """A size's record after `pairs` pairs of a second each: the submission twice as fast, with relative `jitter`."""
    rng = np.random.default_rng(seed)
    record = per_size.SizeRecord(size)
    for _ in range(pairs):
        record.times["reference"].append(0.6 * (1 + jitter * rng.standard_normal()))
        record.times["submission"].append(0.3 * (1 + jitter * rng.standard_normal()))
        record.pair_ns.append(supervisor.NS)
    return record


def time_left(record, later_sizes, repeats=50):
    grading = types.SimpleNamespace(job=types.SimpleNamespace(repeats=repeats, target="gpu"), deadline_ns=10**15)
    return supervisor.Grading._time_left_s(grading, record, supervisor.SCALING_HALF_WIDTH, later_sizes)


def test_the_time_left_follows_the_stopping_rule_not_the_most_pairs_allowed():
    """A steady answer stops after a few pairs a size: the estimate says so instead of
    counting every pair `repeats` allows (it said 45 s here, for what takes about 12)."""
    assert time_left(timed_record(1000, 2, 0.01), [1000]) is None  # no interval yet: "estimating"
    steady = time_left(timed_record(1000, 5, 0.01), [1000])
    assert 5 <= steady <= 8  # the next size's warm-up and five pairs, then the profiled call
    noisy = time_left(timed_record(1000, 5, 0.4), [1000])
    assert steady < noisy <= 50 + 1 + 45 + supervisor.PROFILE_MAX_S


def test_a_new_estimate_rises_at_most_a_quarter_above_what_the_last_one_left(monkeypatch):
    now = [0]
    monkeypatch.setattr(supervisor.time, "perf_counter_ns", lambda: now[0])
    notes = []
    progress = supervisor.ProgressNotes(notes.append, started_ns=0)
    progress.note("timing", 10.0)
    now[0] = 2 * supervisor.NS
    progress.note("timing", 60.0)
    now[0] = 4 * supervisor.NS
    progress.note("timing", 3.0)
    assert [note["eta_s"] for note in notes] == [10.0, 11.0, 3.0]
