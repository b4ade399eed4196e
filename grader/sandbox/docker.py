"""The Docker sandbox: one throwaway container per run (CPU, or GPU with CuPy).

How the job gets in. The job files never touch the host's disk: write_file keeps
them in memory, and run() packs them into a tar whose entries are root-owned and
read-only (directories 0555, files 0444), then extracts it with the Engine's
archive API into an anonymous volume at /job of the freshly created, not yet
started container. The host only ever sends data in; it never reads a path back
from the container, so nothing the submission writes can make the host follow a
link. The same code works against a local or a remote engine and from inside
the compose worker container (a bind mount would need host paths).

(An archive cannot go into a read-only root filesystem, and a tmpfs only exists
once the container runs, hence a volume. It is writable for the engine but not
for uid 65534 inside, and it is removed with the container.)

How the secret gets in. The harness runs as the same uid as the submission, so
a secret in a file under /job would be readable by the submission unless the
harness deleted it first, and /job is read-only to it. Instead the host attaches
to the container's stdin before starting it and writes the secret line there;
the harness consumes it before it starts any runner, and stdin is then closed.

The container itself (see container_spec): no network, read-only root
filesystem, a size-capped noexec tmpfs at /tmp as the only writable place, all
capabilities dropped, no-new-privileges, the sandbox's system-call filter
(grader/sandbox/seccomp.py, the same policy bubblewrap applies), uid/gid 65534,
caps on pids, memory (swap included), CPUs and open files, RLIMIT_CPU/FSIZE/CORE,
and no log driver: output comes back through the attach stream, which the host
caps. The harness's supervisor is the container's pid 1 (no docker-init): the
kernel drops every signal a process inside sends it that it has no handler
for, orphans reparent to it, and when it exits the kernel kills whatever is
left in the container's pid namespace. The host kills the container
at the wall limit and removes it (with its volume) whatever happened.
"""

import io
import logging
import socket
import tarfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, cast

import docker
import requests
from docker.types import DeviceRequest, LogConfig, Mount, Ulimit
from docker.utils.socket import STDERR, STDOUT, frames_iter

from grader import config as judge_config
from grader.errors import PlatformError

from . import seccomp
from .base import SANDBOX_MEMORY_ENV, SANDBOX_THREAD_ENV, Limits, Sandbox, SandboxResult, pass_on_stdout

if TYPE_CHECKING:
    from docker import DockerClient
    from docker.models.containers import Container

logger = logging.getLogger(__name__)

SANDBOX_USER = "65534:65534"
LABEL = "org.hotpath.sandbox"
OPEN_FILES = 1024
KILL_WAIT_S = 10.0
#: The engine reports 128 + N as the exit status of a pid 1 killed by signal N.
SIGNAL_EXIT_BASE = 128
SIGKILL = 9
SIGXCPU = 24
#: Socket timeout for ordinary Engine API calls; waits use their own.
API_TIMEOUT_S = 60
#: Every sandbox container is labelled with the Unix time after which no live
#: run can still own it: the host kills a run at its wall limit, so creation +
#: wall limit + the kill and wait grace + this margin (a slow engine creating
#: the container and copying the job in) is safely past any run's end.
EXPIRES_LABEL = f"{LABEL}.expires"
STALE_MARGIN_S = 300


def _thread_count(limits: Limits) -> str:
    return str(max(1, int(limits.cpus)))


def sandbox_environment(limits: Limits, target: str) -> dict[str, str]:
    """The container's whole environment: no host variable ever leaks in."""
    env = {
        "PATH": "/opt/venv/bin:/usr/local/bin:/usr/bin:/bin",
        "HOME": "/tmp",
        "LANG": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "NUMBA_CACHE_DIR": "/tmp/numba",
        **SANDBOX_MEMORY_ENV,
        **SANDBOX_THREAD_ENV,
    }
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
        env[name] = _thread_count(limits)
    if target == "gpu":
        env["CUPY_CACHE_DIR"] = "/tmp/cupy"
        env["NVIDIA_DRIVER_CAPABILITIES"] = "compute,utility"
    return env


def container_spec(
    limits: Limits, target: str, config: judge_config.JudgeConfig, created_at: float | None = None
) -> dict[str, object]:
    """Keyword arguments for `client.containers.create` (all but the command).

    A pure function (given `created_at`, default now) so every limit can be
    checked without an engine. /tmp is
    noexec: Numba's JIT and CuPy's NVRTC compile in memory, and their caches are
    data files, so nothing there ever needs to be executed."""
    if target not in ("cpu", "gpu"):
        raise ValueError(f"Unknown sandbox target {target!r}; expected 'cpu' or 'gpu'")
    disk = int(limits.disk_bytes)
    memory = int(limits.memory_bytes)
    created_at = time.time() if created_at is None else created_at
    expires = int(created_at + limits.wall_time_s + 2 * KILL_WAIT_S + STALE_MARGIN_S)
    cpu_s = max(1, int(limits.cpu_time_s))
    spec: dict[str, object] = {
        "image": config.image_for(target),
        "network_mode": "none",
        "read_only": True,
        "tmpfs": {"/tmp": f"rw,noexec,nosuid,nodev,size={disk},mode=1777"},
        "mounts": [Mount(target=Sandbox.JOB_MOUNT, source=None, type="volume")],
        "cap_drop": ["ALL"],
        "security_opt": ["no-new-privileges", seccomp.docker_security_opt()],
        "user": SANDBOX_USER,
        "pids_limit": int(limits.processes),
        "mem_limit": memory,
        "memswap_limit": memory,  # equal: no swap on top of the memory limit
        "nano_cpus": int(limits.cpu_quota * 1e9),  # the code is pinned to the job's CPUs inside
        "ulimits": [
            Ulimit(name="nofile", soft=OPEN_FILES, hard=OPEN_FILES),
            Ulimit(name="fsize", soft=disk, hard=disk),
            Ulimit(name="core", soft=0, hard=0),
            Ulimit(name="cpu", soft=cpu_s, hard=cpu_s + 1),  # SIGXCPU, then SIGKILL a second later
        ],
        "environment": sandbox_environment(limits, target),
        "working_dir": "/tmp",
        "hostname": "sandbox",
        # No /dev/shm at all (a private IPC namespace without the mount): it would be a second
        # writable place beside the capped /tmp, as bubblewrap's read-only one is not.
        "ipc_mode": "none",
        "auto_remove": False,  # removed explicitly, after its exit state has been read
        "labels": {LABEL: "1", f"{LABEL}.target": target, EXPIRES_LABEL: str(expires)},
        "log_config": LogConfig(type=LogConfig.types.NONE),  # output comes back only through the capped attach stream
        # With detach=False, docker-py also sets StdinOnce: stdin closes when our attach stream does.
        "stdin_open": True,
        "detach": False,
        "tty": False,
    }
    if target == "gpu":
        spec["device_requests"] = [DeviceRequest(count=1, capabilities=[["gpu"]])]
    return spec


def _safe_parts(relative_path: str) -> tuple[str, ...]:
    """The components of a job-relative path; refuses anything that could leave /job."""
    text = str(relative_path)
    if not text or "\0" in text or "\\" in text or text.startswith("/"):
        raise ValueError(f"Not a safe relative job path: {text!r}")
    parts = text.split("/")
    if any(part in ("", ".", "..") for part in parts):
        raise ValueError(f"Not a safe relative job path: {text!r}")
    return tuple(parts)


def job_archive(files: Mapping[tuple[str, ...], bytes]) -> bytes:
    """A tar of the job files: root-owned, directories 0555, files 0444."""
    buffer = io.BytesIO()
    directories = sorted({str(PurePosixPath(*parts[:i])) for parts in files for i in range(1, len(parts))})
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as archive:
        for name in directories:
            info = tarfile.TarInfo(name)
            info.type = tarfile.DIRTYPE
            info.mode = 0o555
            archive.addfile(info)
        for parts, data in sorted(files.items()):
            info = tarfile.TarInfo(str(PurePosixPath(*parts)))
            info.size = len(data)
            info.mode = 0o444
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _expired(container: "Container", now: float) -> bool:
    expires = (container.labels or {}).get(EXPIRES_LABEL)
    if expires is None:
        stopped: bool = container.status != "running"
        return stopped
    try:
        return float(expires) < now
    except ValueError:
        return True


def _decode_status(status_code: int | None) -> tuple[int | None, int | None]:
    """(exit_code, signal) from the container's exit status (the engine's 128+N convention)."""
    if status_code is None:
        return None, None
    if SIGNAL_EXIT_BASE < status_code <= SIGNAL_EXIT_BASE + 64:
        return None, status_code - SIGNAL_EXIT_BASE
    return status_code, None


def _raw_socket(stream: object) -> socket.socket:
    """The socket under docker-py's attach stream (a SocketIO over a unix socket, or a socket)."""
    return cast("socket.socket", getattr(stream, "_sock", stream))


class _OutputReader(threading.Thread):
    """Demultiplexes the attach stream into stdout and stderr, keeping at most
    `cap` bytes of each. `finished` is set at end of stream or when a cap is passed."""

    def __init__(self, stream: object, cap: int, on_stdout: Callable[[bytes], object] | None = None) -> None:
        super().__init__(name="sandbox-output", daemon=True)
        self.stream = stream
        self.cap = cap
        self.on_stdout = on_stdout
        self.buffers: dict[int, bytearray] = {STDOUT: bytearray(), STDERR: bytearray()}
        self.output_exceeded = False
        self.finished = threading.Event()

    def run(self) -> None:
        try:
            for stream_id, chunk in frames_iter(self.stream, tty=False):
                buffer = self.buffers.get(stream_id)
                if buffer is None:
                    continue
                if stream_id == STDOUT and self.on_stdout is not None:
                    pass_on_stdout(self.on_stdout, chunk)
                room = self.cap - len(buffer)
                if len(chunk) > room:
                    buffer += chunk[: max(room, 0)]
                    self.output_exceeded = True
                    return
                buffer += chunk
        except (OSError, ValueError):
            pass  # the socket was closed under us: the run is over either way
        finally:
            self.finished.set()


class DockerSandbox(Sandbox):
    """See the module docstring. `client` is a docker.DockerClient (default: from
    the environment, DOCKER_HOST and friends); `config` (a grader.config.JudgeConfig,
    default the configured one) names the images."""

    def __init__(
        self,
        limits: Limits | None = None,
        target: str = "cpu",
        client: "DockerClient | None" = None,
        config: judge_config.JudgeConfig | None = None,
    ) -> None:
        super().__init__(limits, target)
        self._client = client
        self._owns_client = client is None
        self._config = config or judge_config.current()
        self._files: dict[tuple[str, ...], bytes] | None = None
        self._containers: list[Container] = []

    # -- lifecycle -----------------------------------------------------------------

    def _setup(self) -> None:
        container_spec(self.limits, self.target, self._config)  # fail early on a bad target
        if self._client is None:
            try:
                self._client = docker.from_env(timeout=API_TIMEOUT_S)
            except docker.errors.DockerException as exc:
                raise PlatformError("sandbox.docker_unavailable", f"cannot reach the Docker engine: {exc}") from exc
        self._files = {}

    def _cleanup(self) -> None:
        for container in list(self._containers):
            self._remove(container)
        self._containers = []
        self._files = None
        if self._owns_client and self._client is not None:
            try:
                self._client.close()
            except Exception as exc:
                logger.warning("closing the Docker client failed: %r", exc)
            self._client = None

    def _remove(self, container: "Container") -> None:
        """Remove the container and its /job volume. Logged, never raised: cleanup must go on."""
        try:
            container.remove(force=True, v=True)
        except docker.errors.NotFound:
            pass
        except Exception as exc:
            logger.error("could not remove sandbox container %s: %r", getattr(container, "id", "?"), exc)
            return
        if container in self._containers:
            self._containers.remove(container)

    @classmethod
    def remove_stale(cls, client: "DockerClient | None" = None, now: float | None = None) -> int:
        """Remove sandbox containers no live run can own any more: a worker killed
        mid-run never removes its container. Decided by the expiry label alone,
        so any worker on any machine may sweep an engine without knowing which
        worker made what; a container without the label (made before it existed)
        is only removed once it is no longer running. Returns how many went."""
        owns_client = client is None
        try:
            if owns_client:
                client = docker.from_env(timeout=API_TIMEOUT_S)
            assert client is not None  # given, or made just now
            containers = client.containers.list(all=True, filters={"label": LABEL})
        except (docker.errors.DockerException, requests.exceptions.RequestException) as exc:
            logger.warning("could not list sandbox containers to sweep: %r", exc)
            return 0
        try:
            now = time.time() if now is None else now
            stale = [container for container in containers if _expired(container, now)]
            for container in stale:
                try:
                    container.remove(force=True, v=True)
                    logger.warning("removed stale sandbox container %s", container.id)
                except docker.errors.NotFound:
                    pass
                except (docker.errors.DockerException, requests.exceptions.RequestException) as exc:
                    logger.error("could not remove stale sandbox container %s: %r", container.id, exc)
            return len(stale)
        finally:
            if owns_client:
                client.close()

    # -- job files -----------------------------------------------------------------

    def write_file(self, relative_path: str, content: str | bytes) -> None:
        if self._files is None:
            raise RuntimeError("write_file needs an open sandbox (use it as a context manager)")
        parts = _safe_parts(relative_path)
        clashes = (
            parts in self._files
            or any(parts[:i] in self._files for i in range(1, len(parts)))  # a parent is a file
            or any(existing[: len(parts)] == parts for existing in self._files)  # it is a directory
        )
        if clashes:
            raise FileExistsError(f"job path already used: {relative_path}")
        self._files[parts] = content.encode("utf-8") if isinstance(content, str) else bytes(content)

    # -- running -------------------------------------------------------------------

    def run(
        self, command: Sequence[str], stdin: bytes = b"", on_stdout: Callable[[bytes], object] | None = None
    ) -> SandboxResult:
        if self._files is None:
            raise RuntimeError("run needs an open sandbox (use it as a context manager)")
        spec = container_spec(self.limits, self.target, self._config)
        container = self._create(spec, command)
        try:
            return self._run_container(container, stdin, on_stdout)
        finally:
            self._remove(container)

    def _create(self, spec: dict[str, object], command: Sequence[str]) -> "Container":
        assert self._client is not None  # _setup made it
        try:
            container = self._client.containers.create(command=list(command), **spec)
        except docker.errors.ImageNotFound as exc:
            raise PlatformError(
                "sandbox.image_missing",
                f"sandbox image {spec['image']!r} is not on this engine; build it (see sandbox_images/README.md)",
            ) from exc
        except (docker.errors.DockerException, requests.exceptions.RequestException) as exc:
            raise PlatformError("sandbox.create_failed", f"could not create the sandbox container: {exc}") from exc
        self._containers.append(container)
        return container

    def _run_container(
        self, container: "Container", stdin: bytes, on_stdout: Callable[[bytes], object] | None = None
    ) -> SandboxResult:
        assert self._files is not None  # run() checked it
        try:
            if not container.put_archive(self.JOB_MOUNT, job_archive(self._files)):
                raise PlatformError("sandbox.job_copy_failed", "the engine refused the job archive")
            stream = container.attach_socket(params={"stdin": 1, "stdout": 1, "stderr": 1, "stream": 1})
        except (docker.errors.DockerException, requests.exceptions.RequestException) as exc:
            raise PlatformError("sandbox.start_failed", f"could not prepare the sandbox container: {exc}") from exc
        raw_socket = _raw_socket(stream)  # closing the stream forgets it
        reader = _OutputReader(stream, int(self.limits.output_bytes), on_stdout)
        try:
            try:
                container.start()
            except (docker.errors.DockerException, requests.exceptions.RequestException) as exc:
                raise PlatformError("sandbox.start_failed", f"could not start the sandbox container: {exc}") from exc
            started = time.monotonic()
            reader.start()
            self._send_stdin(stream, stdin)
            return self._supervise(container, reader, started, raw_socket)
        finally:
            try:
                stream.close()
                raw_socket.close()
            except OSError:
                pass
            if reader.is_alive():
                reader.join(KILL_WAIT_S)

    @staticmethod
    def _send_stdin(stream: object, data: bytes) -> None:
        """Write the stdin bytes and close our write side, so the harness sees EOF after them."""
        sock = _raw_socket(stream)
        try:
            if data:
                sock.sendall(data)
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # the container is already gone; its exit status says why

    def _supervise(
        self, container: "Container", reader: _OutputReader, started: float, raw_socket: socket.socket
    ) -> SandboxResult:
        deadline = started + self.limits.wall_time_s
        timed_out = False
        finished = reader.finished.wait(max(0.0, deadline - time.monotonic()))
        if reader.output_exceeded:
            # Hang up first: the engine does not finish a kill while its copy of the
            # container's output is blocked on a stream nobody reads any more.
            self._hang_up(raw_socket)
            self._kill(container)
        elif not finished:
            timed_out = True
            self._kill(container)
        status = self._wait(container, max(0.0, deadline - time.monotonic()) + KILL_WAIT_S)
        if status is None:  # still running past the deadline (its streams closed early)
            timed_out = True
            self._kill(container)
            status = self._wait(container, KILL_WAIT_S)
        wall_s = time.monotonic() - started
        reader.join(KILL_WAIT_S)
        state = self._state(container)
        exit_code, signal_number = _decode_status(status)
        if status is None:
            signal_number = SIGKILL
        if signal_number == SIGXCPU:
            timed_out = True
        return SandboxResult(
            exit_code=exit_code,
            signal=signal_number,
            timed_out=timed_out,
            oom_killed=bool(state.get("OOMKilled")),
            output_exceeded=reader.output_exceeded,
            stdout=bytes(reader.buffers[STDOUT]),
            stderr=bytes(reader.buffers[STDERR]),
            wall_s=wall_s,
            peak_memory_bytes=None,  # the engine does not keep a peak after exit; the harness measures its own
            details={
                "backend": "docker",
                "sandbox_started": True,
                "container_id": getattr(container, "id", None),
                "image": self._config.image_for(self.target),
                "engine_error": state.get("Error") or "",
            },
        )

    @staticmethod
    def _hang_up(raw_socket: socket.socket) -> None:
        try:
            raw_socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    @staticmethod
    def _kill(container: "Container") -> None:
        try:
            container.kill()
        except (docker.errors.NotFound, docker.errors.APIError):
            pass  # already stopped (a 409 "is not running") or gone

    @staticmethod
    def _wait(container: "Container", timeout_s: float) -> int | None:
        """The exit status, or None when the container is still running after `timeout_s`."""
        try:
            return int(container.wait(timeout=timeout_s)["StatusCode"])
        except requests.exceptions.RequestException:
            return None

    @staticmethod
    def _state(container: "Container") -> dict[str, object]:
        try:
            container.reload()
            return dict(container.attrs.get("State") or {})
        except (docker.errors.DockerException, requests.exceptions.RequestException) as exc:
            logger.warning("could not read the sandbox container's state: %r", exc)
            return {}
