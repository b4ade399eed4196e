#!/usr/bin/env bash
# Installs the Debian packages Hotpath needs (bubblewrap for the sandbox, Chromium
# for the browser tests, g++ for the tests that run the bank's GPU kernels on the CPU)
# when they are missing and we are allowed to (root with apt-get).
set -euo pipefail
missing=()
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
if [ "${HOTPATH_SKIP_BROWSER:-0}" != "1" ]; then
  command -v chromium >/dev/null 2>&1 || missing+=(chromium chromium-driver)
fi
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing ${missing[*]} with apt-get..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "Missing system packages: ${missing[*]}. Install them (e.g. sudo apt-get install ${missing[*]})." >&2
  if printf '%s\n' "${missing[@]}" | grep -qx bubblewrap; then exit 1; fi
fi
