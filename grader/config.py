"""The judge's configuration: which sandbox backend grades, and the Docker images
it runs. The judge reads no framework's settings; whoever embeds it (the web and
worker side: submissions.apps) calls `configure` once at start, and again when a
setting changes. Unconfigured, it grades with bubblewrap and the images
`make images` builds."""

from dataclasses import dataclass, replace

BACKENDS = ("bwrap", "docker")


@dataclass(frozen=True)
class JudgeConfig:
    backend: str = "bwrap"
    cpu_image: str = "hotpath-sandbox-cpu:latest"
    gpu_image: str = "hotpath-sandbox-gpu:latest"

    def __post_init__(self) -> None:
        if self.backend not in BACKENDS:
            raise ValueError(f"Unknown sandbox backend {self.backend!r}; expected one of {', '.join(BACKENDS)}")

    def image_for(self, target: str) -> str:
        """The sandbox image that grades code for `target` ("cpu" or "gpu")."""
        return self.gpu_image if target == "gpu" else self.cpu_image


_current = JudgeConfig()


def configure(**changes: str) -> JudgeConfig:
    """Replace the named fields of the configuration (a ValueError names a bad one)."""
    global _current
    _current = replace(_current, **changes)
    return _current


def current() -> JudgeConfig:
    return _current
