"""The Docker sandbox without an engine: container_spec is checked directly, and
DockerSandbox runs against a small in-test fake of the docker client whose
attach stream is a real socket pair speaking Docker's multiplexed stream format,
so the output reader, stdin delivery, caps and clean-up are the real code."""

import io
import socket
import struct
import tarfile
import threading

import docker
import pytest
import requests

from grader import grading
from grader.errors import PlatformError
from grader.config import JudgeConfig
from grader.sandbox import Limits, get_backend
from grader.sandbox.base import HARNESS_MEMORY_BYTES
from grader.sandbox import seccomp
from grader.sandbox.docker import DockerSandbox, container_spec

CONFIG = JudgeConfig(backend="docker", cpu_image="hotpath-sandbox-cpu:test", gpu_image="hotpath-sandbox-gpu:test")
LIMITS = Limits(
    wall_time_s=5.0,
    cpu_time_s=30.0,
    memory_bytes=768 * 1024**2,
    processes=48,
    output_bytes=4096,
    disk_bytes=32 * 1024**2,
    cpus=2.0,
)
COMMAND = ["python3", "-I", "/job/harness/main.py", "/job"]


def frame(stream_id, data):
    return struct.pack(">BxxxL", stream_id, len(data)) + data


class FakeContainer:
    """Runs `program(container)` in a thread once started; the program talks
    through `self.inside`, the container's end of the attach socket."""

    def __init__(self, program, state=None, fail_on=()):
        self.id = "c0ffee"
        self.program = program
        self.fail_on = set(fail_on)
        self.attrs = {"State": dict(state or {})}
        self.archives = []
        self.calls = []
        self.killed = threading.Event()
        self.exit_code = None
        self.inside = None
        self._thread = None

    def _maybe_fail(self, name):
        self.calls.append(name)
        if name in self.fail_on:
            raise docker.errors.APIError(f"{name} failed")

    def put_archive(self, path, data):
        self._maybe_fail("put_archive")
        self.archives.append((path, data))
        return True

    def attach_socket(self, params):
        self._maybe_fail("attach_socket")
        self.attach_params = params
        host_end, self.inside = socket.socketpair()
        return host_end

    def start(self):
        self._maybe_fail("start")
        self._thread = threading.Thread(target=self._main, daemon=True)
        self._thread.start()

    def _main(self):
        try:
            code = self.program(self)
        except OSError:  # killed: our socket was closed under the program
            code = 137
        if self.exit_code is None:
            self.exit_code = code
        try:
            self.inside.close()
        except OSError:
            pass

    def read_stdin(self):
        data = b""
        while chunk := self.inside.recv(4096):
            data += chunk
        return data

    def write(self, stream_id, data):
        self.inside.sendall(frame(stream_id, data))

    def kill(self):
        self.calls.append("kill")
        self.exit_code = 137
        self.killed.set()
        try:
            self.inside.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def wait(self, timeout=None):
        self._maybe_fail("wait")
        self._thread.join(timeout)
        if self._thread.is_alive():
            raise requests.exceptions.ConnectionError("read timed out")
        return {"StatusCode": self.exit_code, "Error": None}

    def reload(self):
        self.calls.append("reload")

    def remove(self, force=False, v=False):
        self.calls.append(("remove", force, v))


class FakeClient:
    def __init__(self, container=None, create_error=None):
        self.container = container
        self.create_error = create_error
        self.created = []
        self.containers = self  # client.containers.create(...)

    def create(self, **kwargs):
        self.created.append(kwargs)
        if self.create_error:
            raise self.create_error
        return self.container

    def close(self):
        pass


def run_sandbox(container, limits=LIMITS, target="cpu", stdin=b"secret-line\n"):
    client = FakeClient(container)
    with DockerSandbox(limits=limits, target=target, client=client, config=CONFIG) as sandbox:
        sandbox.write_file("harness/main.py", "print('hi')\n")
        sandbox.write_file("job.json", "{}")
        result = sandbox.run(COMMAND, stdin=stdin)
    return result, client


def removed(container):
    return ("remove", True, True) in container.calls


# -- container_spec -------------------------------------------------------------------


def test_a_gradings_container_is_capped_at_the_whole_sandboxs_memory():
    """mem_limit and memswap_limit follow the sandbox's cap (both runners' limits, the
    tmpfs, the supervisor's allowance), not the submission's limit alone."""
    limits = grading.sandbox_limits({"time_s": 5, "memory_mb": 512, "processes": 32, "output_kb": 64, "disk_mb": 16})
    spec = container_spec(limits, "cpu", CONFIG)
    cap = 2 * 512 * 1024**2 + 16 * 1024**2 + HARNESS_MEMORY_BYTES
    assert spec["mem_limit"] == spec["memswap_limit"] == cap


def test_container_spec_carries_every_limit():
    spec = container_spec(LIMITS, "cpu", CONFIG)
    assert spec["image"] == "hotpath-sandbox-cpu:test"
    assert spec["network_mode"] == "none"
    assert spec["read_only"] is True
    assert spec["cap_drop"] == ["ALL"]
    no_new_privileges, seccomp_option = spec["security_opt"]
    assert no_new_privileges == "no-new-privileges"
    assert seccomp_option == f"seccomp={seccomp.docker_profile()}"
    assert spec["user"] == "65534:65534"
    assert spec["pids_limit"] == 48
    assert spec["mem_limit"] == spec["memswap_limit"] == 768 * 1024**2
    assert spec["nano_cpus"] == 2_500_000_000  # 2 CPUs for the code + the supervisor's share
    tmp_options = spec["tmpfs"]["/tmp"].split(",")
    assert f"size={32 * 1024**2}" in tmp_options and "mode=1777" in tmp_options and "noexec" in tmp_options
    ulimits = {u["Name"]: (u["Soft"], u["Hard"]) for u in spec["ulimits"]}
    assert ulimits["core"] == (0, 0)
    assert ulimits["fsize"] == (32 * 1024**2, 32 * 1024**2)
    assert ulimits["cpu"] == (30, 31)
    assert ulimits["nofile"][1] <= 4096
    assert "init" not in spec  # the harness's supervisor is pid 1, not docker-init
    assert spec["ipc_mode"] == "none" and "shm_size" not in spec  # no writable /dev/shm beside /tmp
    assert spec["auto_remove"] is False
    assert spec["working_dir"] == "/tmp"
    assert spec["log_config"]["Type"] == "none"
    assert [m["Target"] for m in spec["mounts"]] == ["/job"]
    assert "device_requests" not in spec


def test_container_spec_environment_is_minimal(monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "host-secret")
    env = container_spec(LIMITS, "cpu", CONFIG)["environment"]
    assert "SECRET_KEY" not in env and "host-secret" not in env.values()
    assert env["HOME"] == "/tmp" and env["NUMBA_CACHE_DIR"].startswith("/tmp/")
    assert env["OMP_NUM_THREADS"] == "2" and env["OMP_WAIT_POLICY"] == "PASSIVE"  # as in the bwrap sandbox
    assert env["MALLOC_MMAP_THRESHOLD_"] == "131072"  # the same memory behaviour as the bwrap sandbox
    assert "NUMPY_MADVISE_HUGEPAGE" not in env  # NumPy's defaults, as learners and production code run it


def test_gpu_spec_requests_one_gpu_and_uses_the_gpu_image():
    spec = container_spec(LIMITS, "gpu", CONFIG)
    assert spec["image"] == "hotpath-sandbox-gpu:test"
    [request] = spec["device_requests"]
    assert request["Count"] == 1 and request["Capabilities"] == [["gpu"]]
    assert spec["environment"]["CUPY_CACHE_DIR"].startswith("/tmp/")
    assert spec["network_mode"] == "none" and spec["read_only"] is True


def test_container_spec_rejects_unknown_target():
    with pytest.raises(ValueError):
        container_spec(LIMITS, "tpu", CONFIG)


def test_get_backend_returns_docker_sandbox():
    assert get_backend("docker") is DockerSandbox


# -- job files ------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["../escape.py", "/etc/passwd", "a/../b", "", "a//b", "a\\b", "nul\0l"])
def test_write_file_refuses_paths_outside_the_job(bad):
    with DockerSandbox(limits=LIMITS, client=FakeClient(), config=CONFIG) as sandbox:
        with pytest.raises(ValueError):
            sandbox.write_file(bad, "x")


def test_write_file_refuses_to_overwrite():
    with DockerSandbox(limits=LIMITS, client=FakeClient(), config=CONFIG) as sandbox:
        sandbox.write_file("harness/main.py", "x")
        for clash in ("harness/main.py", "harness", "harness/main.py/inner"):
            with pytest.raises(FileExistsError):
                sandbox.write_file(clash, "y")


def test_job_goes_in_as_a_read_only_root_owned_archive_at_job():
    container = FakeContainer(lambda c: (c.read_stdin(), 0)[1])
    run_sandbox(container)
    [(path, data)] = container.archives
    assert path == "/job"
    members = {m.name: m for m in tarfile.open(fileobj=io.BytesIO(data))}
    assert set(members) == {"harness", "harness/main.py", "job.json"}
    assert members["harness"].isdir() and members["harness"].mode == 0o555
    for name in ("harness/main.py", "job.json"):
        assert members[name].isfile() and members[name].mode == 0o444
    assert all(m.uid == 0 and m.gid == 0 for m in members.values())
    assert container.calls.index("put_archive") < container.calls.index("start")


# -- running --------------------------------------------------------------------------


def test_stdin_reaches_the_container_and_output_comes_back():
    def program(c):
        secret = c.read_stdin()  # returns only at EOF: the host closed its side
        c.write(1, b"got " + secret)
        c.write(2, b"a warning\n")
        return 0

    container = FakeContainer(program)
    result, client = run_sandbox(container)
    assert result.exit_code == 0 and result.signal is None
    assert result.stdout == b"got secret-line\n"
    assert result.stderr == b"a warning\n"
    assert not (result.timed_out or result.oom_killed or result.output_exceeded)
    assert client.created[0]["command"] == COMMAND
    assert container.attach_params["stdin"] == 1
    assert container.calls.index("attach_socket") < container.calls.index("start")
    assert removed(container)


def test_oom_killed_container_maps_to_oom_killed():
    container = FakeContainer(lambda c: 137, state={"OOMKilled": True})
    result, _ = run_sandbox(container)
    assert result.oom_killed is True
    assert result.exit_code is None and result.signal == 9
    assert not result.timed_out
    assert removed(container)


def test_wall_limit_kills_and_reports_timed_out():
    def hangs(c):
        c.killed.wait(30)
        return 0

    container = FakeContainer(hangs)
    result, _ = run_sandbox(container, limits=Limits(wall_time_s=0.3, output_bytes=4096))
    assert result.timed_out is True
    assert "kill" in container.calls
    assert result.signal == 9
    assert result.wall_s < 10
    assert removed(container)


def test_cpu_limit_signal_counts_as_timed_out():
    container = FakeContainer(lambda c: 128 + 24)  # SIGXCPU from RLIMIT_CPU
    result, _ = run_sandbox(container)
    assert result.timed_out is True and result.signal == 24


def test_output_cap_stops_the_run_and_keeps_only_the_cap():
    def floods(c):
        for _ in range(100):
            c.write(1, b"x" * 1024)
        c.killed.wait(30)
        return 0

    container = FakeContainer(floods)
    result, _ = run_sandbox(container, limits=Limits(wall_time_s=5.0, output_bytes=2000))
    assert result.output_exceeded is True
    assert result.stdout == b"x" * 2000
    assert "kill" in container.calls
    assert not result.timed_out
    assert removed(container)


def test_plain_exit_code_is_kept():
    container = FakeContainer(lambda c: 3)
    result, _ = run_sandbox(container)
    assert result.exit_code == 3 and result.signal is None
    assert not (result.timed_out or result.oom_killed or result.output_exceeded)


@pytest.mark.parametrize("step", ["put_archive", "attach_socket", "start"])
def test_container_removed_when_preparing_it_fails(step):
    container = FakeContainer(lambda c: 0, fail_on={step})
    with pytest.raises(PlatformError):
        run_sandbox(container)
    assert removed(container)


def test_container_removed_when_run_raises_unexpectedly():
    container = FakeContainer(lambda c: 0)
    container.reload = lambda: (_ for _ in ()).throw(RuntimeError("engine went away"))
    with pytest.raises(RuntimeError):
        run_sandbox(container)
    assert removed(container)


def test_missing_image_is_a_platform_error():
    client = FakeClient(create_error=docker.errors.ImageNotFound("no such image"))
    with DockerSandbox(limits=LIMITS, client=client, config=CONFIG) as sandbox:
        sandbox.write_file("job.json", "{}")
        with pytest.raises(PlatformError) as caught:
            sandbox.run(COMMAND)
    assert caught.value.error_id == "sandbox.image_missing"


def test_gpu_run_creates_the_container_with_a_gpu_request():
    container = FakeContainer(lambda c: 0)
    _, client = run_sandbox(container, target="gpu")
    assert client.created[0]["device_requests"][0]["Capabilities"] == [["gpu"]]
    assert client.created[0]["image"] == "hotpath-sandbox-gpu:test"


# -- sweeping containers of dead workers ------------------------------------------------


class ListedContainer:
    def __init__(self, name, labels, status="running", remove_error=None):
        self.id = name
        self.labels = labels
        self.status = status
        self.remove_error = remove_error
        self.removed = False

    def remove(self, force=False, v=False):
        if self.remove_error:
            raise self.remove_error
        assert force and v  # running or not, and with its /job volume
        self.removed = True


class ListingClient:
    def __init__(self, containers, list_error=None):
        self.listed = containers
        self.list_error = list_error
        self.filters = None
        self.containers = self

    def list(self, all=False, filters=None):
        if self.list_error:
            raise self.list_error
        assert all, "exited containers must be swept too"
        self.filters = filters
        return self.listed

    def close(self):
        pass


def test_every_container_carries_the_time_after_which_no_run_can_own_it():
    spec = container_spec(LIMITS, "cpu", CONFIG, created_at=1_000_000.0)
    expires = int(spec["labels"]["org.hotpath.sandbox.expires"])
    assert expires >= 1_000_000 + LIMITS.wall_time_s + 2 * 10  # past the wall limit and the kill grace
    assert expires <= 1_000_000 + LIMITS.wall_time_s + 3600


def test_sweep_removes_expired_sandbox_containers_and_keeps_live_ones():
    now = 2_000_000.0
    expired = ListedContainer("expired", {"org.hotpath.sandbox": "1", "org.hotpath.sandbox.expires": str(int(now) - 1)})
    live = ListedContainer("live", {"org.hotpath.sandbox": "1", "org.hotpath.sandbox.expires": str(int(now) + 60)})
    old_exited = ListedContainer("old-exited", {"org.hotpath.sandbox": "1"}, status="exited")
    old_running = ListedContainer("old-running", {"org.hotpath.sandbox": "1"}, status="running")
    garbled = ListedContainer("garbled", {"org.hotpath.sandbox": "1", "org.hotpath.sandbox.expires": "soon"})
    gone = ListedContainer("gone", {"org.hotpath.sandbox.expires": "1"}, remove_error=docker.errors.NotFound("gone"))
    client = ListingClient([expired, live, old_exited, old_running, garbled, gone])
    assert DockerSandbox.remove_stale(client=client, now=now) == 4
    assert client.filters == {"label": "org.hotpath.sandbox"}  # never anything but sandboxes
    assert [c.id for c in client.listed if c.removed] == ["expired", "old-exited", "garbled"]
    assert not live.removed and not old_running.removed


def test_sweep_survives_an_unreachable_engine(caplog):
    client = ListingClient([], list_error=requests.exceptions.ConnectionError("engine down"))
    assert DockerSandbox.remove_stale(client=client) == 0
    assert "could not list sandbox containers" in caplog.text
