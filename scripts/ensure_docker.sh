#!/usr/bin/env bash
# Makes sure a Docker engine answers on this machine: installs Debian's engine
# (docker.io, with debootstrap for the base image and docker-compose 1.29) when
# it is missing and we may (root with apt-get; not with --no-install), and starts dockerd by hand where
# no service manager runs it. Exits non-zero, saying why, when no engine can be
# reached; the real-engine tests and `make images` rely on that message.
set -euo pipefail

DOCKERD_LOG="${DOCKERD_LOG:-/var/log/hotpath-dockerd.log}"
START_WAIT_S="${DOCKERD_START_WAIT_S:-60}"

is_root() { [ "$(id -u)" = "0" ]; }

engine_answers() { docker version --format '{{.Server.Version}}' >/dev/null 2>&1; }

install_missing() {
  local missing=()
  command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
  command -v docker >/dev/null 2>&1 || missing+=(docker.io)
  command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
  command -v docker-compose >/dev/null 2>&1 || missing+=(docker-compose)
  [ ${#missing[@]} -eq 0 ] && return 0
  if is_root && command -v apt-get >/dev/null 2>&1; then
    echo "Installing ${missing[*]} with apt-get..."
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "Missing: ${missing[*]}. Install them (e.g. sudo apt-get install ${missing[*]})." >&2
    return 1
  fi
}

start_dockerd() {
  if ! is_root; then
    echo "The Docker engine is not running and only root may start it here (run as root, or start the docker service)." >&2
    return 1
  fi
  # A service manager, when there is one, owns the engine.
  if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
    systemctl start docker
  else
    echo "Starting dockerd (log: $DOCKERD_LOG)..."
    # setsid: the engine must not die with the shell (or CI step) that started it.
    setsid dockerd >>"$DOCKERD_LOG" 2>&1 < /dev/null &
  fi
  for _ in $(seq 1 "$START_WAIT_S"); do
    engine_answers && return 0
    sleep 1
  done
  echo "dockerd did not answer within ${START_WAIT_S}s; the end of $DOCKERD_LOG:" >&2
  tail -n 20 "$DOCKERD_LOG" >&2 || true
  return 1
}

# --no-install: only find or start an engine (what the tests do); never run apt-get.
[ "${1:-}" = "--no-install" ] || install_missing
engine_answers || start_dockerd
echo "Docker engine $(docker version --format '{{.Server.Version}}') ($(docker info --format '{{.Driver}}, cgroup v{{.CgroupVersion}}' 2>/dev/null))"
