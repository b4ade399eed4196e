"""The bank's GPU exercises without a GPU: their reference and model solution run
on a stand-in `cupy` backed by NumPy (host arrays play the device arrays), and the
grader's own comparison (grader.harness.compare) must accept the solution on the
check sizes and edge cases and reject each plausible wrong answer on at least one
of them. This checks the algorithms and the contracts, not speed or device
placement; docs/bank.md lists these exercises as unverified on hardware, and
scripts/gpu_check.sh grades them on a GPU."""

import importlib.util
import sys
import textwrap
import types

import numpy as np
import pytest

from grader.harness.compare import compare
from questions.loader import default_bank_dir, read_bank
from tests.questions.test_bank_gpu_kernels import WRONG_ANSWERS as KERNEL_EXERCISES

#: Exercises whose code uses only CuPy's NumPy-compatible API (fused-axpy-relu
#: compiles an ElementwiseKernel, which no stand-in runs; the kernel exercises,
#: RawKernels, are test_bank_gpu_kernels.py's).
NUMPY_COMPATIBLE = (
    "batch-host-to-gpu-uploads",
    "gpu-softmax-rows",
    "gpu-histogram-bincount",
    "gpu-stream-compaction",
    "gpu-batched-matmul",
    "gpu-sum-without-syncs",
    "gpu-cumsum-scan",
)

WRONG_ANSWERS = {
    "gpu-softmax-rows": """
        import cupy as cp

        def softmax_rows(z):
            e = cp.exp(z)
            return e / e.sum(axis=1, keepdims=True)
        """,
    "gpu-histogram-bincount": """
        import cupy as cp

        def byte_histogram(x):
            return cp.bincount(x)
        """,
    "gpu-stream-compaction": """
        import cupy as cp

        def keep_positive(x):
            return cp.where(x > 0, x, 0)
        """,
    "gpu-batched-matmul": """
        import cupy as cp

        def batched_matmul(a, b):
            return cp.dot(a, b)
        """,
    "gpu-sum-without-syncs": """
        CHUNK = 1 << 16

        def total(x):
            return sum(float(x[start:start + CHUNK].sum()) for start in range(0, x.shape[0] - CHUNK + 1, CHUNK))
        """,
    "gpu-cumsum-scan": """
        import cupy as cp

        def segmented_prefix_sums(x, offsets):
            total = cp.cumsum(x, dtype=cp.int32)  # wraps past 2**31: caught by the one long segment
            start = offsets[cp.searchsorted(offsets, cp.arange(x.shape[0]), side="right") - 1]
            return (total - (total[start] - x[start])).astype(cp.int64)
        """,
}


@pytest.fixture
def numpy_cupy(monkeypatch):
    module = types.ModuleType("cupy")
    module.__dict__.update({name: getattr(np, name) for name in dir(np) if not name.startswith("__")})
    module.asarray = np.asarray
    module.asnumpy = np.asarray
    monkeypatch.setitem(sys.modules, "cupy", module)
    return module


def exercise(slug):
    entries, errors = read_bank(default_bank_dir())
    assert not errors, errors
    return next(entry for entry in entries if entry.slug == slug)


def module_from(code, name):
    module = types.ModuleType(name)
    exec(compile(code, f"<{name}>", "exec"), module.__dict__)
    return module


def cases(entry):
    inputs = module_from(entry.files["inputs.py"], "inputs")
    sizes = entry.spec.get("check_sizes", []) + entry.spec.get("edge_sizes", [])
    generated = [inputs.make_inputs(size, seed) for size in sizes for seed in (1, 2)]
    return generated + list(inputs.edge_cases())


def answers(entry, code, args_list):
    function = getattr(module_from(code, "answer"), entry.spec["entry_point"])
    return [function(*args) for args in args_list]


@pytest.mark.parametrize("slug", NUMPY_COMPATIBLE)
def test_model_solution_matches_the_reference(numpy_cupy, slug):
    entry = exercise(slug)
    assert entry.spec["target"] == "gpu"
    args_list = cases(entry)
    expected = answers(entry, entry.files["reference.py"], args_list)
    got = answers(entry, entry.files["solution.py"], args_list)
    for args, want, have in zip(args_list, expected, got):
        assert compare(want, have, entry.spec["tolerance"]) is None, (slug, args)


@pytest.mark.parametrize("slug", sorted(WRONG_ANSWERS))
def test_plausible_wrong_answer_is_caught(numpy_cupy, slug):
    entry = exercise(slug)
    args_list = cases(entry)
    expected = answers(entry, entry.files["reference.py"], args_list)
    got = answers(entry, textwrap.dedent(WRONG_ANSWERS[slug]), args_list)
    mismatches = [compare(want, have, entry.spec["tolerance"]) for want, have in zip(expected, got)]
    assert any(mismatch is not None for mismatch in mismatches), slug


def test_every_gpu_exercise_is_covered_or_named():
    entries, _errors = read_bank(default_bank_dir())
    gpu = {entry.slug for entry in entries if entry.spec and entry.spec["target"] == "gpu"}
    assert gpu == set(NUMPY_COMPATIBLE) | {"fused-axpy-relu"} | set(KERNEL_EXERCISES)
