"""Faults with real processes: a worker SIGKILLed mid-grading, Redis restarted
with messages queued, the database cut while a task runs. Every submission
ends graded exactly once."""

import json
import os
import signal
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from submissions.services import housekeeping, lifecycle
from submissions.models import Submission
from submissions.states import Status, Verdict
from interview_platform.celery import app
from tests.hostile.conftest import sandbox_processes

from .conftest import (
    all_done,
    free_port,
    manage_shell,
    private_redis,
    proxied_database,
    requires_services,
    service_env,
    wait_for,
)

pytestmark = [requires_services, pytest.mark.slow]

#: An honest answer that takes a few seconds to load (within the policy: no time module),
#: so a worker can be killed mid-run: about 2.4 s on a quiet 2-core VM. (40 million turns,
#: 0.64 s there, once let a whole grading finish inside the test's 1 s before the kill.)
SLOW_HONEST = """import numpy as np

for _ in range(150_000_000):
    pass


def transform(x):
    return np.sqrt(x * x + 1.0) * 2.0 - x
"""


def create_via_service(env, user, version, code, count=1):
    """create_submission in a separate process: the real on-commit enqueue to the broker in `env`."""
    script = (
        "import json\n"
        "from django.contrib.auth import get_user_model\n"
        "from submissions.services.intake import create_submission\n"
        "from questions.models import ExerciseVersion\n"
        f"user = get_user_model().objects.get(pk={user.pk})\n"
        f"version = ExerciseVersion.objects.get(pk={version.pk})\n"
        f"ids = [create_submission(user, version, {code!r}).pk for _ in range({count})]\n"
        "print(json.dumps(ids))\n"
    )
    return json.loads(manage_shell(env, script).strip().splitlines()[-1])


def sweep_via_service(env):
    out = manage_shell(
        env,
        "import json; from submissions.services.housekeeping import sweep_stuck_submissions as s; print(json.dumps(s()))",
    )
    return json.loads(out.strip().splitlines()[-1])


def backdate(ids, seconds):
    past = timezone.now() - timedelta(seconds=seconds)
    Submission.objects.filter(pk__in=ids, status=Status.RUNNING).update(started_at=past)
    Submission.objects.filter(pk__in=ids).update(created_at=past)


def job_dir_of(pid):
    """The host job directory a sandbox process was started with, from its command line."""
    words = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    for index, word in enumerate(words[:-2]):
        if word == b"--ro-bind" and words[index + 2] == b"/job":
            return Path(words[index + 1].decode())
    return None


def test_worker_killed_mid_grading_leaves_nothing_behind(
    postgres_url, broker_url, run_dir, start_worker, roomy_version, make_user
):
    env = service_env(postgres_url, broker_url, run_dir)
    user = make_user("killed-worker-leftovers")
    [submission_id] = create_via_service(env, user, roomy_version, SLOW_HONEST)
    first = start_worker(env, name="first")
    wait_for(
        lambda: Submission.objects.get(pk=submission_id).status == Status.RUNNING, 30, "the first worker to claim it"
    )
    time.sleep(1.0)
    running = [pid for pid, _, _ in sandbox_processes(include_orphans=False)]
    job_dirs = {job_dir_of(pid) for pid in running} - {None}
    first.kill()
    try:
        # bwrap dies with the worker (parent-death signal) and takes the sandbox with it.
        wait_for(lambda: not sandbox_processes(), 15, "the killed worker's sandbox to go away")
    finally:
        for pid, _, _ in sandbox_processes():
            os.kill(pid, signal.SIGKILL)  # ours: the test started that worker
    assert job_dirs, "the sandbox's job directory was not found while it ran"
    # The next worker to start on this machine removes the dead one's job directory and cgroups.
    start_worker(env, name="second")
    wait_for(lambda: not any(directory.exists() for directory in job_dirs), 30, "the stale job directory to be removed")


def test_worker_killed_mid_grading_is_graded_once_after_the_sweep(
    postgres_url, broker_url, run_dir, start_worker, roomy_version, make_user
):
    env = service_env(postgres_url, broker_url, run_dir)
    user = make_user("killed-worker")
    [submission_id] = create_via_service(env, user, roomy_version, SLOW_HONEST)
    first = start_worker(env, name="first")
    wait_for(
        lambda: Submission.objects.get(pk=submission_id).status == Status.RUNNING, 30, "the first worker to claim it"
    )
    time.sleep(1.0)
    first.kill()
    row = Submission.objects.get(pk=submission_id)
    assert (row.status, row.attempts) == (Status.RUNNING, 1)

    start_worker(env, name="second")
    backdate([submission_id], lifecycle.RECLAIM_RUNNING_AFTER_S + 1)
    assert sweep_via_service(env) == {"requeued": 1, "failed": 0}
    wait_for(all_done([submission_id]), 60, "the requeued submission to be graded")
    row = Submission.objects.get(pk=submission_id)
    assert row.verdict == Verdict.ACCEPTED, row.report
    assert row.attempts == 2
    assert row.platform_error == "the grading worker stopped mid-run"
    from leaderboards.models import LeaderboardEntry

    assert LeaderboardEntry.objects.filter(user=user).count() <= 1


def test_a_worker_restarted_while_the_database_is_away_gives_back_its_predecessors_grading(
    postgres_url, broker_url, run_dir, start_worker, roomy_version, make_user
):
    """A worker killed mid-grading comes back (same name) while the database is still away, as
    one restarted beside a restarting Redis or PostgreSQL: it gives the row back once the
    database is reachable, without the sweep. Found by the compose stack's load-and-fault run,
    where the row stayed 'running' for want of one try at the worker's start."""
    proxy, proxied_url = proxied_database(postgres_url)
    try:
        env = service_env(proxied_url, broker_url, run_dir)
        user = make_user("restarted-beside-an-outage")
        [submission_id] = create_via_service(env, user, roomy_version, SLOW_HONEST)
        first = start_worker(env, name="restarted")
        wait_for(
            lambda: Submission.objects.get(pk=submission_id).status == Status.RUNNING,
            30,
            "the first worker to claim it",
        )
        time.sleep(1.0)
        first.kill()
        proxy.cut()
        second = start_worker(env, name="restarted")
        wait_for(
            lambda: b"cannot give back what its predecessor held yet" in second.log_path.read_bytes(),
            30,
            "the restarted worker to find the database away",
        )
        proxy.restore()
        wait_for(all_done([submission_id]), 90, "the given-back submission to be graded")
    finally:
        proxy.cut()
    row = Submission.objects.get(pk=submission_id)
    assert row.verdict == Verdict.ACCEPTED, row.report
    assert (row.attempts, row.platform_error) == (2, housekeeping.WORKER_STOPPED)


def test_killed_workers_message_is_redelivered_without_the_sweep(
    postgres_url, broker_url, run_dir, start_worker, roomy_version, make_user
):
    """acks_late + reject_on_worker_lost: the unacknowledged message comes back
    after the visibility timeout and the next worker reclaims the row."""
    env = service_env(postgres_url, broker_url, run_dir)
    user = make_user("redelivered")
    [submission_id] = create_via_service(env, user, roomy_version, SLOW_HONEST)
    first = start_worker(env, name="first")
    wait_for(
        lambda: Submission.objects.get(pk=submission_id).status == Status.RUNNING, 30, "the first worker to claim it"
    )
    first.kill()
    # The claim is only stale (reclaimable) after RECLAIM_RUNNING_AFTER_S; time passing is simulated.
    backdate([submission_id], lifecycle.RECLAIM_RUNNING_AFTER_S + 1)
    start_worker(env, name="second")
    wait_for(all_done([submission_id]), 60 + 60, "redelivery after the visibility timeout")
    row = Submission.objects.get(pk=submission_id)
    assert row.verdict == Verdict.ACCEPTED and row.attempts == 2


def test_redis_restart_loses_messages_and_the_sweep_recovers_them(
    postgres_url, run_dir, start_worker, tiny_version, make_user
):
    port = free_port()
    solution = tiny_version.solution_code
    with private_redis(port) as restart_redis:
        env = service_env(postgres_url, f"redis://127.0.0.1:{port}/0", run_dir)
        user = make_user("redis-restart")
        ids = create_via_service(env, user, tiny_version, solution, count=3)
        restart_redis()  # no persistence: the three messages are gone
        start_worker(env)
        time.sleep(3)
        assert Submission.objects.filter(pk__in=ids, status=Status.QUEUED).count() == 3, (
            "nothing should have been delivered"
        )
        backdate(ids, housekeeping.REQUEUE_QUEUED_AFTER_S + 1)
        assert sweep_via_service(env) == {"requeued": 3, "failed": 0}
        wait_for(all_done(ids), 60, "the requeued submissions to be graded")
    rows = Submission.objects.filter(pk__in=ids)
    assert [(row.verdict, row.attempts) for row in rows] == [(Verdict.ACCEPTED, 1)] * 3


def test_database_cut_while_a_task_runs_is_retried_and_completes(
    postgres_url, broker_url, run_dir, start_worker, tiny_version, make_user
):
    """The worker reaches PostgreSQL through a proxy that is cut for a few
    seconds while its task claims the row; the task must retry and finish."""
    proxy, proxied_url = proxied_database(postgres_url)
    try:
        env = service_env(proxied_url, broker_url, run_dir)
        start_worker(env)
        user = make_user("db-cut")
        submission = Submission.objects.create(user=user, exercise=tiny_version, code=tiny_version.solution_code)
        proxy.cut()
        with app.connection_for_write(broker_url) as broker:
            from submissions.tasks import grade_submission

            grade_submission.apply_async(args=[submission.pk], queue="cpu", connection=broker)
        time.sleep(4)  # the worker takes the task and finds no database
        proxy.restore()
        wait_for(all_done([submission.pk]), 60, "the task to retry once the database is back")
    finally:
        proxy.cut()
    row = Submission.objects.get(pk=submission.pk)
    assert row.verdict == Verdict.ACCEPTED and row.attempts == 1


def test_attacks_through_the_full_celery_path(postgres_url, broker_url, run_dir, start_worker, tiny_version, make_user):
    """A handful of attacks submitted the way the web does (create_submission,
    on-commit enqueue, Redis, a real worker, bwrap): each row ends with the
    verdict the direct-grading table expects, and the worker stays healthy."""
    from tests.hostile.conftest import attack_code
    from tests.hostile.test_attacks import ATTACK_TABLE

    names = [
        "harness_kill_parent",
        "forge_report_plain",
        "exhaust_stdout_flood",
        "timing_cache_by_shape",
        "escape_network_loopback",
        "exhaust_daemon_survivor",
    ]
    env = service_env(postgres_url, broker_url, run_dir, SUBMISSION_MAX_QUEUED_PER_USER="20")
    user = make_user("celery-attacker")
    ids = [create_via_service(env, user, tiny_version, attack_code(name))[0] for name in names]
    [honest_id] = create_via_service(env, user, tiny_version, tiny_version.solution_code)
    start_worker(env)
    wait_for(all_done(ids + [honest_id]), 120, "every attack to be graded")
    for name, submission_id in zip(names, ids):
        row = Submission.objects.get(pk=submission_id)
        assert row.verdict in ATTACK_TABLE[name][0], f"{name}: {row.verdict} {row.message}"
        assert row.attempts == 1 and row.message
        assert "ESCAPED" not in json.dumps(row.report)
    assert Submission.objects.get(pk=honest_id).verdict == Verdict.ACCEPTED
    wait_for(lambda: not sandbox_processes(include_orphans=False), 10, "the worker's last sandbox to be cleaned up")
