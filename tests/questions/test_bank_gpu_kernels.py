"""The bank's GPU kernel exercises without a GPU: the learner writes the kernel
(cupy.RawKernel, CUDA C++), and here every kernel, the reference's where it has one,
runs on the CPU through kernel_standin (g++, a block's threads as fibers) under a
NumPy-backed stand-in `cupy`. The grader's comparison (grader.harness.compare) must
accept the model solution on the check sizes and edge cases with the threads of each
block run in both orders, the starter must give the reference's answers, and each
plausible wrong answer (a missing __syncthreads(), a tail left out, a running sum not
rescaled) must be caught in at least one order. This checks the kernels' logic, bounds
and synchronisation, not speed; scripts/gpu_check.sh grades them on a GPU, and
scripts/compile_kernels.py compiles every kernel with nvcc."""

import functools
import shutil
import sys
import textwrap
import types

import numpy as np
import pytest

from grader.harness.compare import compare
from questions.loader import default_bank_dir, read_bank
from tests.questions.kernel_standin import ORDERS, KernelError, RawKernel, RawModule, thread_order

pytestmark = pytest.mark.skipif(
    shutil.which("g++") is None, reason="the kernel stand-in compiles with g++ (scripts/ensure-system-deps.sh)"
)

#: slug -> plausible wrong answers, each a whole module that the grader must reject.
WRONG_ANSWERS = {
    "gpu-shared-memory-histogram": [
        # The bins are counted into before every thread has zeroed its own.
        """
        import cupy as cp

        _histogram = cp.RawKernel(r'''
        extern "C" __global__ void histogram_256(const unsigned char* x, long long n, unsigned long long* counts) {
            __shared__ unsigned int bins[256];
            bins[threadIdx.x] = 0;
            long long stride = (long long)gridDim.x * blockDim.x;
            for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
                atomicAdd(&bins[x[i]], 1u);
            __syncthreads();
            if (bins[threadIdx.x]) atomicAdd(&counts[threadIdx.x], (unsigned long long)bins[threadIdx.x]);
        }
        ''', "histogram_256")

        def histogram_256(x):
            counts = cp.zeros(256, dtype=cp.int64)
            if x.shape[0]:
                _histogram((min(2048, (x.shape[0] + 255) // 256),), (256,), (x, x.shape[0], counts))
            return counts
        """,
    ],
    "gpu-tiled-transpose": [
        # No barrier between loading the tile and writing it out transposed.
        """
        import cupy as cp

        _transpose = cp.RawKernel(r'''
        extern "C" __global__ void transpose(const float* a, float* out, int rows, int cols) {
            __shared__ float tile[32][33];
            int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
            for (int j = 0; j < 32; j += 8)
                if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = a[(size_t)(y + j) * cols + x];
            x = blockIdx.y * 32 + threadIdx.x;
            y = blockIdx.x * 32 + threadIdx.y;
            for (int j = 0; j < 32; j += 8)
                if (x < rows && y + j < cols) out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
        }
        ''', "transpose")

        def transpose(a):
            rows, cols = a.shape
            out = cp.empty((cols, rows), dtype=a.dtype)
            if rows and cols:
                _transpose(((cols + 31) // 32, (rows + 31) // 32), (32, 8), (a, out, cp.int32(rows), cp.int32(cols)))
            return out
        """,
        # The output's bounds checked against the input's shape: wrong, and out of
        # bounds, wherever a tile crosses the edge of a non-square matrix.
        """
        import cupy as cp

        _transpose = cp.RawKernel(r'''
        extern "C" __global__ void transpose(const float* a, float* out, int rows, int cols) {
            __shared__ float tile[32][33];
            int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
            for (int j = 0; j < 32; j += 8)
                if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = a[(size_t)(y + j) * cols + x];
            __syncthreads();
            x = blockIdx.y * 32 + threadIdx.x;
            y = blockIdx.x * 32 + threadIdx.y;
            for (int j = 0; j < 32; j += 8)
                if (x < cols && y + j < rows) out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
        }
        ''', "transpose")

        def transpose(a):
            rows, cols = a.shape
            out = cp.empty((cols, rows), dtype=a.dtype)
            if rows and cols:
                _transpose(((cols + 31) // 32, (rows + 31) // 32), (32, 8), (a, out, cp.int32(rows), cp.int32(cols)))
            return out
        """,
    ],
    "gpu-warp-shuffle-row-norms": [
        # The butterfly stops one step early (offset > 1): each lane misses half the warp.
        """
        import cupy as cp

        _row_norms = cp.RawKernel(r'''
        extern "C" __global__ void row_norms(const float* x, float* out, long long n, int d) {
            long long row = (long long)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
            int lane = threadIdx.x % 32;
            if (row >= n) return;
            float sum = 0.0f;
            for (int c = lane; c < d; c += 32) sum += x[row * d + c] * x[row * d + c];
            for (int offset = 16; offset > 1; offset >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
            if (lane == 0) out[row] = sqrtf(sum);
        }
        ''', "row_norms")

        def row_norms(x):
            n, d = x.shape
            out = cp.empty(n, dtype=cp.float32)
            if n:
                _row_norms(((n + 7) // 8,), (256,), (x, out, n, cp.int32(d)))
            return out
        """,
    ],
    "gpu-block-scan-rows": [
        # Hillis-Steele in one shared buffer, one barrier a step: a thread adds its
        # neighbour's value after the neighbour has already added its own.
        """
        import cupy as cp

        _scan_rows = cp.RawKernel(r'''
        extern "C" __global__ void scan_rows(const int* x, long long* out, int d) {
            __shared__ long long s[1024];
            int t = threadIdx.x;
            s[t] = t < d ? (long long)x[(long long)blockIdx.x * d + t] : 0;
            __syncthreads();
            for (int offset = 1; offset < blockDim.x; offset <<= 1) {
                if (t >= offset) s[t] += s[t - offset];
                __syncthreads();
            }
            if (t < d) out[(long long)blockIdx.x * d + t] = s[t];
        }
        ''', "scan_rows")

        def row_prefix_sums(x):
            n, d = x.shape
            out = cp.empty((n, d), dtype=cp.int64)
            if n:
                _scan_rows((n,), ((d + 31) // 32 * 32,), (x, out, cp.int32(d)))
            return out
        """,
        # Accumulates in int: the running total wraps past 2**31.
        """
        import cupy as cp

        _scan_rows = cp.RawKernel(r'''
        extern "C" __global__ void scan_rows(const int* x, long long* out, int d) {
            __shared__ int a[1024], b[1024];
            int t = threadIdx.x;
            int *from = a, *to = b;
            from[t] = t < d ? x[(long long)blockIdx.x * d + t] : 0;
            __syncthreads();
            for (int offset = 1; offset < blockDim.x; offset <<= 1) {
                to[t] = t >= offset ? from[t] + from[t - offset] : from[t];
                __syncthreads();
                int* swap = from; from = to; to = swap;
            }
            if (t < d) out[(long long)blockIdx.x * d + t] = from[t];
        }
        ''', "scan_rows")

        def row_prefix_sums(x):
            n, d = x.shape
            out = cp.empty((n, d), dtype=cp.int64)
            if n:
                _scan_rows((n,), ((d + 31) // 32 * 32,), (x, out, cp.int32(d)))
            return out
        """,
    ],
    "gpu-ballot-stream-compaction": [
        # No barrier between publishing the warps' counts and reading them.
        """
        import cupy as cp

        _count = cp.RawKernel(r'''
        extern "C" __global__ void count_positive(const float* x, long long n, int* counts) {
            long long i = (long long)blockIdx.x * 256 + threadIdx.x;
            unsigned int ballot = __ballot_sync(0xffffffffu, i < n && x[i] > 0.0f);
            if (threadIdx.x % 32 == 0) atomicAdd(&counts[blockIdx.x], __popc(ballot));
        }
        ''', "count_positive")

        _scatter = cp.RawKernel(r'''
        extern "C" __global__ void scatter_positive(const float* x, long long n, const long long* starts, float* out) {
            __shared__ int warp_counts[8];
            int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
            long long i = (long long)blockIdx.x * 256 + threadIdx.x;
            float v = i < n ? x[i] : 0.0f;
            unsigned int ballot = __ballot_sync(0xffffffffu, v > 0.0f);
            if (lane == 0) warp_counts[warp] = __popc(ballot);
            int before = 0;
            for (int w = 0; w < warp; ++w) before += warp_counts[w];
            if (v > 0.0f) out[starts[blockIdx.x] + before + __popc(ballot & ((1u << lane) - 1u))] = v;
        }
        ''', "scatter_positive")

        def compact_positive(x):
            n = x.shape[0]
            if n == 0:
                return cp.empty(0, dtype=cp.float32)
            blocks = (n + 255) // 256
            counts = cp.zeros(blocks, dtype=cp.int32)
            _count((blocks,), (256,), (x, n, counts))
            ends = cp.cumsum(counts, dtype=cp.int64)
            out = cp.empty(int(ends[-1]), dtype=cp.float32)
            if out.shape[0]:
                _scatter((blocks,), (256,), (x, n, ends - counts, out))
            return out
        """,
        # Each warp claims its slots with one global atomic: fast, but in whatever
        # order the warps arrive, not the input's.
        """
        import cupy as cp

        _compact = cp.RawKernel(r'''
        extern "C" __global__ void compact(const float* x, long long n, unsigned long long* counter, float* out) {
            long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
            int lane = threadIdx.x % 32;
            float v = i < n ? x[i] : 0.0f;
            unsigned int ballot = __ballot_sync(0xffffffffu, v > 0.0f);
            unsigned long long start = 0;
            if (lane == 0 && ballot) start = atomicAdd(counter, (unsigned long long)__popc(ballot));
            start = __shfl_sync(0xffffffffu, start, 0);
            if (v > 0.0f) out[start + __popc(ballot & ((1u << lane) - 1u))] = v;
        }
        ''', "compact")

        def compact_positive(x):
            n = x.shape[0]
            out = cp.empty(int((x > 0).sum()), dtype=cp.float32)
            if out.shape[0]:
                _compact(((n + 255) // 256,), (256,), (x, n, cp.zeros(1, dtype=cp.uint64), out))
            return out
        """,
    ],
    "gpu-tiled-matmul": [
        # One barrier per step: a fast thread loads the next tiles over ones that
        # slower threads are still multiplying.
        """
        import cupy as cp

        _matmul = cp.RawKernel(r'''
        extern "C" __global__ void matmul_tiled(const float* a, const float* b, float* c, int m, int k, int p) {
            __shared__ float as[32][32];
            __shared__ float bs[32][32];
            int tx = threadIdx.x, ty = threadIdx.y;
            int col = blockIdx.x * 32 + tx, row0 = blockIdx.y * 32 + ty;
            float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            for (int t = 0; t < k; t += 32) {
                for (int i = 0; i < 4; ++i) {
                    int r = row0 + 8 * i, ka = t + tx, kb = t + ty + 8 * i;
                    as[ty + 8 * i][tx] = r < m && ka < k ? a[(size_t)r * k + ka] : 0.0f;
                    bs[ty + 8 * i][tx] = kb < k && col < p ? b[(size_t)kb * p + col] : 0.0f;
                }
                __syncthreads();
                for (int kk = 0; kk < 32; ++kk)
                    for (int i = 0; i < 4; ++i) acc[i] += as[ty + 8 * i][kk] * bs[kk][tx];
            }
            for (int i = 0; i < 4; ++i)
                if (row0 + 8 * i < m && col < p) c[(size_t)(row0 + 8 * i) * p + col] = acc[i];
        }
        ''', "matmul_tiled")

        def matmul(a, b):
            m, k = a.shape
            p = b.shape[1]
            c = cp.empty((m, p), dtype=cp.float32)
            if m and p:
                _matmul(((p + 31) // 32, (m + 31) // 32), (32, 8), (a, b, c, cp.int32(m), cp.int32(k), cp.int32(p)))
            return c
        """,
        # No zeros past the edges: the last partial tile multiplies stale values.
        """
        import cupy as cp

        _matmul = cp.RawKernel(r'''
        extern "C" __global__ void matmul_tiled(const float* a, const float* b, float* c, int m, int k, int p) {
            __shared__ float as[32][32];
            __shared__ float bs[32][32];
            int tx = threadIdx.x, ty = threadIdx.y;
            int col = blockIdx.x * 32 + tx, row0 = blockIdx.y * 32 + ty;
            float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            for (int t = 0; t < k; t += 32) {
                for (int i = 0; i < 4; ++i) {
                    int r = row0 + 8 * i, ka = t + tx, kb = t + ty + 8 * i;
                    if (r < m && ka < k) as[ty + 8 * i][tx] = a[(size_t)r * k + ka];
                    if (kb < k && col < p) bs[ty + 8 * i][tx] = b[(size_t)kb * p + col];
                }
                __syncthreads();
                for (int kk = 0; kk < 32; ++kk)
                    for (int i = 0; i < 4; ++i) acc[i] += as[ty + 8 * i][kk] * bs[kk][tx];
                __syncthreads();
            }
            for (int i = 0; i < 4; ++i)
                if (row0 + 8 * i < m && col < p) c[(size_t)(row0 + 8 * i) * p + col] = acc[i];
        }
        ''', "matmul_tiled")

        def matmul(a, b):
            m, k = a.shape
            p = b.shape[1]
            c = cp.empty((m, p), dtype=cp.float32)
            if m and p:
                _matmul(((p + 31) // 32, (m + 31) // 32), (32, 8), (a, b, c, cp.int32(m), cp.int32(k), cp.int32(p)))
            return c
        """,
    ],
    "gpu-online-softmax": [
        # The running sum is not rescaled when the running maximum grows.
        """
        import cupy as cp

        _softmax = cp.RawKernel(r'''
        __device__ void merge(float& m, float& s, float m2, float s2) {
            float top = fmaxf(m, m2);
            s = s * expf(m - top) + s2 * expf(m2 - top);
            m = top;
        }
        extern "C" __global__ void softmax_online(const float* z, float* out, int d) {
            __shared__ float warp_m[32], warp_s[32];
            const float* row = z + (size_t)blockIdx.x * d;
            float m = -3.402823466e+38f, s = 0.0f;
            for (int c = threadIdx.x; c < d; c += blockDim.x) {
                m = fmaxf(m, row[c]);
                s += expf(row[c] - m);
            }
            for (int offset = 16; offset > 0; offset >>= 1) {
                float m2 = __shfl_xor_sync(0xffffffffu, m, offset);
                float s2 = __shfl_xor_sync(0xffffffffu, s, offset);
                merge(m, s, m2, s2);
            }
            if (threadIdx.x % 32 == 0) { warp_m[threadIdx.x / 32] = m; warp_s[threadIdx.x / 32] = s; }
            __syncthreads();
            m = -3.402823466e+38f;
            s = 0.0f;
            for (int w = 0; w < blockDim.x / 32; ++w) merge(m, s, warp_m[w], warp_s[w]);
            for (int c = threadIdx.x; c < d; c += blockDim.x) out[(size_t)blockIdx.x * d + c] = expf(row[c] - m) / s;
        }
        ''', "softmax_online")

        def softmax(z):
            n, d = z.shape
            out = cp.empty((n, d), dtype=cp.float32)
            if n:
                _softmax((n,), (256,), (z, out, cp.int32(d)))
            return out
        """,
    ],
    "gpu-occupancy-row-sums": [
        # A warp per row, but n // 8 blocks: the last n % 8 rows are never summed.
        """
        import cupy as cp

        _row_sums = cp.RawKernel(r'''
        extern "C" __global__ void row_sums(const float* x, float* out, long long n, int d) {
            long long row = (long long)blockIdx.x * 8 + threadIdx.x / 32;
            int lane = threadIdx.x % 32;
            if (row >= n) return;
            float acc = 0.0f;
            for (int c = lane; c < d; c += 32) acc += x[row * d + c];
            for (int offset = 16; offset > 0; offset >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, offset);
            if (lane == 0) out[row] = acc;
        }
        ''', "row_sums")

        def row_sums(x):
            n, d = x.shape
            out = cp.zeros(n, dtype=cp.float32)
            if n >= 8:
                _row_sums((n // 8,), (256,), (x, out, n, cp.int32(d)))
            return out
        """,
    ],
}


def module_from(code, name):
    module = types.ModuleType(name)
    exec(compile(code, f"<{name}>", "exec"), module.__dict__)
    return module


@functools.cache
def bank():
    """The bank's entries by slug; an error in an entry of this module's is a failure
    (the whole bank's errors are test_real_bank.py's)."""
    entries, errors = read_bank(default_bank_dir())
    mine = [error for error in errors if any(f"/{slug}" in error.path for slug in WRONG_ANSWERS)]
    assert not mine, mine
    return {entry.slug: entry for entry in entries}


@pytest.fixture
def standin_cupy(monkeypatch):
    module = types.ModuleType("cupy")
    module.__dict__.update({name: getattr(np, name) for name in dir(np) if not name.startswith("__")})
    module.asarray = np.asarray
    module.asnumpy = np.asarray
    module.RawKernel = RawKernel
    module.RawModule = RawModule
    monkeypatch.setitem(sys.modules, "cupy", module)
    return module


def cases(entry):
    inputs = module_from(entry.files["inputs.py"], "inputs")
    sizes = entry.spec.get("check_sizes", []) + entry.spec.get("edge_sizes", [])
    return [inputs.make_inputs(size, seed) for size in sizes for seed in (1, 2)] + list(inputs.edge_cases())


def run(entry, code, args_list):
    """Each call's answer, or the KernelError it raised."""
    function = getattr(module_from(code, "answer"), entry.spec["entry_point"])
    results = []
    for args in args_list:
        try:
            results.append(function(*args))
        except KernelError as error:
            results.append(error)
    return results


def mismatches(entry, expected, got):
    return [
        have if isinstance(have, KernelError) else compare(want, have, entry.spec["tolerance"])
        for want, have in zip(expected, got, strict=True)
    ]


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("slug", sorted(WRONG_ANSWERS))
def test_model_solution_and_starter_match_the_reference(standin_cupy, slug, order):
    entry = bank()[slug]
    assert entry.spec["target"] == "gpu"
    args_list = cases(entry)
    with thread_order(order):
        expected = run(entry, entry.files["reference.py"], args_list)
        assert not any(isinstance(value, KernelError) for value in expected), expected
        for answer in ("solution.py", "starter.py"):
            problems = mismatches(entry, expected, run(entry, entry.files[answer], args_list))
            assert all(problem is None for problem in problems), (answer, problems)


@pytest.mark.parametrize(
    ("slug", "index"), [(slug, index) for slug, codes in sorted(WRONG_ANSWERS.items()) for index in range(len(codes))]
)
def test_plausible_wrong_answer_is_caught(standin_cupy, slug, index):
    entry = bank()[slug]
    args_list = cases(entry)
    code = textwrap.dedent(WRONG_ANSWERS[slug][index])
    caught = []
    for order in ORDERS:
        with thread_order(order):
            expected = run(entry, entry.files["reference.py"], args_list)
            caught += [problem for problem in mismatches(entry, expected, run(entry, code, args_list)) if problem]
    assert caught, f"{slug}: wrong answer {index} passed every case in both orders"


def test_the_model_solutions_write_their_own_kernels(standin_cupy):
    for slug in WRONG_ANSWERS:
        module = module_from(bank()[slug].files["solution.py"], "solution")
        kernels = [value for value in vars(module).values() if isinstance(value, (RawKernel, RawModule))]
        assert kernels, f"{slug}: the model solution defines no RawKernel or RawModule"
