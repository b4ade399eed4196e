"""CPU slots: concurrent gradings on one machine claim different CPUs."""

import os

import pytest

from grader.sandbox.cpuslots import LOCK_PREFIX, claim_runner_cpu, claim_runner_cpus

CPUS = sorted(os.sched_getaffinity(0))


def test_concurrent_claims_get_different_cpus_and_release_them(tmp_path):
    with claim_runner_cpu(tmp_path) as first:
        assert first in CPUS
        with claim_runner_cpu(tmp_path) as second:  # a second grading while the first runs
            if len(CPUS) > 1:
                assert second in CPUS and second != first
            else:
                assert second is None  # no free CPU: the harness picks for itself
    with claim_runner_cpu(tmp_path) as again:
        assert again == first  # released when the first grading ended


def test_every_cpu_taken_yields_none(tmp_path):
    with claim_runner_cpu(tmp_path) as first:
        held = [first]
        while True:
            context = claim_runner_cpu(tmp_path)
            cpu = context.__enter__()
            if cpu is None:
                context.__exit__(None, None, None)
                break
            held.append((cpu, context))
        assert len(held) == len(CPUS)
        for _cpu, context in held[1:]:
            context.__exit__(None, None, None)


def test_a_planted_link_is_never_followed(tmp_path):
    target = tmp_path / "elsewhere"
    target.write_text("keep me")
    for cpu in CPUS:
        (tmp_path / f"{LOCK_PREFIX}{cpu}.lock").symlink_to(target)
    with claim_runner_cpu(tmp_path) as cpu:
        assert cpu is None
    assert target.read_text() == "keep me"


@pytest.mark.parametrize("value", [-1, "0", 1.5, True, None, 3])
def test_job_refuses_bad_runner_cpus(tmp_path, value):
    import json

    from grader.harness.job import JobError, load_job

    with pytest.raises(JobError, match="runner_cpus"):
        load_job(json.dumps({"entry_point": "f", "sizes": [1], "runner_cpus": value if value == 3 else [value]}))


def test_a_claim_for_several_cpus_holds_that_many_and_no_more(tmp_path):
    with claim_runner_cpus(2, tmp_path) as held:
        assert len(held) == min(2, len(CPUS)) and len(set(held)) == len(held) and set(held) <= set(CPUS)
        with claim_runner_cpus(len(CPUS), tmp_path) as rest:  # a second grading gets only what is left
            assert not set(rest) & set(held) and len(rest) == len(CPUS) - len(held)
    with claim_runner_cpus(len(CPUS) + 3, tmp_path) as everything:
        assert sorted(everything) == CPUS  # all released, and never more than the machine has
