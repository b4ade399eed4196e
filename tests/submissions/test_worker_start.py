"""A worker's start sweeps the sandboxes a killed worker left behind, on the configured backend."""

import docker

from submissions.services import housekeeping
from tests.grader.test_docker_backend import ListedContainer, ListingClient


def test_worker_start_sweeps_the_docker_engine(settings, monkeypatch):
    settings.SANDBOX_BACKEND = "docker"  # handed to the judge (submissions.apps.configure_judge)
    expired = ListedContainer("expired", {"org.hotpath.sandbox": "1", "org.hotpath.sandbox.expires": "1"})
    monkeypatch.setattr(docker, "from_env", lambda **kwargs: ListingClient([expired]))
    assert housekeeping.remove_stale_sandboxes() == 1
    assert expired.removed
