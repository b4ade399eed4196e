import cupy as cp

THREADS = 256
TARGET_BLOCKS = 2048  # enough to give every SM of a large GPU a dozen blocks
MIN_CHUNK = 1024  # columns a block sums at least, so its reduction is worth it

# Blocks of 256 threads; block (row, part) sums a chunk of its row with coalesced
# loads (a warp reads 128 contiguous bytes), reduces it with warp shuffles and one
# pass through shared memory, and adds it to the row's total. A few long rows are
# split into several chunks so that the grid still has thousands of blocks.
_row_sums = cp.RawKernel(
    r"""
extern "C" __global__ void row_sums(const float* __restrict__ x, float* __restrict__ out, int d, int chunk) {
    __shared__ float warp_sums[32];
    const float* r = x + (long long)blockIdx.x * d;
    int start = blockIdx.y * chunk;
    int end = min(start + chunk, d);
    float acc = 0.0f;
    for (int c = start + threadIdx.x; c < end; c += blockDim.x) acc += r[c];
    for (int offset = 16; offset > 0; offset >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, offset);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = acc;
    __syncthreads();  // every warp's sum is in before warp 0 adds them
    if (threadIdx.x < 32) {
        acc = threadIdx.x < blockDim.x / 32 ? warp_sums[threadIdx.x] : 0.0f;
        for (int offset = 16; offset > 0; offset >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, offset);
        if (threadIdx.x == 0) atomicAdd(&out[blockIdx.x], acc);
    }
}
""",
    "row_sums",
)


def row_sums(x):
    n, d = x.shape
    out = cp.zeros(n, dtype=cp.float32)  # the blocks of a row add into it
    if n:
        parts = max(1, min((TARGET_BLOCKS + n - 1) // n, (d + MIN_CHUNK - 1) // MIN_CHUNK))
        chunk = (d + parts - 1) // parts
        _row_sums((n, parts), (THREADS,), (x, out, cp.int32(d), cp.int32(chunk)))
    return out
