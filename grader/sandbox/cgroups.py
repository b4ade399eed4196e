"""Per-run control groups for the bubblewrap sandbox (cgroup v1 and v2).

A RunCgroup is created for one sandbox run when the host lets us write to the
cgroup hierarchy. It caps memory (RAM and swap), process count and CPU share,
and afterwards tells the peak memory and whether the kernel's OOM killer
fired. Each limit is best effort: `applied` says which ones took, so the
sandbox can fall back to rlimits for the rest (see docs/sandbox.md).

The new process joins the groups itself: the sandbox's preexec hook writes its
own pid into every `cgroup.procs` in `attach_paths` before it execs bwrap, so
nothing escapes the limits by forking early.
"""

import logging
import os
import re
import secrets
import signal
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Self

if TYPE_CHECKING:
    from .base import Limits

logger = logging.getLogger(__name__)

CGROUP_ROOT = Path("/sys/fs/cgroup")
RUN_CGROUP_PREFIX = "hotpath-"
CPU_PERIOD_US = 100_000
V1_CONTROLLERS = ("memory", "pids", "cpu")


def _write(path: Path | str, value: object) -> None:
    Path(path).write_text(str(value))


def _read_int(path: Path | str) -> int | None:
    try:
        return int(Path(path).read_text().strip())
    except (OSError, ValueError):
        return None


def _read_keyed(path: Path | str) -> dict[str, int]:
    """`key value` lines (memory.events, oom_control) as a dict of ints."""
    values: dict[str, int] = {}
    try:
        for line in Path(path).read_text().splitlines():
            key, _, value = line.partition(" ")
            if value.strip().lstrip("-").isdigit():
                values[key] = int(value)
    except OSError:
        pass
    return values


def own_cgroup_paths(proc_cgroup_text: str) -> dict[str, str]:
    """Maps controller name -> this process's path, from /proc/self/cgroup.
    The unified (v2) hierarchy is under the key ''."""
    paths: dict[str, str] = {}
    for line in proc_cgroup_text.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        for controller in controllers.split(",") if controllers else [""]:
            paths[controller] = path
    return paths


class RunCgroup:
    """Interface shared by the v1 and v2 implementations."""

    version: int | None = None

    def __init__(self) -> None:
        self.applied: set[str] = set()  # subset of {"memory", "pids", "cpu"}
        self.attach_paths: list[str] = []  # cgroup.procs files the child writes its pid into

    def peak_memory_bytes(self) -> int | None:
        raise NotImplementedError

    def oom_killed(self) -> bool:
        raise NotImplementedError

    def pids(self) -> set[int]:
        raise NotImplementedError

    def kill_all(self, timeout_s: float = 5.0) -> bool:
        """SIGKILL every process in the group until it is empty."""
        deadline = time.monotonic() + timeout_s
        while True:
            remaining = self.pids()
            if not remaining:
                return True
            for pid in remaining:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            if time.monotonic() > deadline:
                logger.error("cgroup still holds pids %s after SIGKILL", sorted(remaining))
                return False
            time.sleep(0.02)

    def remove(self) -> None:
        raise NotImplementedError


class CgroupV1(RunCgroup):
    version = 1

    def __init__(self, root: Path | str, own_paths: Mapping[str, str], name: str) -> None:
        super().__init__()
        self.dirs: dict[str, Path] = {}  # controller -> created directory
        for controller in V1_CONTROLLERS:
            mount = Path(root) / controller
            if controller not in own_paths or not mount.is_dir():
                continue
            directory = mount / own_paths[controller].lstrip("/") / name
            try:
                directory.mkdir()
            except OSError as exc:
                logger.debug("cgroup v1 %s not writable: %s", controller, exc)
                continue
            self.dirs[controller] = directory
            self.attach_paths.append(str(directory / "cgroup.procs"))

    def apply(self, limits: "Limits") -> Self:
        memory = self.dirs.get("memory")
        if memory:
            try:
                _write(memory / "memory.limit_in_bytes", limits.memory_bytes)
                swap_file = memory / "memory.memsw.limit_in_bytes"
                if swap_file.exists():  # RAM + swap: without it the limit just pushes pages to swap
                    _write(swap_file, limits.memory_bytes)
                self.applied.add("memory")
            except OSError as exc:
                logger.warning("could not set the cgroup memory limit: %s", exc)
        pids = self.dirs.get("pids")
        if pids:
            try:
                _write(pids / "pids.max", limits.processes)
                self.applied.add("pids")
            except OSError as exc:
                logger.warning("could not set the cgroup pids limit: %s", exc)
        cpu = self.dirs.get("cpu")
        if cpu:
            try:
                _write(cpu / "cpu.cfs_period_us", CPU_PERIOD_US)
                _write(cpu / "cpu.cfs_quota_us", max(1000, int(limits.cpu_quota * CPU_PERIOD_US)))
                self.applied.add("cpu")
            except OSError as exc:
                logger.warning("could not set the cgroup CPU quota: %s", exc)
        return self

    def peak_memory_bytes(self) -> int | None:
        memory = self.dirs.get("memory")
        return _read_int(memory / "memory.max_usage_in_bytes") if memory else None

    def oom_killed(self) -> bool:
        memory = self.dirs.get("memory")
        if not memory:
            return False
        oom_control = _read_keyed(memory / "memory.oom_control")
        if "oom_kill" in oom_control:  # kernels >= 4.13 count kills
            return oom_control["oom_kill"] > 0
        return (_read_int(memory / "memory.failcnt") or 0) > 0

    def pids(self) -> set[int]:
        found: set[int] = set()
        for directory in self.dirs.values():
            try:
                found.update(int(line) for line in (directory / "cgroup.procs").read_text().split())
            except OSError:
                pass
        return found

    def remove(self) -> None:
        for directory in self.dirs.values():
            try:
                directory.rmdir()
            except FileNotFoundError:
                pass
            except OSError as exc:
                logger.error("could not remove cgroup %s: %s", directory, exc)


class CgroupV2(RunCgroup):
    version = 2

    def __init__(self, root: Path | str, own_path: str, name: str) -> None:
        super().__init__()
        self.directory: Path | None = None
        parent = Path(root) / own_path.lstrip("/")
        self._enable_controllers(parent)
        directory = parent / name
        try:
            directory.mkdir()
        except OSError as exc:
            logger.debug("cgroup v2 not writable: %s", exc)
            return
        self.directory = directory
        self.attach_paths.append(str(directory / "cgroup.procs"))

    @staticmethod
    def _enable_controllers(parent: Path) -> None:
        try:
            enabled = set((parent / "cgroup.subtree_control").read_text().split())
            available = set((parent / "cgroup.controllers").read_text().split())
        except OSError:
            return
        for controller in ("memory", "pids", "cpu"):
            if controller in available and controller not in enabled:
                try:
                    _write(parent / "cgroup.subtree_control", f"+{controller}")
                except OSError as exc:  # e.g. the parent holds processes itself
                    logger.debug("cannot enable %s in %s: %s", controller, parent, exc)

    def apply(self, limits: "Limits") -> Self:
        if not self.directory:
            return self
        settings = {
            "memory": ("memory.max", limits.memory_bytes),
            "pids": ("pids.max", limits.processes),
            "cpu": ("cpu.max", f"{max(1000, int(limits.cpu_quota * CPU_PERIOD_US))} {CPU_PERIOD_US}"),
        }
        for controller, (filename, value) in settings.items():
            try:
                _write(self.directory / filename, value)
                self.applied.add(controller)
            except OSError as exc:
                logger.warning("could not set cgroup v2 %s limit: %s", controller, exc)
        swap = self.directory / "memory.swap.max"
        if "memory" in self.applied and swap.exists():  # no swap: the limit must mean RAM
            try:
                _write(swap, 0)
            except OSError as exc:
                logger.warning("could not disable swap for the cgroup: %s", exc)
        return self

    def peak_memory_bytes(self) -> int | None:
        return _read_int(self.directory / "memory.peak") if self.directory else None

    def oom_killed(self) -> bool:
        if not self.directory:
            return False
        return _read_keyed(self.directory / "memory.events").get("oom_kill", 0) > 0

    def pids(self) -> set[int]:
        if not self.directory:
            return set()
        try:
            return {int(line) for line in (self.directory / "cgroup.procs").read_text().split()}
        except OSError:
            return set()

    def kill_all(self, timeout_s: float = 5.0) -> bool:
        if self.directory and (self.directory / "cgroup.kill").exists():
            try:
                _write(self.directory / "cgroup.kill", 1)
            except OSError:
                pass
        return super().kill_all(timeout_s)

    def remove(self) -> None:
        if not self.directory:
            return
        try:
            self.directory.rmdir()
        except FileNotFoundError:
            pass
        except OSError as exc:
            logger.error("could not remove cgroup %s: %s", self.directory, exc)


def create_run_cgroup(
    limits: "Limits", root: Path | str = CGROUP_ROOT, proc_cgroup_path: str = "/proc/self/cgroup"
) -> RunCgroup | None:
    """A RunCgroup with as many limits applied as the host allows, or None
    when no hierarchy is writable (the sandbox then relies on rlimits)."""
    try:
        own_paths = own_cgroup_paths(Path(proc_cgroup_path).read_text())
    except OSError:
        return None
    # The creator's pid in the name lets remove_stale_cgroups tell a dead worker's leftovers from a live run.
    name = f"{RUN_CGROUP_PREFIX}{os.getpid()}-{secrets.token_hex(8)}"
    root = Path(root)
    group: CgroupV1 | CgroupV2
    if (root / "cgroup.controllers").exists():
        group = CgroupV2(root, own_paths.get("", "/"), name)
    else:
        group = CgroupV1(root, own_paths, name)
    if not group.attach_paths:
        return None
    return group.apply(limits)


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def creator_pid(name: str, prefix: str) -> int | None:
    """The pid in `<prefix><pid>-<random>`, or None for names that do not match."""
    match = re.fullmatch(re.escape(prefix) + r"(\d+)-[0-9a-z_]+", name)
    return int(match.group(1)) if match else None


def remove_stale_cgroups(root: Path | str = CGROUP_ROOT, proc_cgroup_path: str = "/proc/self/cgroup") -> int:
    """Kill and remove run cgroups whose creating worker died (a SIGKILLed worker
    never reaches its clean-up). Returns how many directories were removed."""
    try:
        own_paths = own_cgroup_paths(Path(proc_cgroup_path).read_text())
    except OSError:
        return 0
    root = Path(root)
    if (root / "cgroup.controllers").exists():
        parents = [root / own_paths.get("", "/").lstrip("/")]
    else:
        parents = [
            root / controller / own_paths[controller].lstrip("/")
            for controller in V1_CONTROLLERS
            if controller in own_paths
        ]
    removed = 0
    for parent in parents:
        try:
            children = list(parent.iterdir())
        except OSError:
            continue
        for directory in children:
            pid = creator_pid(directory.name, RUN_CGROUP_PREFIX)
            if pid is None or not directory.is_dir() or pid_alive(pid):
                continue
            removed += _kill_and_remove(directory)
    return removed


def _kill_and_remove(directory: Path) -> int:
    for _ in range(50):
        try:
            pids = [int(line) for line in (directory / "cgroup.procs").read_text().split()]
        except OSError:
            pids = []
        if not pids:
            break
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.02)
    try:
        directory.rmdir()
    except OSError as exc:
        logger.error("could not remove stale cgroup %s: %s", directory, exc)
        return 0
    logger.warning("removed stale sandbox cgroup %s", directory)
    return 1
