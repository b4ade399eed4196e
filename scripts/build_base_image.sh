#!/usr/bin/env bash
# Builds the local base image every Hotpath image starts from, without a registry:
# a minimal Debian bookworm made with debootstrap from the mirror apt is set up
# with here, brought up to date with the security and point-release updates, and
# imported with `docker import`. It holds Python 3.11 (Debian's) and venv, nothing more.
#
#   scripts/build_base_image.sh            -> image hotpath-base:bookworm
#
# The root tarball is cached under .cache/images/, keyed on everything that goes
# into it (suite, packages, mirror, this script); the image carries the same key
# as a label, so a second run with nothing changed does nothing. Delete the
# cache (or pass --rebuild) to pick up newer Debian updates.
# Needs root (debootstrap) and a running engine (scripts/ensure_docker.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGE="${BASE_IMAGE:-hotpath-base:bookworm}"
SUITE=bookworm
PACKAGES="python3,python3-venv"
CACHE_DIR=.cache/images
REBUILD=0
[ "${1:-}" = "--rebuild" ] && REBUILD=1

# The mirror apt already uses on this machine (deb822 sources or a classic list).
debian_mirror() {
  local uri
  uri="$(grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v security | awk '{print $2}' | head -n 1 || true)"
  [ -n "$uri" ] || uri="$(grep -hE '^deb ' /etc/apt/sources.list 2>/dev/null | grep -v security | awk '{print $2}' | head -n 1 || true)"
  echo "${uri:-http://deb.debian.org/debian}"
}
MIRROR="${DEBIAN_MIRROR:-$(debian_mirror)}"
SECURITY_MIRROR="${DEBIAN_SECURITY_MIRROR:-${MIRROR%/debian}/debian-security}"

KEY="$( { echo "$SUITE $PACKAGES $MIRROR $SECURITY_MIRROR"; cat "$0"; } | sha256sum | cut -c1-16)"
TARBALL="$CACHE_DIR/base-$SUITE-$KEY.tar"

current_key="$(docker image inspect --format '{{index .Config.Labels "org.hotpath.base.key"}}' "$IMAGE" 2>/dev/null || true)"
if [ "$REBUILD" = 0 ] && [ "$current_key" = "$KEY" ]; then
  echo "$IMAGE is up to date (key $KEY)"
  exit 0
fi

if [ "$REBUILD" = 1 ] || [ ! -s "$TARBALL" ]; then
  [ "$(id -u)" = "0" ] || { echo "debootstrap needs root; run as root or load a cached $TARBALL" >&2; exit 1; }
  command -v debootstrap >/dev/null || { echo "debootstrap is missing (scripts/ensure_docker.sh installs it)" >&2; exit 1; }
  root="$(mktemp -d /tmp/hotpath-base-XXXXXX)"
  trap 'umount "$root/proc" 2>/dev/null || true; rm -rf "$root"' EXIT
  echo "debootstrap $SUITE from $MIRROR (a few minutes)..."
  debootstrap --variant=minbase --include="$PACKAGES" "$SUITE" "$root" "$MIRROR" >/tmp/hotpath-debootstrap.log 2>&1 \
    || { tail -n 30 /tmp/hotpath-debootstrap.log >&2; exit 1; }
  cat >"$root/etc/apt/sources.list" <<EOF
deb $MIRROR $SUITE main
deb $MIRROR $SUITE-updates main
deb $SECURITY_MIRROR $SUITE-security main
EOF
  mount -t proc proc "$root/proc"
  chroot "$root" sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get upgrade -y -qq >/dev/null'
  umount "$root/proc"
  # Nothing of this machine's own set-up goes in: a fresh resolv.conf and hostname come from the engine.
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb
  : >"$root/etc/resolv.conf"
  echo sandbox >"$root/etc/hostname"
  mkdir -p "$CACHE_DIR"
  rm -f "$CACHE_DIR"/base-"$SUITE"-*.tar
  tar --numeric-owner -C "$root" -cf "$TARBALL.partial" .
  mv "$TARBALL.partial" "$TARBALL"
fi

echo "Importing $TARBALL as $IMAGE..."
docker import \
  --change "LABEL org.hotpath.base.key=$KEY" \
  --change 'ENV LANG=C.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["python3"]' \
  "$TARBALL" "$IMAGE" >/dev/null
docker run --rm --network none "$IMAGE" python3 -c 'import sys, venv; print("base:", sys.version.split()[0])'
