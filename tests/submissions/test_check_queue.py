"""Quick checks have a queue of their own (`check`) and a worker slot kept for them,
so a check never waits behind full gradings (issue 15, item 6)."""

import importlib.util
from pathlib import Path

import yaml

from submissions.models import Purpose, Submission
from submissions.services import intake, queueing

ROOT = Path(__file__).resolve().parents[2]
CODE = "def scale(x):\n    return x * 3.0 + 1.0\n"


def queue_option(command):
    return set(command[command.index("-Q") + 1].split(","))


def test_a_quick_check_goes_to_the_check_queue_and_practice_to_cpu(
    candidate, exercise_version, queued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        check = intake.create_submission(candidate, exercise_version, CODE, purpose=Purpose.QUICK_CHECK)
        practice = intake.create_submission(candidate, exercise_version, CODE)
    assert queued == [([check.pk], "check"), ([practice.pk], "cpu")]


def test_a_quick_check_has_nobody_ahead_while_full_gradings_wait(candidate, outsider, exercise_version):
    full = [Submission.objects.create(user=outsider, exercise=exercise_version, code=CODE) for _ in range(3)]
    check = Submission.objects.create(user=candidate, exercise=exercise_version, code=CODE, purpose=Purpose.QUICK_CHECK)
    assert queueing.queue_position(check) == 0
    assert [queueing.queue_position(s) for s in full] == [0, 1, 2]


def test_gpu_quick_checks_stay_on_the_gpu_queue(candidate, exercise_version):
    exercise_version.spec = {**exercise_version.spec, "target": "gpu"}
    exercise_version.save()
    check = Submission.objects.create(user=candidate, exercise=exercise_version, code=CODE, purpose=Purpose.QUICK_CHECK)
    assert check.queue == "gpu"


def test_make_run_keeps_a_worker_for_quick_checks_alone():
    spec = importlib.util.spec_from_file_location("run_dev", ROOT / "scripts" / "run_dev.py")
    run_dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run_dev)
    workers = [queue_option(command) for command in run_dev.commands() if "worker" in command]
    assert {"check"} in workers, "no worker consumes only the check queue"
    assert any("cpu" in queues for queues in workers), "no worker grades full submissions"


def test_compose_keeps_a_worker_for_quick_checks_alone():
    services_ = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    workers = {
        name: queue_option(service["command"])
        for name, service in services_.items()
        if "worker" in (service.get("command") or []) and "-Q" in service["command"]
    }
    assert {"check"} in workers.values(), workers
    assert "cpu" in workers["worker-cpu"]
