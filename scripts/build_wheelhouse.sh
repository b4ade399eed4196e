#!/usr/bin/env bash
# Builds the wheels the images install from, on this host (where pip reaches the
# package index; inside a container it may not):
#   .cache/wheels/web/      requirements/web.txt      (hotpath-app)
#   .cache/wheels/sandbox/  requirements/sandbox.txt  (hotpath-sandbox-cpu)
# Each folder is rebuilt only when its requirements file (or this script) changed:
# a KEY file in it records the hash of its inputs.
# The images then run `pip install --no-index --find-links` on these folders.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-.venv/bin/python}"
[ -x "$PYTHON" ] || PYTHON=python3

# A package pinned only in requirements.txt reaches the tests but no image: refuse it loudly.
stray="$(grep -vE '^\s*(#|-r\s|-e\s|$)' requirements.txt || true)"  # -e: the project itself
if [ -n "$stray" ]; then
  echo "requirements.txt pins packages outside requirements/ (move each to web.txt, sandbox.txt or test.txt):" >&2
  echo "$stray" >&2
  exit 1
fi

# The images' Python is Debian bookworm's 3.11; wheels must be for that ABI.
"$PYTHON" -c 'import sys; assert sys.version_info[:2] == (3, 11), "the wheelhouse needs Python 3.11 (the images run 3.11)"'

roles="web sandbox"
# --gpu: also the GPU images' wheels (CuPy and the CUDA libraries, a few GB).
[ "${1:-}" = "--gpu" ] && roles="$roles gpu"

for role in $roles; do
  requirements="requirements/$role.txt"
  folder=".cache/wheels/$role"
  key="$(cat requirements/sandbox.txt "$requirements" "$0" | sha256sum | cut -c1-16)"
  if [ -f "$folder/KEY" ] && [ "$(cat "$folder/KEY")" = "$key" ]; then
    echo "wheels for $role are up to date ($key)"
    continue
  fi
  echo "Building wheels for $role..."
  rm -rf "$folder"
  mkdir -p "$folder"
  # Every version is pinned in the file; --no-deps keeps anything unpinned from slipping in,
  # and the install in the image (with dependencies) fails if a pin is missing.
  # (This host's pip configuration names index folders that may be missing; pip warns about each.)
  "$PYTHON" -m pip wheel --quiet --no-deps --wheel-dir "$folder" -r "$requirements" 2> >(grep -v 'is ignored: it is neither a file nor a directory' >&2)
  echo "$key" >"$folder/KEY"
done
