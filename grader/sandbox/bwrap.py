"""The CPU sandbox: bubblewrap, plus cgroups (or rlimits) for the limits.

Layers, outermost first (docs/sandbox.md has the long version):
1. bwrap runs as the unprivileged host user 65534 whenever everything it must
   bind is reachable by that user; otherwise as the worker's own user.
2. New user, pid, network, ipc, uts and cgroup namespaces; no capabilities;
   uid/gid 65534 inside; no nested user namespaces; an empty environment;
   the command is the pid namespace's init (--as-pid-1); a seccomp filter
   (grader/harness/syscalls.py) on every process.
3. A filesystem of read-only binds: /usr (and the /bin, /lib... links), the
   Python install and the virtualenv, /etc/ld.so.cache. The job directory is
   read-only at /job; a size-capped tmpfs at /tmp is the only writable place.
4. A cgroup per run (memory incl. swap, pids, CPU quota) when the hierarchy is
   writable; rlimits otherwise. RLIMIT_CPU, RLIMIT_FSIZE and RLIMIT_CORE always.
5. The host enforces wall time and output caps and kills the whole tree.
"""

import ctypes
import json
import logging
import os
import resource
import select
import selectors
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypedDict

from grader.errors import PlatformError

from . import seccomp
from .base import SANDBOX_MEMORY_ENV, SANDBOX_THREAD_ENV, Limits, Sandbox, SandboxResult, pass_on_stdout
from .cgroups import RunCgroup, create_run_cgroup, creator_pid, pid_alive, remove_stale_cgroups

logger = logging.getLogger(__name__)

SANDBOX_UID = 65534  # "nobody", inside the sandbox and (when possible) on the host
SANDBOX_GID = 65534
#: Top-level paths that are symlinks into /usr on merged-/usr systems, directories elsewhere.
ROOT_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
#: The only files from /etc the sandbox sees: the dynamic linker's cache and the time zone.
ETC_FILES = ("/etc/ld.so.cache", "/etc/localtime")
#: Without a memory cgroup, RLIMIT_AS stands in for the memory limit. Address space
#: exceeds resident memory (LLVM, BLAS and the allocator reserve more than they touch),
#: so the cap gets this much headroom above the limit.
ADDRESS_SPACE_HEADROOM_BYTES = 512 * 1024**2
READ_CHUNK = 65536
KILL_WAIT_S = 5.0
JOB_DIR_PREFIX = "hotpath-job-"
PR_SET_PDEATHSIG = 1

#: resource.setrlimit's (which, (soft, hard)) pairs.
Rlimits = list[tuple[int, tuple[int, int]]]


class Streams(TypedDict):
    """What BwrapSandbox._pump read and saw."""

    stdout: bytes
    stderr: bytes
    timed_out: bool
    output_exceeded: bool
    started: bool


class Launched:
    """A bwrap process and a pidfd for the sandbox's pid 1 (None until bwrap's
    info pipe names it, or when it cannot be opened)."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self.child_pidfd: int | None = None


def _reachable_by_others(path: str | Path) -> bool:
    """True when a user with no special rights can reach and read `path`."""
    path = Path(path)
    try:
        for directory in [path, *path.parents]:
            if not os.stat(directory).st_mode & stat.S_IXOTH:
                return False
        return bool(os.stat(path).st_mode & stat.S_IROTH)
    except OSError:
        return False


def _processes_of(uid: int) -> int:
    """How many processes the real uid `uid` runs now (for RLIMIT_NPROC)."""
    count = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/status", "rb") as status:
                for line in status:
                    if line.startswith(b"Uid:"):
                        count += int(line.split()[1]) == uid
                        break
        except OSError:
            continue
    return count


def python_binds() -> list[tuple[str, str]]:
    """(host path, sandbox path) pairs for the interpreter and the virtualenv,
    mounted where the host has them so the venv's absolute links still work."""
    binds: list[tuple[str, str]] = []
    for prefix in (sys.base_prefix, sys.prefix):
        real = os.path.realpath(prefix)
        if real == "/usr" or real.startswith("/usr/"):
            continue  # inside the /usr bind already
        if any(real == host or real.startswith(host + "/") for host, _ in binds):
            continue
        binds.append((real, prefix))
    return binds


def _safe_parts(relative_path: str) -> tuple[str, ...]:
    """The components of a job-relative path, refusing anything that could
    point outside the job directory."""
    text = str(relative_path)
    if not text or "\0" in text or text.startswith("/") or "\\" in text:
        raise ValueError(f"Not a safe relative job path: {text!r}")
    parts = tuple(text.split("/"))
    if any(part in ("", ".", "..") for part in parts):
        raise ValueError(f"Not a safe relative job path: {text!r}")
    return parts


def _decode_status(status: int) -> tuple[int | None, int | None]:
    """(exit_code, signal) from a wait status, reading bwrap's 128+N convention
    (it exits that way when the sandboxed command dies of signal N)."""
    if os.WIFSIGNALED(status):
        return None, os.WTERMSIG(status)
    code = os.WEXITSTATUS(status)
    if 128 < code <= 128 + 64:
        return None, code - 128
    return code, None


class BwrapSandbox(Sandbox):
    """See the module docstring. Use as a context manager; `run` may be called
    more than once, each run in fresh namespaces and a fresh cgroup."""

    def __init__(self, limits: Limits | None = None, target: str = "cpu", use_cgroups: bool = True) -> None:
        super().__init__(limits, target)
        self.use_cgroups = use_cgroups
        self.job_dir: str | None = None
        self._job_fd: int | None = None
        self._groups: list[RunCgroup] = []
        self._processes: list[Launched] = []

    # -- lifecycle -----------------------------------------------------------------

    def _setup(self) -> None:
        if self.target != "cpu":
            raise PlatformError(
                "sandbox.target_unsupported", f"the bwrap sandbox runs CPU jobs only, not {self.target!r}"
            )
        if shutil.which("bwrap") is None:
            raise PlatformError("sandbox.bwrap_missing", "bubblewrap (bwrap) is not installed on this worker")
        try:
            # The creator's pid in the name lets remove_stale() tell a dead worker's leftovers from a live run.
            self.job_dir = tempfile.mkdtemp(prefix=f"{JOB_DIR_PREFIX}{os.getpid()}-")
            os.chmod(self.job_dir, 0o755)  # bwrap may run as nobody and must read it
            self._job_fd = os.open(self.job_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError as exc:
            self._cleanup()
            raise PlatformError("sandbox.job_dir", f"cannot create the job directory: {exc}") from exc

    @classmethod
    def remove_stale(cls) -> int:
        """Remove what sandboxes of dead workers left behind: a worker killed by SIGKILL
        never runs _cleanup, so its job directories and run cgroups stay. Safe while
        other workers run: only leftovers whose creating process is gone are touched."""
        removed = remove_stale_cgroups()
        for entry in os.scandir(tempfile.gettempdir()):
            pid = creator_pid(entry.name, JOB_DIR_PREFIX)
            if pid is None or pid_alive(pid) or not entry.is_dir(follow_symlinks=False):
                continue
            shutil.rmtree(entry.path, ignore_errors=True)
            logger.warning("removed stale sandbox job directory %s", entry.path)
            removed += 1
        return removed

    def _cleanup(self) -> None:
        errors: list[Exception] = []
        for launched in self._processes:
            process, child_pidfd = launched.process, launched.child_pidfd
            try:
                if process.returncode is None:
                    self._kill_tree(process, child_pidfd, None)
                    self._reap(process, time.monotonic() + KILL_WAIT_S)
                self._wait_gone(child_pidfd)
            except Exception as exc:  # keep cleaning up the rest
                errors.append(exc)
            finally:
                if child_pidfd is not None:
                    os.close(child_pidfd)
        for group in self._groups:
            try:
                group.kill_all()
                group.remove()
            except Exception as exc:
                errors.append(exc)
        self._processes, self._groups = [], []
        if self._job_fd is not None:
            os.close(self._job_fd)
            self._job_fd = None
        if self.job_dir:
            shutil.rmtree(self.job_dir, ignore_errors=True)
            self.job_dir = None
        for error in errors:
            logger.error("sandbox cleanup problem: %r", error)

    # -- job files -----------------------------------------------------------------

    def write_file(self, relative_path: str, content: str | bytes) -> None:
        """Create a new file under the job directory. Never follows a symlink and
        never overwrites (O_NOFOLLOW | O_EXCL on every component)."""
        if self._job_fd is None:
            raise RuntimeError("write_file needs an open sandbox (use it as a context manager)")
        parts = _safe_parts(relative_path)
        data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
        directory_fd = self._job_fd
        try:
            for part in parts[:-1]:
                try:
                    os.mkdir(part, 0o755, dir_fd=directory_fd)
                except FileExistsError:
                    pass
                next_fd = os.open(
                    part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=directory_fd
                )
                os.fchmod(next_fd, 0o755)
                if directory_fd != self._job_fd:
                    os.close(directory_fd)
                directory_fd = next_fd
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
            file_fd = os.open(parts[-1], flags, 0o644, dir_fd=directory_fd)
            try:
                os.fchmod(file_fd, 0o644)
                view = memoryview(data)
                while view:
                    view = view[os.write(file_fd, view) :]
            finally:
                os.close(file_fd)
        finally:
            if directory_fd != self._job_fd:
                os.close(directory_fd)

    # -- running -------------------------------------------------------------------

    def _environment(self) -> dict[str, str]:
        threads = str(max(1, int(self.limits.cpus)))
        path_dirs = [f"{sys.prefix}/bin", f"{sys.base_prefix}/bin", "/usr/local/bin", "/usr/bin", "/bin"]
        env = {
            "PATH": ":".join(dict.fromkeys(path_dirs)),
            "HOME": "/tmp",
            "LANG": "C.UTF-8",
            "PYTHONDONTWRITEBYTECODE": "1",
            "NUMBA_CACHE_DIR": "/tmp/numba",
            **SANDBOX_MEMORY_ENV,
            **SANDBOX_THREAD_ENV,
        }
        for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
            env[name] = threads
        return env

    def _bwrap_argv(self, command: Sequence[str], info_fd: int, seccomp_fd: int) -> list[str]:
        assert self.job_dir is not None  # run() needs an open sandbox, whose _setup made it
        # --as-pid-1: the command (the harness supervisor) is the pid namespace's init, with no
        # bubblewrap process beside it. Every orphan in the sandbox is then its child, and the
        # kernel drops any signal sent to it from inside the namespace that it has no handler for.
        argv = ["bwrap", "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--new-session"]
        argv += ["--as-pid-1", "--seccomp", str(seccomp_fd), "--info-fd", str(info_fd), "--clearenv"]
        for name, value in self._environment().items():
            argv += ["--setenv", name, value]
        argv += ["--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_GID), "--cap-drop", "ALL"]
        argv += ["--ro-bind", "/usr", "/usr"]
        for link in ROOT_LINKS:
            if os.path.islink(link):
                argv += ["--symlink", os.readlink(link), link]
            elif os.path.isdir(link):
                argv += ["--ro-bind", link, link]
        for path in ETC_FILES:
            argv += ["--ro-bind-try", path, path]
        argv += ["--proc", "/proc", "--dev", "/dev"]
        # bwrap's /dev comes with a writable /dev/shm outside every size cap; nothing needs it
        # (the harness passes arrays through /tmp), so it becomes a tiny read-only tmpfs.
        argv += ["--size", "4096", "--perms", "0555", "--tmpfs", "/dev/shm"]
        argv += ["--size", str(int(self.limits.disk_bytes)), "--tmpfs", "/tmp"]
        # After the tmpfs, so a Python install or venv that lives under /tmp on the host
        # (a CI checkout, say) is bound over the tmpfs instead of hidden by it.
        for host_path, sandbox_path in python_binds():
            argv += ["--ro-bind", host_path, sandbox_path]
        argv += ["--ro-bind", self.job_dir, self.JOB_MOUNT]
        # bwrap builds the root on a tmpfs of its own: once everything is mounted, make it read-only too.
        argv += ["--remount-ro", "/", "--chdir", "/tmp", "--hostname", "sandbox", "--"]
        return argv + list(command)

    def _run_as(self) -> tuple[int, int] | None:
        """Host uid/gid for bwrap: nobody when we are root and nobody can reach
        every bind source (so even an escape lands unprivileged), else None."""
        if os.geteuid() != 0:
            return None
        assert self.job_dir is not None  # run() needs an open sandbox, whose _setup made it
        sources = ["/usr", self.job_dir] + [host for host, _ in python_binds()]
        if all(_reachable_by_others(path) for path in sources):
            return SANDBOX_UID, SANDBOX_GID
        return None

    def _rlimits(self, group: RunCgroup | None, run_as: tuple[int, int] | None) -> Rlimits:
        applied = group.applied if group else set()
        cpu_s = max(1, int(self.limits.cpu_time_s))
        rlimits = [
            (resource.RLIMIT_CORE, (0, 0)),
            (resource.RLIMIT_CPU, (cpu_s, cpu_s + 1)),  # SIGXCPU, then SIGKILL a second later
            (resource.RLIMIT_FSIZE, (int(self.limits.disk_bytes), int(self.limits.disk_bytes))),
        ]
        if "memory" not in applied:
            cap = int(self.limits.memory_bytes) + ADDRESS_SPACE_HEADROOM_BYTES
            rlimits.append((resource.RLIMIT_AS, (cap, cap)))
        if "pids" not in applied:
            # RLIMIT_NPROC counts every process of the real uid, so the cap is what
            # that uid runs now plus the sandbox's allowance.
            uid = run_as[0] if run_as else os.getuid()
            cap = _processes_of(uid) + int(self.limits.processes)
            rlimits.append((resource.RLIMIT_NPROC, (cap, cap)))
        return rlimits

    @staticmethod
    def _preexec(attach_paths: Sequence[str], rlimits: Rlimits, run_as: tuple[int, int] | None) -> Callable[[], None]:
        """Runs in the child between fork and exec: only plain system calls."""
        encoded_paths = [os.fsencode(path) for path in attach_paths]

        def enter_sandbox_limits() -> None:
            pid = str(os.getpid()).encode()
            for path in encoded_paths:
                fd = os.open(path, os.O_WRONLY)
                try:
                    os.write(fd, pid)
                finally:
                    os.close(fd)
            for which, values in rlimits:
                resource.setrlimit(which, values)
            if run_as is not None:
                os.setgroups([])
                os.setgid(run_as[1])
                os.setuid(run_as[0])
            # After setuid (a change of credentials clears it): if the worker dies, even by
            # SIGKILL, bwrap dies with it, and --die-with-parent takes the sandbox down too.
            if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0 or os.getppid() != parent_pid:
                os._exit(127)

        parent_pid = os.getpid()
        libc = ctypes.CDLL(None, use_errno=True)
        return enter_sandbox_limits

    def run(
        self, command: Sequence[str], stdin: bytes = b"", on_stdout: Callable[[bytes], object] | None = None
    ) -> SandboxResult:
        if self._job_fd is None:
            raise RuntimeError("run needs an open sandbox (use it as a context manager)")
        limits = self.limits
        group = create_run_cgroup(limits) if self.use_cgroups else None
        if group:
            self._groups.append(group)
        run_as = self._run_as()
        if run_as is None and os.geteuid() == 0 and not (group and "pids" in group.applied):
            # The kernel exempts uid 0 from RLIMIT_NPROC, so nothing would stop a fork bomb.
            raise PlatformError(
                "sandbox.no_process_limit",
                "bwrap has to run as root here (nobody cannot read the Python install) and no pids cgroup is "
                "writable, so the process limit cannot be enforced; make the Python install world-readable or "
                "the cgroup hierarchy writable",
            )
        info_read, info_write = os.pipe()
        seccomp_fd = seccomp.bpf_fd()
        try:
            process = subprocess.Popen(
                self._bwrap_argv(command, info_write, seccomp_fd),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                pass_fds=(info_write, seccomp_fd),
                cwd="/",
                env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
                start_new_session=True,
                preexec_fn=self._preexec(group.attach_paths if group else [], self._rlimits(group, run_as), run_as),
            )
        except FileNotFoundError as exc:
            os.close(info_read)
            raise PlatformError("sandbox.bwrap_missing", str(exc)) from exc
        except (OSError, subprocess.SubprocessError) as exc:
            os.close(info_read)
            raise PlatformError("sandbox.start_failed", f"could not start bwrap: {exc}") from exc
        finally:
            os.close(info_write)
            os.close(seccomp_fd)
        started = time.monotonic()
        deadline = started + limits.wall_time_s
        entry = Launched(process)
        self._processes.append(entry)
        streams = self._pump(process, info_read, stdin, deadline, entry, on_stdout)
        timed_out = streams["timed_out"]
        if timed_out or streams["output_exceeded"]:
            self._kill_tree(process, entry.child_pidfd, group)
        status, rusage = self._reap(process, deadline if not timed_out else time.monotonic() + KILL_WAIT_S)
        if status is None:  # still alive at the deadline
            timed_out = True
            self._kill_tree(process, entry.child_pidfd, group)
            status, rusage = self._reap(process, time.monotonic() + KILL_WAIT_S)
        wall_s = time.monotonic() - started
        if group:
            group.kill_all()  # anything left in the cgroup outlived the run: gone
        self._wait_gone(entry.child_pidfd)
        exit_code, signal_number = _decode_status(status) if status is not None else (None, signal.SIGKILL)
        if signal_number == signal.SIGXCPU:
            timed_out = True
        peak = group.peak_memory_bytes() if group and "memory" in group.applied else None
        if peak is None and rusage is not None:
            peak = rusage.ru_maxrss * 1024  # largest single process in the tree, KiB on Linux
        return SandboxResult(
            exit_code=exit_code,
            signal=signal_number,
            timed_out=timed_out,
            oom_killed=bool(group and group.oom_killed()),
            output_exceeded=streams["output_exceeded"],
            stdout=streams["stdout"],
            stderr=streams["stderr"],
            wall_s=wall_s,
            peak_memory_bytes=peak,
            details={
                "backend": "bwrap",
                "cgroup_version": group.version if group else None,
                "cgroup_limits": sorted(group.applied) if group else [],
                "host_uid": run_as[0] if run_as else os.geteuid(),
                "sandbox_started": streams["started"],
                "bwrap_error": "" if streams["started"] else streams["stderr"][:500].decode("utf-8", "replace"),
            },
        )

    def _pump(
        self,
        process: subprocess.Popen[bytes],
        info_read: int,
        stdin: bytes,
        deadline: float,
        entry: Launched,
        on_stdout: Callable[[bytes], object] | None = None,
    ) -> Streams:
        """Feeds stdin and reads stdout, stderr and bwrap's info pipe together
        until all close, the deadline passes or an output cap is exceeded."""
        # run() opened all three as pipes
        assert process.stdin is not None and process.stdout is not None and process.stderr is not None
        cap = int(self.limits.output_bytes)
        selector = selectors.DefaultSelector()
        buffers = {process.stdout.fileno(): bytearray(), process.stderr.fileno(): bytearray()}
        info = bytearray()
        for fd in buffers:
            selector.register(fd, selectors.EVENT_READ)
        selector.register(info_read, selectors.EVENT_READ)
        pending = memoryview(stdin or b"")
        stdin_fd = process.stdin.fileno()
        if pending:
            os.set_blocking(stdin_fd, False)
            selector.register(stdin_fd, selectors.EVENT_WRITE)
        else:
            process.stdin.close()
        timed_out = output_exceeded = False
        try:
            while selector.get_map() and not output_exceeded:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    timed_out = True
                    break
                for key, _ in selector.select(timeout=min(remaining, 0.5)):
                    fd = key.fd
                    if fd == stdin_fd:
                        try:
                            pending = pending[os.write(fd, pending) :]
                        except (BrokenPipeError, BlockingIOError) as exc:
                            if isinstance(exc, BlockingIOError):
                                continue
                            pending = memoryview(b"")
                        if not pending:
                            selector.unregister(fd)
                            process.stdin.close()
                        continue
                    chunk = os.read(fd, READ_CHUNK)
                    if not chunk:
                        selector.unregister(fd)
                        if fd == info_read:
                            entry.child_pidfd = self._open_child_pidfd(process, info)
                        continue
                    if fd == info_read:
                        info += chunk
                        continue
                    if on_stdout is not None and fd == process.stdout.fileno():
                        pass_on_stdout(on_stdout, chunk)
                    buffer = buffers[fd]
                    room = cap - len(buffer)
                    if len(chunk) > room:
                        buffer += chunk[: max(room, 0)]
                        output_exceeded = True
                    else:
                        buffer += chunk
        finally:
            selector.close()
            os.close(info_read)
            if not process.stdin.closed:
                process.stdin.close()
        return {
            "stdout": bytes(buffers[process.stdout.fileno()]),
            "stderr": bytes(buffers[process.stderr.fileno()]),
            "timed_out": timed_out,
            "output_exceeded": output_exceeded,
            "started": bool(info),  # bwrap writes its info JSON once the sandbox is set up
        }

    @staticmethod
    def _open_child_pidfd(process: subprocess.Popen[bytes], info: bytearray) -> int | None:
        """A pidfd for the sandbox's pid 1 (its host pid comes in bwrap's --info-fd
        JSON), so later kills cannot hit a recycled pid. Only trusted while bwrap
        is still running: until bwrap reaps it, that pid cannot be reused."""
        try:
            child_pid = int(json.loads(info.decode("utf-8"))["child-pid"])
            pidfd = os.pidfd_open(child_pid)
        except (ValueError, KeyError, TypeError, OSError):
            return None
        try:
            bwrap_state = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            bwrap_state = "X"
        if bwrap_state in ("Z", "X"):
            os.close(pidfd)
            return None
        return pidfd

    @staticmethod
    def _kill_tree(process: subprocess.Popen[bytes], child_pidfd: int | None, group: RunCgroup | None) -> None:
        """Kill bwrap's process group, the sandbox's pid 1 (the kernel then kills
        every process in its pid namespace) and whatever is in the cgroup."""
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if child_pidfd is not None:
            try:
                signal.pidfd_send_signal(child_pidfd, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if group:
            group.kill_all()

    @staticmethod
    def _reap(process: subprocess.Popen[bytes], deadline: float) -> tuple[int | None, resource.struct_rusage | None]:
        """Waits for bwrap until `deadline`: (wait status, rusage) or (None, None)."""
        while True:
            try:
                pid, status, rusage = os.wait4(process.pid, os.WNOHANG)
            except ChildProcessError:
                return (0 if process.returncode == 0 else None), None
            if pid == process.pid:
                process.returncode = os.waitstatus_to_exitcode(status)
                return status, rusage
            if time.monotonic() >= deadline:
                return None, None
            time.sleep(0.005)

    @staticmethod
    def _wait_gone(child_pidfd: int | None, timeout_s: float = KILL_WAIT_S) -> None:
        """Makes sure the sandbox's pid 1 (and so its whole pid namespace) has
        exited. A pidfd turns readable once its process has exited."""
        if child_pidfd is None:
            return
        poller = select.poll()
        poller.register(child_pidfd, select.POLLIN)
        if poller.poll(0):
            return
        try:
            signal.pidfd_send_signal(child_pidfd, signal.SIGKILL)
        except ProcessLookupError:
            return
        if not poller.poll(timeout_s * 1000):
            logger.error("the sandbox's pid 1 survived SIGKILL for %ss", timeout_s)
