"""The sandbox's system-call filter in the forms the two backends take.

The policy itself (which calls, and why) is grader/harness/syscalls.py; this
module only renders it: a compiled BPF program for bubblewrap's --seccomp, and
a seccomp profile for Docker's security_opt. Docker's profile replaces its
default one, so it is the same allow-by-default list as bubblewrap's, on top of
the backend's other layers (no capabilities, no-new-privileges, user 65534).
"""

import functools
import json
import os
import tempfile

from grader.harness import syscalls


@functools.cache
def bpf_program() -> bytes:
    """The SANDBOX filter compiled to a classic BPF program for this machine (bytes)."""
    with tempfile.TemporaryFile() as handle:
        syscalls.sandbox_filter().export_bpf(handle)
        handle.seek(0)
        return handle.read()


def bpf_fd() -> int:
    """A readable descriptor holding bpf_program(), for `bwrap --seccomp FD`.
    The caller closes it once bwrap has started (bwrap reads it during set-up)."""
    fd = os.memfd_create("hotpath-seccomp", os.MFD_CLOEXEC)
    program = bpf_program()
    view = memoryview(program)
    while view:
        view = view[os.write(fd, view) :]
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def _docker_rule(name: str, error: int, condition: tuple[int, int, int] | None) -> dict[str, object]:
    rule: dict[str, object] = {"names": [name], "action": "SCMP_ACT_ERRNO", "errnoRet": error}
    if condition is not None:
        index, mask, value = condition
        # Docker's MASKED_EQ: "value" is the mask, "valueTwo" what the masked argument must equal.
        rule["args"] = [{"index": index, "value": mask, "valueTwo": value, "op": "SCMP_CMP_MASKED_EQ"}]
    return rule


@functools.cache
def docker_profile() -> str:
    """The SANDBOX filter as a Docker seccomp profile (JSON text)."""
    return json.dumps(
        {
            "defaultAction": "SCMP_ACT_ALLOW",
            "syscalls": [_docker_rule(*rule) for rule in syscalls.sandbox_rules()],
        }
    )


def docker_security_opt() -> str:
    """The security_opt entry that applies docker_profile() to a container."""
    return f"seccomp={docker_profile()}"
