"""Where `hotpath login` keeps the server and token: $XDG_CONFIG_HOME/hotpath/config.json
(~/.config/...), readable by its owner only. HOTPATH_SERVER and HOTPATH_TOKEN override it."""

import json
import os
from pathlib import Path

from .errors import CliError


def config_path():
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "hotpath" / "config.json"


def load():
    path = config_path()
    stored = {}
    if path.exists():
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise CliError(f"Cannot read {path}: {exc}. Run `hotpath login` again.") from None
    server = os.environ.get("HOTPATH_SERVER") or stored.get("server")
    token = os.environ.get("HOTPATH_TOKEN") or stored.get("token")
    if not server or not token:
        raise CliError("Not logged in. Run `hotpath login --server URL` (or set HOTPATH_SERVER and HOTPATH_TOKEN).")
    return server, token


def save(server, token):
    """Write the file with mode 0600 from the start: the token is never readable by others, even briefly."""
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(descriptor, 0o600)  # an older file keeps its mode through O_CREAT
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        json.dump({"server": server, "token": token}, handle)
    return path
