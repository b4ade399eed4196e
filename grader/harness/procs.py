"""Process facts and control through /proc and prctl (Linux only).

In the sandbox the supervisor is the pid namespace's init (pid 1): /proc
shows only the sandbox's processes, and every one of them but the supervisor
is "another process" to freeze. Outside a sandbox (in the tests, where /proc
shows the whole machine) the supervisor is a child subreaper, so every process
the runners start, even one that double-forks or calls setsid, stays in its
tree, and "every other process" is every descendant of the supervisor.
"""

import ctypes
import os
import signal
import time
from collections.abc import Collection, Iterable, Mapping
from typing import NamedTuple

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")
TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")
STOPPED_STATES = frozenset("TtZX")
#: Seconds a SIGSTOP may take to show before the freeze counts as failed. A stopped
#: process shows it as soon as it next runs, and on a loaded host a runnable process can
#: wait well over half a second for a CPU; the wait ends as soon as all show it, so the
#: bound costs nothing on an idle host.
FREEZE_CONFIRM_S = 5.0
#: Seconds a stopped thread whose arrival and departure counts disagree must show the
#: same counts and runtime before it counts as off its CPU: over one scheduler tick
#: (4 ms at 250 Hz), which would add to the runtime of a thread still on a CPU.
SETTLE_S = 0.005

#: read_stat's (state, ppid, own cpu seconds, reaped children's cpu seconds).
StatFacts = tuple[str, int, float, float]
#: _thread_facts's (state letter, arrivals on a CPU, departures from one, ns on a CPU).
ThreadFacts = tuple[str, int, int, int]
#: _process_facts's (state, CPU seconds, {tid: runtime ns}).
ProcessFacts = tuple[str, float, dict[str, int]]
#: One thread's (nice, CPU affinity, policy), as scheduling gives them.
Scheduling = tuple[int, frozenset[int], int]


class FreezeFailed(Exception):
    """A process in the sandbox could not be confirmed stopped."""


_libc = ctypes.CDLL(None, use_errno=True)


def prctl(option: int, value: int) -> bool:
    result: int = _libc.prctl(option, ctypes.c_ulong(value), 0, 0, 0)
    return result == 0


def set_dumpable(flag: bool) -> bool:
    """Non-dumpable: same-uid processes can neither ptrace us nor open our /proc fds, mem or environ."""
    return prctl(PR_SET_DUMPABLE, 1 if flag else 0)


def become_subreaper() -> bool:
    return prctl(PR_SET_CHILD_SUBREAPER, 1)


def die_with_parent() -> bool:
    return prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _read(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def read_stat(pid: int | str) -> StatFacts | None:
    """(state, ppid, own cpu seconds, reaped children's cpu seconds) or None when gone."""
    try:
        raw = _read(f"/proc/{pid}/stat")
    except OSError:
        return None
    fields = raw[raw.rfind(b")") + 2 :].split()
    state = fields[0].decode("ascii", "replace")
    ppid = int(fields[1])
    own = (int(fields[11]) + int(fields[12])) / TICKS_PER_SECOND
    children = (int(fields[13]) + int(fields[14])) / TICKS_PER_SECOND
    return state, ppid, own, children


def parent_map() -> dict[int, int]:
    parents: dict[int, int] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            facts = read_stat(entry.name)
            if facts is not None:
                parents[int(entry.name)] = facts[1]
    return parents


def _walk(root: int, parents: Mapping[int, int]) -> list[int]:
    children: dict[int, list[int]] = {}
    for pid, ppid in parents.items():
        children.setdefault(ppid, []).append(pid)
    found: list[int] = []
    frontier = [root]
    while frontier:
        pid = frontier.pop()
        found.append(pid)
        frontier.extend(children.get(pid, ()))
    return found


def descendants(root: int, parents: Mapping[int, int] | None = None) -> list[int]:
    parents = parent_map() if parents is None else parents
    return _walk(root, parents)[1:]


def subtree(root: int | None, parents: Mapping[int, int] | None = None) -> list[int]:
    """`root` and its descendants, but only if `root` is one of ours: a pid
    that is not (any more) in our tree is never signalled, so a recycled pid
    belonging to some other process is safe."""
    parents = parent_map() if parents is None else parents
    if root is None or root not in set(descendants(os.getpid(), parents)):
        return []
    return _walk(root, parents)


def accountable(root: int, trusted_roots: Collection[int] = (), parents: Mapping[int, int] | None = None) -> list[int]:
    """The processes whose memory counts against `root`'s side: its subtree and,
    when `trusted_roots` is given, every stray the supervisor adopted. The
    supervisor is a subreaper, so a double-forked grandchild lands under it,
    outside `root`'s tree, yet it is still the submission's doing."""
    parents = parent_map() if parents is None else parents
    mine = subtree(root, parents)
    if not mine or not trusted_roots:
        return mine
    claimed = set(mine)
    for trusted in trusted_roots:
        claimed.update(subtree(trusted, parents))
    strays = [pid for pid in descendants(os.getpid(), parents) if pid not in claimed]
    return mine + strays


def tree_cpu_seconds(root: int) -> float:
    """CPU used so far by `root`'s tree, including children it has reaped."""
    total = 0.0
    for pid in subtree(root):
        facts = read_stat(pid)
        if facts is not None:
            total += facts[2] + facts[3]
    return total


class Schedule(NamedTuple):
    """A tree's scheduler counters at one moment (tree_schedule)."""

    #: Nanoseconds its live threads have run on a CPU, and waited, runnable, for one.
    ran_ns: int
    waited_ns: int
    #: (pid, tid) of every live thread: a thread that ended between two readings takes its counters with it.
    threads: frozenset[tuple[int, str]]
    #: The last pid the sandbox's pid namespace handed out: a process or thread started
    #: between two readings moves it. 0 outside a sandbox (the tests), where the whole
    #: machine's processes move it and the thread sets alone are compared.
    last_pid: int


def tree_schedule(root: int) -> Schedule | None:
    """`root`'s tree's Schedule now: the first two fields of each thread's /proc
    schedstat (the scheduler's own counts, to the nanosecond), summed. None where
    the kernel keeps no scheduler statistics or a thread ended while being read."""
    try:
        last_pid = int(_read("/proc/sys/kernel/ns_last_pid")) if os.getpid() == 1 else 0
    except (OSError, ValueError):
        return None
    ran = waited = 0
    threads: set[tuple[int, str]] = set()
    for pid in subtree(root):
        try:
            tids = os.listdir(f"/proc/{pid}/task")
            for tid in tids:
                fields = _read(f"/proc/{pid}/task/{tid}/schedstat").split()
                ran += int(fields[0])
                waited += int(fields[1])
                threads.add((pid, tid))
        except (OSError, IndexError, ValueError):
            return None
    return Schedule(ran, waited, frozenset(threads), last_pid)


def held_by_others_seconds(before: Schedule | None, after: Schedule | None, window_s: float) -> float | None:
    """How long, of a call that took `window_s` between the two readings of its
    runner's tree, other processes held the tree's CPU: the tree's wait for a
    CPU, but never more than the window less the tree's own time on one (a tree
    whose threads queue behind each other waits while its own work runs; that
    wait is the call's own time). None, and nothing is taken off the call, when
    the two readings are not of the same threads: a thread that started or
    ended in between would take its counters out of the sums."""
    if before is None or after is None or before.threads != after.threads or before.last_pid != after.last_pid:
        return None
    waited_s = (after.waited_ns - before.waited_ns) / 1e9
    idle_s = window_s - (after.ran_ns - before.ran_ns) / 1e9
    return max(0.0, min(waited_s, idle_s))


def rss_bytes(pid: int) -> int:
    try:
        return int(_read(f"/proc/{pid}/statm").split()[1]) * PAGE_SIZE
    except (OSError, IndexError, ValueError):
        return 0


def pss_bytes(pid: int) -> int:
    """Proportional set size: pages shared with other processes (after fork,
    copy-on-write) are split between them instead of counted in full by each."""
    try:
        for line in _read(f"/proc/{pid}/smaps_rollup").splitlines():
            if line.startswith(b"Pss:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def tree_rss_bytes(pids: Iterable[int]) -> int:
    """Resident memory of a set of processes. One process: its RSS. Several:
    the sum of their PSS, since summing RSS would count every page a forked
    child still shares with its parent twice."""
    pids = list(pids)
    if len(pids) == 1:
        return rss_bytes(pids[0])
    return sum(pss_bytes(pid) for pid in pids)


MEMFD_PREFIX = "/memfd:"


def _mapped_memfd_inodes(pids: Iterable[int]) -> set[int]:
    """Inode numbers of the memfds any of `pids` has mapped (its /proc maps)."""
    inodes: set[int] = set()
    for pid in pids:
        try:
            lines = _read(f"/proc/{pid}/maps").decode("utf-8", "replace").splitlines()
        except OSError:
            continue
        for line in lines:
            fields = line.split(None, 5)
            if len(fields) == 6 and fields[5].startswith(MEMFD_PREFIX):
                inodes.add(int(fields[4]))
    return inodes


def unmapped_shared_bytes(pids: Collection[int]) -> int:
    """Memory that `pids` hold outside every resident set: the allocated pages of
    the memfds they keep open but have not mapped (a mapped page is in RSS
    already), each file once, and, inside the sandbox (its own IPC namespace),
    System V segments attached nowhere. No per-file limit caps these; they are
    the submission's memory as much as its heap is."""
    mapped = _mapped_memfd_inodes(pids)
    held: dict[tuple[int, int], int] = {}
    for pid in pids:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            path = f"/proc/{pid}/fd/{fd}"
            try:
                if not os.readlink(path).startswith(MEMFD_PREFIX):
                    continue
                facts = os.stat(path)
            except OSError:
                continue
            if facts.st_ino not in mapped:
                held[(facts.st_dev, facts.st_ino)] = facts.st_blocks * 512
    return sum(held.values()) + (_detached_sysv_bytes() if os.getpid() == 1 else 0)


def _detached_sysv_bytes() -> int:
    """Resident bytes of the IPC namespace's System V shared-memory segments that
    no process has attached (the 'rss' column of /proc/sysvipc/shm)."""
    try:
        lines = _read("/proc/sysvipc/shm").decode("ascii", "replace").splitlines()
    except OSError:
        return 0
    if not lines:
        return 0
    columns = lines[0].split()
    total = 0
    for line in lines[1:]:
        row = dict(zip(columns, line.split()))
        if row.get("nattch") == "0" and row.get("rss", "").isdigit():
            total += int(row["rss"])
    return total


def peak_rss_bytes(pid: int) -> int:
    """VmHWM: the process's peak resident set since start or the last reset."""
    try:
        for line in _read(f"/proc/{pid}/status").splitlines():
            if line.startswith(b"VmHWM:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def reset_peak_rss(pid: int) -> bool:
    """Writing 5 to clear_refs resets VmHWM to the current RSS (Linux >= 4.0)."""
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as handle:
            handle.write("5")
        return True
    except OSError:
        return False


def scheduling(pid: int) -> set[Scheduling]:
    """(nice, CPU affinity, policy) of every thread of `pid`, as a set.

    Another same-uid process may lower a process's priority, pin it to one
    CPU or switch it to SCHED_IDLE; the supervisor compares this against the
    reference's own settings before timing it."""
    found: set[Scheduling] = set()
    try:
        tids = [int(name) for name in os.listdir(f"/proc/{pid}/task")]
    except OSError:
        return found
    for tid in tids:
        try:
            found.add(
                (os.getpriority(os.PRIO_PROCESS, tid), frozenset(os.sched_getaffinity(tid)), os.sched_getscheduler(tid))
            )
        except OSError:
            continue
    return found


def current_cpu() -> int:
    """The CPU the calling thread last ran on (field 39 of its /proc stat)."""
    raw = _read("/proc/thread-self/stat")
    return int(raw[raw.rfind(b")") + 2 :].split()[36])


def send_signal(pids: Iterable[int], signum: int) -> None:
    for pid in pids:
        try:
            os.kill(pid, signum)
        except (ProcessLookupError, PermissionError):
            pass


def _switches(status: bytes) -> int:
    """Times a thread has left its CPU, from its /proc status text."""
    total = 0
    for line in status.splitlines():
        if line.startswith((b"voluntary_ctxt_switches:", b"nonvoluntary_ctxt_switches:")):
            total += int(line.split()[1])
    return total


def _thread_facts(pid: int, tid: str) -> ThreadFacts | None:
    """(state letter, arrivals on a CPU, departures from one, ns on a CPU) of thread
    `tid` of `pid`, or None when it is gone. The status (state and departures) is
    read before the schedstat (runtime and arrivals), so the two counts agree only
    if the thread was off its CPU at the first read and did not arrive on one
    before the second."""
    try:
        status = _read(f"/proc/{pid}/task/{tid}/status")
        runtime, _, arrivals = _read(f"/proc/{pid}/task/{tid}/schedstat").split()[:3]
    except FileNotFoundError:
        return None
    state = status[status.index(b"State:") + 6 :].split()[0].decode("ascii", "replace")
    return state, int(arrivals), _switches(status), int(runtime)


def _thread_stopped(pid: int, tid: str, seen: dict[tuple[int, str], tuple[ThreadFacts, float]], now: float) -> bool:
    """Whether thread `tid` of `pid` is stopped and off its CPU (or gone).

    A thread shows "stopped" a few instructions before it leaves its CPU, and the
    CPU time it ran since the scheduler last counted (up to a tick, longer where a
    hypervisor takes the virtual CPU in between) is added only then: a snapshot
    taken in that window makes a paused process look as if it ran later. A thread
    is off its CPU when it has arrived on one as often as it has left one. The
    kernel skips counting an arrival now and then, and a thread whose counts
    disagree for good is taken as off its CPU once it has shown the same counts
    and runtime for SETTLE_S (`seen`: {(pid, tid): (facts, first seen at)}, kept
    by the caller across polls; `now`: time.monotonic())."""
    try:
        facts = _thread_facts(pid, tid)
    except (OSError, IndexError, ValueError):
        return False
    if facts is None or facts[0] in "ZX":
        return True
    state, arrivals, departures, _ = facts
    if state not in STOPPED_STATES:
        return False
    # No scheduler statistics (schedstat all zeros): the state is all there is to go on.
    if arrivals == departures or arrivals == 0:
        return True
    earlier = seen.get((pid, tid))
    if earlier is None or earlier[0] != facts:
        seen[(pid, tid)] = (facts, now)
        return False
    return now - earlier[1] >= SETTLE_S


def _stopped(pid: int, seen: dict[tuple[int, str], tuple[ThreadFacts, float]], now: float) -> bool:
    """Whether every thread of `pid` is stopped and off its CPU (or gone): a group
    stop reaches each thread on its own, and a process whose main thread has
    exited shows that thread as a zombie while the others may still run."""
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return True
    return all(_thread_stopped(pid, tid, seen, now) for tid in tids)


def wait_until_stopped(pids: Iterable[int], timeout_s: float = FREEZE_CONFIRM_S) -> bool:
    """SIGSTOP takes effect asynchronously; wait until the kernel shows it and
    every thread has left its CPU (`_thread_stopped`). True when every process
    in `pids` is confirmed stopped."""
    deadline = time.monotonic() + timeout_s
    pending = set(pids)
    seen: dict[tuple[int, str], tuple[ThreadFacts, float]] = {}
    while pending:
        now = time.monotonic()
        pending = {pid for pid in pending if not _stopped(pid, seen, now)}
        if not pending or now >= deadline:
            break
        time.sleep(0.0002)
    return not pending


def sandbox_pids(parents: Mapping[int, int] | None = None) -> list[int]:
    """Every process of the sandbox but this one (see the module docstring)."""
    me = os.getpid()
    parents = parent_map() if parents is None else parents
    if me == 1:
        return [pid for pid in parents if pid != me]
    return descendants(me, parents)


def freeze_all_except(active_pid: int | None = None) -> int:
    """SIGSTOP every other process of the sandbox outside `active_pid`'s tree,
    and confirm that each one has stopped (FreezeFailed otherwise).

    Rescans until no new process appears (a process stopped mid-fork can
    leave a child that the previous scan missed). Returns how many processes
    the sandbox holds besides this one.
    """
    signalled: set[int] = set()
    others: list[int] = []
    for _ in range(64):
        parents = parent_map()
        others = sandbox_pids(parents)
        keep = set(subtree(active_pid, parents)) if active_pid else set()
        targets = [pid for pid in others if pid not in keep and pid not in signalled]
        if not targets:
            break
        send_signal(targets, signal.SIGSTOP)
        signalled.update(targets)
    else:
        raise FreezeFailed("processes kept appearing while the sandbox was being paused")
    if not wait_until_stopped(signalled):
        raise FreezeFailed("a process did not stop when paused")
    return len(others)


def _thread_runtimes_ns(pid: int) -> dict[str, int]:
    """{tid: nanoseconds on a CPU so far} for every live thread of `pid`: the
    first field of each thread's /proc schedstat (the scheduler's own count,
    exact to the nanosecond, where /proc stat rounds to clock ticks)."""
    runtimes: dict[str, int] = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return runtimes
    for tid in tids:
        try:
            runtimes[tid] = int(_read(f"/proc/{pid}/task/{tid}/schedstat").split()[0])
        except (OSError, IndexError, ValueError):
            continue
    return runtimes


def thread_times_ns(pids: Iterable[int]) -> tuple[int, int] | None:
    """(nanoseconds on a CPU, nanoseconds runnable but waiting for one), summed
    over every live thread of `pids`: the first two fields of each thread's
    /proc schedstat. Whatever else a thread's wall time holds it spent
    stopped or asleep. None where the kernel keeps no scheduler statistics."""
    ran = waited = 0
    for pid in pids:
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                fields = _read(f"/proc/{pid}/task/{tid}/schedstat").split()
                ran += int(fields[0])
                waited += int(fields[1])
            except FileNotFoundError:
                continue
            except (OSError, IndexError, ValueError):
                return None
    return ran, waited


def _process_facts(pid: int) -> ProcessFacts | None:
    """(state, whole-process CPU seconds incl. exited threads and reaped children,
    {tid: runtime ns}) or None when gone."""
    facts = read_stat(pid)
    if facts is None:
        return None
    state, _, own, children = facts
    return state, own + children, _thread_runtimes_ns(pid)


def paused_snapshot(active_pid: int | None = None) -> dict[int, ProcessFacts]:
    """What every paused process of the sandbox has run so far: {pid: facts}
    for every process outside `active_pid`'s tree, zombies left out (they
    can be reaped at any time and run no more). Taken once the freeze is
    confirmed; `ran_while_paused` compares a later view against it."""
    parents = parent_map()
    keep = set(subtree(active_pid, parents)) if active_pid else set()
    snapshot: dict[int, ProcessFacts] = {}
    for pid in sandbox_pids(parents):
        if pid in keep:
            continue
        facts = _process_facts(pid)
        if facts is not None and facts[0] not in "ZX":
            snapshot[pid] = facts
    return snapshot


def ran_while_paused(snapshot: Mapping[int, ProcessFacts]) -> str | None:
    """Why a process paused in `snapshot` must have run since, or None.

    A stopped process never runs: it gains no CPU time, its threads neither
    start nor end, and it cannot exit (only SIGKILL ends it, which nothing in
    the sandbox may send it). Any of these therefore proves that it was woken
    (SIGCONT from a timer, a kernel-sent signal...) whatever the route, so
    the call it overlapped cannot be trusted."""
    for pid, (_, cpu_before, threads_before) in snapshot.items():
        facts = _process_facts(pid)
        if facts is None or facts[0] in "ZX":
            return f"paused process {pid} exited"
        _, cpu_after, threads_after = facts
        if cpu_after > cpu_before:
            return f"paused process {pid} used CPU time"
        if set(threads_after) != set(threads_before):
            return f"paused process {pid} started or ended a thread"
        for tid, runtime in threads_after.items():
            if runtime > threads_before[tid]:
                return f"paused process {pid} ran ({(runtime - threads_before[tid]) / 1e6:.3f} ms on a CPU)"
    return None


def resume_tree(root: int) -> None:
    send_signal(subtree(root), signal.SIGCONT)


def kill_tree(root: int) -> None:
    """SIGKILL `root` and every descendant. Stopping them first means none can
    fork a child that escapes the scan between listing and killing."""
    signalled: set[int] = set()
    for _ in range(64):
        targets = [pid for pid in subtree(root) if pid not in signalled]
        if not targets:
            break
        send_signal(targets, signal.SIGSTOP)
        signalled.update(targets)
    send_signal(signalled, signal.SIGKILL)


def kill_all_descendants() -> None:
    me = os.getpid()
    for _ in range(8):
        pids = descendants(me)
        if not pids:
            break
        send_signal(pids, signal.SIGKILL)
        reap_zombies()
        time.sleep(0.01)
    reap_zombies()


def reap_zombies() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def signal_name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"
