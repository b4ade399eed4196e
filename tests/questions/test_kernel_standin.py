"""The CPU stand-in for CuPy's RawKernel (kernel_standin.py, kernel_standin.h) models what
its docstring says: barriers and warp collectives order the threads, a missing barrier
shows in one of the two thread orders, and what hangs, misbehaves or is refused on a GPU
is an error here too."""

import shutil

import numpy as np
import pytest

from tests.questions.kernel_standin import KernelError, RawKernel, RawModule, thread_order

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="the kernel stand-in compiles with g++")

SOURCE = r"""
extern "C" __global__ void block_sum(const int* x, long long* out) {
    __shared__ int values[64];
    values[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) {
        long long total = 0;
        for (int i = 0; i < blockDim.x; ++i) total += values[i];
        out[blockIdx.x] = total;
    }
}

extern "C" __global__ void block_sum_unsynced(const int* x, long long* out) {
    __shared__ int values[64];
    values[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];
    if (threadIdx.x == 0) {
        long long total = 0;
        for (int i = 0; i < blockDim.x; ++i) total += values[i];
        out[blockIdx.x] = total;
    }
}

extern "C" __global__ void warp_collectives(const int* x, int* sums, unsigned int* ballots, int* broadcast) {
    int lane = threadIdx.x % 32;
    int v = x[threadIdx.x];
    int s = v;
    for (int offset = 16; offset > 0; offset >>= 1) s += __shfl_xor_sync(0xffffffffu, s, offset);
    sums[threadIdx.x] = s;
    ballots[threadIdx.x] = __ballot_sync(0xffffffffu, v % 2);
    broadcast[threadIdx.x] = __shfl_sync(0xffffffffu, v, 3);
    int up = __shfl_up_sync(0xffffffffu, v, 1);
    if (lane == 0 && up != v) broadcast[threadIdx.x] = -1;  // lane 0 gets its own value back
}

extern "C" __global__ void leaves_before_shuffle(const float* x, float* out, int n) {
    int i = threadIdx.x;
    if (i >= n) return;
    out[i] = __shfl_down_sync(0xffffffffu, x[i], 1);
}

extern "C" __global__ void barrier_in_a_branch(int* out) {
    if (threadIdx.x % 32 < 16) {
        __syncthreads();
    } else {
        out[threadIdx.x] = __shfl_sync(0xffffffffu, 1, 0);  // needs lanes 0-15, which wait at the barrier
    }
}

extern "C" __global__ void writes_past_the_end(float* out, int n) {
    out[n + 4096] = 1.0f;
}

extern "C" __global__ void count_threads(int* out, int zero_first) {
    __shared__ int count;
    if (zero_first && threadIdx.x == 0) count = 0;
    __syncthreads();
    atomicAdd(&count, 1);
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = count;
}

extern "C" __global__ void scale(float* x, float factor, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= factor;
}
"""


def kernel(name):
    return RawKernel(SOURCE, name)


@pytest.mark.parametrize("order", ["forward", "reverse"])
def test_a_barrier_makes_every_threads_write_visible(order):
    x = np.arange(128, dtype=np.int32)
    out = np.zeros(2, dtype=np.int64)
    with thread_order(order):
        kernel("block_sum")((2,), (64,), (x, out))
    assert out.tolist() == [x[:64].sum(), x[64:].sum()]


def test_a_missing_barrier_reads_values_not_yet_written():
    x = np.arange(1, 129, dtype=np.int32)
    out = np.zeros(2, dtype=np.int64)
    with thread_order("forward"):  # thread 0 runs first: the others have written nothing
        kernel("block_sum_unsynced")((2,), (64,), (x, out))
    assert out.tolist() != [x[:64].sum(), x[64:].sum()]


def test_shared_memory_starts_as_garbage_in_every_block():
    out = np.zeros(3, dtype=np.int32)
    kernel("count_threads")((3,), (32,), (out, np.int32(1)))
    assert out.tolist() == [32, 32, 32]
    kernel("count_threads")((3,), (32,), (out, np.int32(0)))
    assert out.tolist() == [np.int32(np.uint32(0xA5A5A5A5)) + 32] * 3


def test_shuffles_and_ballots_exchange_a_warps_values():
    x = np.arange(64, dtype=np.int32) * 3
    sums, ballots, broadcast = np.zeros(64, np.int32), np.zeros(64, np.uint32), np.zeros(64, np.int32)
    RawModule(code=SOURCE).get_function("warp_collectives")((1,), (64,), (x, sums, ballots, broadcast))
    assert sums.tolist() == [int(x[:32].sum())] * 32 + [int(x[32:].sum())] * 32
    odd = [sum(1 << lane for lane in range(32) if x[warp * 32 + lane] % 2) for warp in (0, 1)]
    assert ballots.tolist() == [odd[0]] * 32 + [odd[1]] * 32
    assert broadcast.tolist() == [int(x[3])] * 32 + [int(x[35])] * 32


def test_a_lane_that_left_before_a_full_mask_shuffle_is_an_error():
    x = np.ones(32, dtype=np.float32)
    with pytest.raises(KernelError, match="has returned"):
        kernel("leaves_before_shuffle")((1,), (32,), (x, np.zeros(32, np.float32), np.int32(20)))


def test_a_barrier_that_some_threads_never_reach_is_a_deadlock():
    with pytest.raises(KernelError, match="deadlock"):
        kernel("barrier_in_a_branch")((1,), (32,), (np.zeros(32, np.int32),))


def test_a_write_past_an_array_is_reported_not_a_crash():
    out = np.zeros(8, dtype=np.float32)
    with pytest.raises(KernelError, match="outside its arrays"):
        kernel("writes_past_the_end")((1,), (1,), (out, np.int32(8)))


@pytest.mark.parametrize(("grid", "block"), [((0,), (32,)), ((1,), (0,)), ((1,), (2048,)), ((1,), (32, 32, 2))])
def test_launches_a_gpu_refuses_are_refused(grid, block):
    with pytest.raises(KernelError, match="CUDA_ERROR_INVALID_VALUE"):
        kernel("scale")(grid, block, (np.zeros(4, np.float32), np.float32(2), np.int32(4)))


def test_scalars_are_passed_as_cupy_passes_them():
    x = np.ones(4, dtype=np.float32)
    kernel("scale")((1,), (32,), (x, np.float32(2.5), 4))  # a Python int is an int64, read as its low int
    assert x.tolist() == [2.5] * 4
    kernel("scale")((1,), (32,), (x, 2.5, 4))  # a Python float is a double: the kernel reads half of it
    assert x.tolist() != [6.25] * 4


def test_a_compile_error_names_the_line():
    with pytest.raises(KernelError, match="kernel.cu:2"):
        RawKernel('extern "C" __global__ void broken(int* x) {\n    x[0] = undeclared;\n}\n', "broken")(
            (1,), (1,), (np.zeros(1, np.int32),)
        )
