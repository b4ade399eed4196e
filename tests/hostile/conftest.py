"""Fixtures for the hostile suite: host-side canaries the attacks hunt for, and
the checks run after every attack (nothing leaked, written or left running)."""

import hashlib
import os
import secrets
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import frontmatter
import pytest

HERE = Path(__file__).resolve().parent
ATTACKS = HERE / "attacks"
EXERCISE = HERE / "exercise"
#: The attacks look for this host folder (see attacks/escape_read_host_files.py, escape_symlinks_planted.py);
#: each test session keeps its canary in a subfolder of its own, so concurrent sessions do not collide.
CANARY_ROOT = Path("/tmp/hotpath-hostile-canary")
#: Marks an attack that got through: it raises with this word and what it found.
ESCAPED = "ESCAPED"
#: A comment tiny_exercise() adds to the reference's source: a report that holds it
#: holds the reference itself (see attacks/escape_read_reference_files.py).
REFERENCE_MARKER = "hotpath-hostile-reference-source-3f9c2a"


def attack_code(name):
    return (ATTACKS / f"{name}.py").read_text()


def tiny_exercise():
    """The hostile suite's own small exercise: (spec, files) where files maps
    job file names (reference.py, inputs.py, solution.py) to their text."""
    post = frontmatter.load(EXERCISE / "question.md")
    files = {name: (EXERCISE / name).read_text() for name in ("reference.py", "inputs.py", "solution.py")}
    files["reference.py"] += f"# {REFERENCE_MARKER}: the reference's source, never to be shown to a learner\n"
    return dict(post.metadata), files


@dataclass
class Canaries:
    directory: Path
    file_token: str
    env_token: str
    file_digest: str
    file_mtime_ns: int

    def secrets(self):
        from django.conf import settings

        return [self.file_token, self.env_token, settings.SECRET_KEY]

    def assert_not_in(self, text, where):
        for secret in self.secrets():
            assert secret not in text, f"a host secret leaked into {where}"

    @property
    def file(self):
        return self.directory / "secret.txt"

    def assert_file_untouched(self):
        assert self.file.is_file() and not self.file.is_symlink(), "the host canary file was replaced"
        assert hashlib.sha256(self.file.read_bytes()).hexdigest() == self.file_digest, "the host canary was modified"
        assert self.file.stat().st_mtime_ns == self.file_mtime_ns, "the host canary was written to"
        assert sorted(p.name for p in self.directory.iterdir()) == ["secret.txt"], (
            "something was dropped beside the canary"
        )


@pytest.fixture(scope="session")
def canaries():
    """A secret file on the host at a path every attack knows, and a secret in
    the host environment (the worker's); neither may ever reach a report."""
    CANARY_ROOT.mkdir(mode=0o700, exist_ok=True)
    directory = Path(tempfile.mkdtemp(dir=CANARY_ROOT))
    file_token = f"hotpath-canary-file-{secrets.token_hex(16)}"
    env_token = f"hotpath-canary-env-{secrets.token_hex(16)}"
    canary_file = directory / "secret.txt"
    canary_file.write_text(file_token)
    canary_file.chmod(0o600)
    previous = os.environ.get("HOTPATH_CANARY")
    os.environ["HOTPATH_CANARY"] = env_token
    stat = canary_file.stat()
    yield Canaries(directory, file_token, env_token, hashlib.sha256(file_token.encode()).hexdigest(), stat.st_mtime_ns)
    shutil.rmtree(directory, ignore_errors=True)
    if previous is None:
        os.environ.pop("HOTPATH_CANARY", None)
    else:
        os.environ["HOTPATH_CANARY"] = previous


def _process_table():
    table = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        comm = stat[stat.index("(") + 1 : stat.rindex(")")]
        state, ppid = stat[stat.rindex(")") + 2 :].split()[:2]
        table[int(entry.name)] = (int(ppid), state, comm, cmdline)
    return table


def sandbox_processes(include_orphans=True):
    """Live (not zombie) sandbox processes that are ours: bwrap or anything whose
    command line names the job mount or a host job directory, descended from
    this test process or (with include_orphans) orphaned; other test sessions'
    runs are neither, unless one of their workers was killed."""
    table = _process_table()
    me = os.getpid()

    def ours(pid):
        if include_orphans and table[pid][0] in (0, 1):
            return True  # orphaned: a sandbox process that outlived its bwrap
        seen = set()
        while pid in table and pid not in seen:
            seen.add(pid)
            pid = table[pid][0]
            if pid == me:
                return True
        return False

    found = []
    for pid, (ppid, state, comm, cmdline) in table.items():
        if state == "Z":
            continue  # exited; only its exit status is left for init to collect
        if comm == "bwrap" or b"/job/" in cmdline or b"hotpath-job-" in cmdline:
            if ours(pid):
                found.append((pid, comm, cmdline[:120]))
    return found


@pytest.fixture(scope="session", autouse=True)
def private_job_root():
    """Job directories go under a folder of this session's own, so leftovers can
    be told apart from other test sessions' running jobs."""
    root = tempfile.mkdtemp(prefix="hotpath-hostile-jobs-")
    os.chmod(root, 0o755)  # bwrap may run as nobody and must reach the job directories
    previous = tempfile.tempdir
    tempfile.tempdir = root
    yield Path(root)
    tempfile.tempdir = previous
    shutil.rmtree(root, ignore_errors=True)


def _existing_containers(ids):
    import docker

    client = docker.from_env()
    try:
        return [cid for cid in ids if client.containers.list(all=True, filters={"id": cid})]
    finally:
        client.close()


def job_dirs():
    return {p.name for p in Path(tempfile.gettempdir()).glob("hotpath-job-*")}


@pytest.fixture
def host_guard(canaries, monkeypatch):
    """Snapshot before an attack; afterwards assert the host is as it was: no
    sandbox process of ours alive, no job directory, cgroup or sandbox container
    left, canary untouched."""
    from grader.sandbox import bwrap
    from grader.sandbox.docker import DockerSandbox

    created_groups = []
    original = bwrap.create_run_cgroup

    def recording(*args, **kwargs):
        group = original(*args, **kwargs)
        if group is not None:
            created_groups.append(group)
        return group

    monkeypatch.setattr(bwrap, "create_run_cgroup", recording)
    created_containers = []
    original_create = DockerSandbox._create

    def recording_create(self, spec, command):
        container = original_create(self, spec, command)
        created_containers.append(container.id)
        return container

    monkeypatch.setattr(DockerSandbox, "_create", recording_create)
    before_dirs = job_dirs()
    already_there = {pid for pid, _, _ in sandbox_processes()}  # e.g. left by a killed worker of another session
    yield canaries
    leftover = [entry for entry in sandbox_processes() if entry[0] not in already_there]
    assert not leftover, f"processes survived the grading run: {leftover}"
    assert job_dirs() <= before_dirs, f"job directories left behind: {job_dirs() - before_dirs}"
    for group in created_groups:
        directories = getattr(group, "dirs", {}).values() if hasattr(group, "dirs") else [group.directory]
        left = [str(d) for d in directories if d is not None and Path(d).exists()]
        assert not left, f"cgroups left behind: {left}"
    if created_containers:
        assert not _existing_containers(created_containers), "sandbox containers left behind"
    canaries.assert_file_untouched()
