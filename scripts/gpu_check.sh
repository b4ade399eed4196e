#!/usr/bin/env bash
# GPU checks, on a machine with an NVIDIA GPU and the project's dependencies
# (.venv, or the Python named by PYTHON):
#   0. where a .whl folder is here and that Python lacks Django (a lent GPU
#      machine with no network: docs/testing.md, "On a GPU"), installs the
#      wheels: pyseccomp into that Python, as the sandbox image has it, the
#      rest into a folder put on PYTHONPATH;
#   1. installs cupy-cuda12x when CuPy is missing;
#   2. runs the GPU tests (pytest -m gpu), which grade through the harness
#      directly, without a sandbox;
#   3. measures the GPU's roofs straight through CuPy (grader/hostbench.py gpu),
#      and compiles every kernel of the bank with NVRTC and nvcc where they are
#      found (scripts/compile_kernels.py: a compile error named before a grading);
#   4. grades fused-axpy-relu's solution.py (expects accepted, a speedup above
#      MIN_SOLUTION_SPEEDUP and a roofline against the GPU's roofs, measured in
#      the GPU sandbox) and starter.py (expects accepted), and every other GPU
#      exercise's solution.py (expects accepted), with `manage.py grade --json`,
#      in the GPU sandbox (backend GRADE_BACKEND, default docker). Where no
#      Docker engine answers (a GPU machine lent for minutes, docs/testing.md),
#      scripts/gpu_grade_bank.py grades them instead, without the sandbox, and
#      writes every report to GPU_REPORTS (default gpu-bank.json); GPU_EXERCISES,
#      slugs separated by spaces, limits it to those (a device lent for minutes
#      has not the time to grade every exercise twice).
# Prints PASS, FAIL or SKIP per check; exits 0 only when nothing failed.
set -uo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-.venv/bin/python}"
SLUG=fused-axpy-relu
EXERCISE=questions/bank/algorithmic-complexity/$SLUG
GRADE_BACKEND="${GRADE_BACKEND:-docker}"
MIN_SOLUTION_SPEEDUP="${MIN_SOLUTION_SPEEDUP:-1.5}"
FAILED=0

pass() { echo "PASS  $1"; }
fail() { echo "FAIL  $1${2:+: $2}"; FAILED=1; }
skip() { echo "SKIP  $1: $2"; }

command -v "$PYTHON" >/dev/null || { fail "Python" "$PYTHON not found (run make setup, or set PYTHON)"; exit 1; }

if [ -d .whl ] && ! "$PYTHON" -c "import django" 2>/dev/null; then
  site="$(mktemp -d -t hotpath-gpu-site.XXXXXX)"
  if "$PYTHON" -m pip install -q --no-index --no-deps .whl/pyseccomp-*.whl \
     && "$PYTHON" -m pip install -q --no-index --no-deps --target "$site" .whl/*.whl; then
    export PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}"
    pass "the app's dependencies from .whl"
  else
    fail "the app's dependencies from .whl"; exit 1
  fi
fi

if ! "$PYTHON" -c "import cupy" 2>/dev/null; then
  echo "Installing cupy-cuda12x ..."
  "$PYTHON" -m pip install -q cupy-cuda12x || { fail "install cupy-cuda12x"; exit 1; }
fi
if "$PYTHON" -c "import cupy; cupy.cuda.runtime.getDeviceCount()" 2>/tmp/hotpath-gpu-check-stderr; then
  pass "CuPy sees a CUDA device"
else
  fail "CuPy sees a CUDA device" "$(tail -c 400 /tmp/hotpath-gpu-check-stderr)"; exit 1
fi

# Only the module that holds them: collecting the whole suite imports the browser and API tools too.
# -vv: an assertion's report is printed whole, not cut to a few hundred characters.
if "$PYTHON" -m pytest -m gpu -vv tests/harness/test_harness_runs.py; then pass "pytest -m gpu"; else fail "pytest -m gpu"; fi

if limits="$("$PYTHON" grader/hostbench.py gpu 2>/tmp/hotpath-gpu-check-stderr)"; then
  pass "the GPU's roofs through CuPy: $limits"
else
  fail "the GPU's roofs through CuPy" "$(tail -c 400 /tmp/hotpath-gpu-check-stderr)"
fi

if "$PYTHON" scripts/compile_kernels.py; then pass "the bank's kernels compile"; else fail "the bank's kernels compile"; fi

# grade FILE EXPECTATION: EXPECTATION is a Python expression over the report `r`.
grade() {
  local file="$1" expectation="$2" label="grade $SLUG $1 ($GRADE_BACKEND)" report
  # SANDBOX_BACKEND: the roofline's GPU roofs are measured in the same sandbox (grader.host_limits).
  report="$(SANDBOX_BACKEND="$GRADE_BACKEND" "$PYTHON" manage.py grade "$SLUG" "$EXERCISE/$file" --backend "$GRADE_BACKEND" --json 2>/tmp/hotpath-gpu-check-stderr)"
  if printf '%s' "$report" | "$PYTHON" -c "
import json, sys
r = json.load(sys.stdin)
print(f'verdict {r[\"verdict\"]}, speedup {r[\"speedup\"]}, CI {r[\"speedup_ci\"]}, hardware {r[\"hardware\"]}')
print('staging s per size:', [(e['size'], e['staging_s'], e['reference_staging_s']) for e in r['sizes']])
print('roofline:', r.get('roofline') and r['roofline']['hint'])
sys.exit(0 if ($expectation) else 1)
"; then
    pass "$label"
  else
    fail "$label" "$(tail -c 600 /tmp/hotpath-gpu-check-stderr) ${report:0:600}"
  fi
}

if [ "$GRADE_BACKEND" = docker ] && ! docker info >/dev/null 2>&1; then
  skip "grade in the GPU sandbox" "no Docker engine answers here; grading the bank's GPU exercises without the sandbox instead"
  only=()
  for slug in ${GPU_EXERCISES:-}; do only+=(--only "$slug"); done
  if "$PYTHON" scripts/gpu_grade_bank.py --out "${GPU_REPORTS:-gpu-bank.json}" ${only[@]+"${only[@]}"}; then
    pass "every GPU exercise's solution and starter accepted, solutions faster (scripts/gpu_grade_bank.py)"
  else
    fail "scripts/gpu_grade_bank.py"
  fi
else
  grade solution.py "r['verdict'] == 'accepted' and r['speedup'] > $MIN_SOLUTION_SPEEDUP and r['roofline'] and r['roofline']['target'] == 'gpu'"
  grade starter.py "r['verdict'] == 'accepted'"
  # Every other GPU exercise in the bank: its model solution must be accepted
  # (docs/bank.md lists them as unverified on hardware until this passes).
  for question in questions/bank/*/*/question.md; do
    grep -q '^target: gpu$' "$question" || continue
    SLUG="$(basename "$(dirname "$question")")"
    EXERCISE="$(dirname "$question")"
    [ "$SLUG" = fused-axpy-relu ] && continue
    grade solution.py "r['verdict'] == 'accepted'"
  done
fi

if [ "$FAILED" = 0 ]; then echo "PASS  all GPU checks"; else echo "FAIL  some GPU checks failed"; fi
exit "$FAILED"
