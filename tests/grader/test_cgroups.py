"""The cgroup bookkeeping against fake hierarchies (plain directories), so both
versions are checked on any machine; test_sandbox.py covers the real kernel."""

from grader.sandbox.base import Limits
from grader.sandbox.cgroups import CgroupV1, CgroupV2, create_run_cgroup, own_cgroup_paths

LIMITS = Limits(memory_bytes=256 * 1024**2, processes=16, cpus=1.5)
PROC_CGROUP_V1 = "9:name=systemd:/\n8:pids:/\n4:memory:/svc/worker\n1:cpu,cpuacct:/\n0::/\n"


def test_own_cgroup_paths_splits_joined_controllers():
    paths = own_cgroup_paths(PROC_CGROUP_V1)
    assert paths["memory"] == "/svc/worker" and paths["cpu"] == "/" and paths["cpuacct"] == "/" and paths[""] == "/"


def test_v1_creates_groups_and_writes_limits(tmp_path):
    for controller, own in (("memory", "svc/worker"), ("pids", ""), ("cpu", "")):
        (tmp_path / controller / own).mkdir(parents=True, exist_ok=True)
    (tmp_path / "memory/svc/worker/x").mkdir()  # unrelated sibling
    proc = tmp_path / "proc_cgroup"
    proc.write_text(PROC_CGROUP_V1)
    group = create_run_cgroup(LIMITS, root=tmp_path, proc_cgroup_path=proc)
    assert isinstance(group, CgroupV1)
    memory = group.dirs["memory"]
    assert memory.parent == tmp_path / "memory/svc/worker"
    assert (memory / "memory.limit_in_bytes").read_text() == str(256 * 1024**2)
    assert (group.dirs["pids"] / "pids.max").read_text() == "16"
    assert (
        group.dirs["cpu"] / "cpu.cfs_quota_us"
    ).read_text() == "200000"  # 1.5 CPUs for the code + the supervisor's share
    assert group.applied == {"memory", "pids", "cpu"}
    assert sorted(group.attach_paths) == sorted(str(d / "cgroup.procs") for d in group.dirs.values())


def test_v1_reads_peak_and_oom(tmp_path):
    directory = tmp_path / "memory" / "run"
    directory.mkdir(parents=True)
    group = CgroupV1.__new__(CgroupV1)
    group.dirs = {"memory": directory}
    (directory / "memory.max_usage_in_bytes").write_text("12345\n")
    (directory / "memory.oom_control").write_text("oom_kill_disable 0\nunder_oom 0\noom_kill 0\n")
    assert group.peak_memory_bytes() == 12345 and group.oom_killed() is False
    (directory / "memory.oom_control").write_text("oom_kill_disable 0\nunder_oom 0\noom_kill 1\n")
    assert group.oom_killed() is True


def test_v2_enables_controllers_and_writes_limits(tmp_path):
    (tmp_path / "cgroup.controllers").write_text("cpu memory pids\n")
    parent = tmp_path / "worker.slice"
    parent.mkdir()
    (parent / "cgroup.controllers").write_text("cpu memory pids\n")
    (parent / "cgroup.subtree_control").write_text("")
    proc = tmp_path / "proc_cgroup"
    proc.write_text("0::/worker.slice\n")
    group = create_run_cgroup(LIMITS, root=tmp_path, proc_cgroup_path=proc)
    assert isinstance(group, CgroupV2)
    assert (group.directory / "memory.max").read_text() == str(256 * 1024**2)
    assert (group.directory / "pids.max").read_text() == "16"
    assert (group.directory / "cpu.max").read_text() == "200000 100000"
    (group.directory / "memory.events").write_text("low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n")
    assert group.oom_killed() is True


def test_no_writable_hierarchy_means_none(tmp_path):
    proc = tmp_path / "proc_cgroup"
    proc.write_text(PROC_CGROUP_V1)
    assert create_run_cgroup(LIMITS, root=tmp_path / "missing", proc_cgroup_path=proc) is None
