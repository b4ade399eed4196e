"""Sandbox backends behind one small interface (see base.py). The backend is
chosen by settings.SANDBOX_BACKEND; get_backend() returns its class."""
from .base import Limits, Sandbox, SandboxResult

__all__ = ["Limits", "Sandbox", "SandboxResult", "get_backend"]


def get_backend(name):
    if name == "bwrap":
        from .bwrap import BwrapSandbox

        return BwrapSandbox
    if name == "docker":
        from .docker import DockerSandbox

        return DockerSandbox
    raise ValueError(f"Unknown sandbox backend {name!r}; expected 'bwrap' or 'docker'")
