"""Sandbox backends behind one small interface (see base.py). The backend is
the judge's configured one (grader.config); get_backend() returns its class."""

from .. import config
from .base import Limits, Sandbox, SandboxResult

__all__ = ["Limits", "Sandbox", "SandboxResult", "get_backend", "resolve_backend"]


def resolve_backend(backend: str | type[Sandbox] | None = None) -> type[Sandbox]:
    """A backend class from a name, from a class (returned as it is), or the
    configured backend's when None."""
    if backend is None:
        backend = config.current().backend
    return get_backend(backend) if isinstance(backend, str) else backend


def get_backend(name: str) -> type[Sandbox]:
    if name == "bwrap":
        from .bwrap import BwrapSandbox

        return BwrapSandbox
    if name == "docker":
        from .docker import DockerSandbox

        return DockerSandbox
    raise ValueError(f"Unknown sandbox backend {name!r}; expected 'bwrap' or 'docker'")
