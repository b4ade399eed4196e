#!/usr/bin/env bash
# Smoke test for the Docker sandbox backend, on a machine with a Docker engine:
#   scripts/docker_smoke_test.sh          build the CPU sandbox image, grade a model
#                                         solution in it, and check that the sandbox
#                                         has no network and a read-only /job
#   scripts/docker_smoke_test.sh --gpu    also build the GPU image and grade a CuPy
#                                         exercise in it (needs the NVIDIA Container Toolkit)
# Prints PASS or FAIL per check; exits 0 only when every check passed.
set -uo pipefail
cd "$(dirname "$0")/.."

GPU=0
for argument in "$@"; do
  case "$argument" in
    --gpu) GPU=1 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "unknown option: $argument (expected --gpu)" >&2; exit 2 ;;
  esac
done

PYTHON="${PYTHON:-.venv/bin/python}"
[ -x "$PYTHON" ] || PYTHON=python3
export SANDBOX_CPU_IMAGE="${SANDBOX_CPU_IMAGE:-hotpath-sandbox-cpu:latest}"
export SANDBOX_GPU_IMAGE="${SANDBOX_GPU_IMAGE:-hotpath-sandbox-gpu:latest}"
FAILED=0

pass() { echo "PASS  $1"; }
fail() { echo "FAIL  $1${2:+: $2}"; FAILED=1; }

command -v docker >/dev/null 2>&1 || { echo "FAIL  docker CLI not found"; exit 1; }
docker info >/dev/null 2>&1 || { echo "FAIL  cannot reach the Docker engine (is it running, may this user use it?)"; exit 1; }

# grade SLUG TARGET: grades the exercise's own solution.py and expects "accepted".
grade_model_solution() {
  local slug="$1" label="$2" solution report verdict
  solution="$(find questions/bank -path "*/$slug/solution.py" | head -n 1)"
  if [ -z "$solution" ]; then fail "$label" "no solution.py for $slug"; return; fi
  report="$("$PYTHON" manage.py grade "$slug" "$solution" --backend docker --json 2>/tmp/hotpath-smoke-stderr)"
  verdict="$(printf '%s' "$report" | "$PYTHON" -c 'import json, sys; print(json.load(sys.stdin).get("verdict"))' 2>/dev/null)"
  if [ "$verdict" = "accepted" ]; then
    pass "$label ($(printf '%s' "$report" | "$PYTHON" -c 'import json, sys; r = json.load(sys.stdin); print(f"speedup {r.get(\"speedup\")}, hardware {r.get(\"hardware\")}")'))"
  else
    fail "$label" "verdict ${verdict:-none}; $(tail -c 600 /tmp/hotpath-smoke-stderr) ${report:0:600}"
  fi
}

echo "Building $SANDBOX_CPU_IMAGE ..."
if scripts/build_images.sh >/dev/null; then  # make images: the base, the wheels and every image
  pass "build CPU sandbox image"
else
  fail "build CPU sandbox image"; exit 1
fi

grade_model_solution python-loop-to-numpy "grade python-loop-to-numpy in the CPU container"

# Hostile checks, through DockerSandbox itself so the real container spec is tested.
if "$PYTHON" manage.py shell -c '
import sys
from grader.sandbox import Limits
from grader.sandbox.docker import DockerSandbox
probes = {
    "network is blocked": "import socket; socket.create_connection((\"1.1.1.1\", 53), timeout=3)",
    "/job is read-only": "open(\"/job/planted\", \"w\")",
    "the root filesystem is read-only": "open(\"/usr/planted\", \"w\")",
    "it does not run as root": "import os; assert os.getuid() != 0 and os.getgid() != 0, os.getuid()",
}
ok = True
with DockerSandbox(limits=Limits(wall_time_s=60), target="cpu") as sandbox:
    sandbox.write_file("probe.txt", "x")
    for label, code in probes.items():
        result = sandbox.run(["python3", "-c", code])
        expect_failure = label != "it does not run as root"
        held = (result.exit_code != 0) if expect_failure else (result.exit_code == 0)
        print(("PASS  " if held else "FAIL  ") + "sandbox: " + label + ("" if held else f" (exit {result.exit_code}, {result.stderr[-300:]!r})"))
        ok = ok and held
sys.exit(0 if ok else 1)
'; then :; else FAILED=1; fi

if [ "$GPU" = 1 ]; then
  echo "Building $SANDBOX_GPU_IMAGE ..."
  if scripts/build_images.sh --gpu >/dev/null; then
    pass "build GPU sandbox image"
    grade_model_solution fused-axpy-relu "grade fused-axpy-relu in the GPU container"
  else
    fail "build GPU sandbox image"
  fi
fi

if [ "$FAILED" = 0 ]; then echo "PASS  all Docker smoke checks"; else echo "FAIL  some Docker smoke checks failed"; fi
exit "$FAILED"
