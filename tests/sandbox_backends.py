"""Which sandbox backends the tests can use on this machine.

The sandbox and hostile tests take the `sandbox_backend` fixture (tests/conftest.py),
which runs each of them on bubblewrap and on Docker. The Docker runs need a real
engine and the CPU sandbox image (`make images`): the first Docker test finds the
engine, or starts dockerd where it may (scripts/ensure_docker.sh --no-install), and
where neither works every Docker test is skipped with the reason, in capitals.
HOTPATH_REQUIRE_DOCKER=1 (CI on our machines) turns that skip into a failure.
"""

import functools
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
UNAVAILABLE = "DOCKER ENGINE UNAVAILABLE, real-engine test not run"


def _engine_client():
    import docker

    client = docker.from_env(timeout=30)
    client.ping()
    return client


@functools.cache
def docker_unavailable_reason():
    """None when an engine answers and the CPU sandbox image is on it; otherwise why not."""
    import docker

    from grader import config

    image = config.current().cpu_image
    try:
        client = _engine_client()
    except Exception as first_error:
        started = subprocess.run(
            [str(REPO / "scripts" / "ensure_docker.sh"), "--no-install"], capture_output=True, text=True, timeout=120
        )
        if started.returncode != 0:
            return f"no engine answers ({first_error}) and none could be started: {started.stderr.strip()[-400:]}"
        try:
            client = _engine_client()
        except Exception as error:
            return f"dockerd started but does not answer: {error}"
    try:
        client.images.get(image)
    except docker.errors.ImageNotFound:
        return f"the sandbox image {image} is not built (run `make images`)"
    finally:
        client.close()
    return None


def require_docker():
    """Skip (or, with HOTPATH_REQUIRE_DOCKER=1, fail) the calling test without an engine."""
    reason = docker_unavailable_reason()
    if reason is None:
        return
    message = f"{UNAVAILABLE}: {reason}"
    if os.environ.get("HOTPATH_REQUIRE_DOCKER") == "1":
        pytest.fail(message)
    pytest.skip(message)


def require_backend(name):
    if name == "docker":
        require_docker()
    elif shutil.which("bwrap") is None:
        pytest.skip("bubblewrap is not installed")


#: The parameters of `sandbox_backend`: Docker runs carry the `docker` marker, so `-m docker` selects them.
BACKENDS = [pytest.param("bwrap", id="bwrap"), pytest.param("docker", id="docker", marks=pytest.mark.docker)]
