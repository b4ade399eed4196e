"""The bubblewrap backend's cgroup v2 code against the kernel, not fake folders.

Our machines boot with cgroup v1, but root can still mount the unified (v2)
hierarchy beside it. There, only the controllers no v1 hierarchy holds are
available (on our hosts: hugetlb; memory, pids and cpu stay bound to v1), so
this covers what v2 does without them: creating the run's group through
create_run_cgroup, attaching a process, listing it, cgroup.kill, removing the
group, the stale-group sweep, and applying limits only where the controller
exists. memory.max, pids.max, cpu.max, memory.peak, memory.events (oom_kill) and
memory.swap.max are checked against fake folders only (tests/grader/test_cgroups.py)
unless this host has those controllers in v2, in which case they are checked here too.
"""

import os
import subprocess
import time

import pytest

from grader.sandbox import cgroups
from grader.sandbox.base import Limits

LIMITS = Limits(
    wall_time_s=5, cpu_time_s=5, memory_bytes=256 * 1024**2, processes=16, output_bytes=4096, disk_bytes=4 * 1024**2
)


@pytest.fixture
def cgroup2(tmp_path):
    """(mount point, the file /proc/self/cgroup would be there): a cgroup2 mount of our own."""
    if os.geteuid() != 0:
        pytest.skip("mounting cgroup2 needs root")
    mount = tmp_path / "cgroup2"
    mount.mkdir()
    mounted = subprocess.run(["mount", "-t", "cgroup2", "none", str(mount)], capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount cgroup2 here: {mounted.stderr.strip()}")
    own_path = cgroups.own_cgroup_paths(open("/proc/self/cgroup").read()).get("", "/")
    proc_cgroup = tmp_path / "proc-self-cgroup"
    proc_cgroup.write_text(f"0::{own_path}\n")
    yield mount, proc_cgroup, mount / own_path.lstrip("/")
    subprocess.run(["umount", "--lazy", str(mount)], check=False)


def test_run_group_attach_list_kill_and_remove(cgroup2):
    mount, proc_cgroup, parent = cgroup2
    group = cgroups.create_run_cgroup(LIMITS, root=mount, proc_cgroup_path=proc_cgroup)
    assert isinstance(group, cgroups.CgroupV2) and group.directory.parent == parent
    available = set((parent / "cgroup.controllers").read_text().split())
    assert group.applied == available & {"memory", "pids", "cpu"}, (
        "a limit was reported that the kernel does not enforce"
    )
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        (group.directory / "cgroup.procs").write_text(str(sleeper.pid))
        assert group.pids() == {sleeper.pid}
        assert group.kill_all(timeout_s=5)
        assert sleeper.wait(5) == -9
        assert group.pids() == set()
    finally:
        sleeper.kill()
        sleeper.wait()
    group.remove()
    assert not group.directory.exists()


def test_memory_pids_and_cpu_limits_where_v2_has_the_controllers(cgroup2):
    mount, proc_cgroup, parent = cgroup2
    available = set((parent / "cgroup.controllers").read_text().split())
    if not {"memory", "pids"} <= available:
        pytest.skip(f"memory and pids are bound to cgroup v1 on this host (v2 offers: {sorted(available) or 'none'})")
    group = cgroups.create_run_cgroup(LIMITS, root=mount, proc_cgroup_path=proc_cgroup)
    try:
        assert {"memory", "pids"} <= group.applied
        hog = subprocess.Popen(["python3", "-c", "import time; time.sleep(0.5); b = bytearray(512 * 1024**2)"])
        (group.directory / "cgroup.procs").write_text(str(hog.pid))
        assert hog.wait(30) != 0
        assert group.oom_killed()
        assert group.peak_memory_bytes() <= LIMITS.memory_bytes
    finally:
        group.kill_all()
        group.remove()


def test_stale_group_of_a_dead_worker_is_swept(cgroup2):
    mount, proc_cgroup, parent = cgroup2
    worker = subprocess.Popen(["sleep", "60"])
    stale = parent / f"{cgroups.RUN_CGROUP_PREFIX}{worker.pid}-{os.urandom(4).hex()}"
    stale.mkdir()
    left_running = subprocess.Popen(["sleep", "60"])
    (stale / "cgroup.procs").write_text(str(left_running.pid))
    worker.kill()
    worker.wait()
    try:
        deadline = time.monotonic() + 5
        while cgroups.pid_alive(worker.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert cgroups.remove_stale_cgroups(root=mount, proc_cgroup_path=proc_cgroup) >= 1
        assert not stale.exists()
        assert left_running.wait(5) == -9
    finally:
        left_running.kill()
        left_running.wait()
