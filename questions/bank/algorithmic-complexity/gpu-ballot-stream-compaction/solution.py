import cupy as cp

THREADS = 256
ROUNDS = 8
TILE = THREADS * ROUNDS  # elements a block handles

# Pass 1 counts each tile's kept values, a warp at a time: __ballot_sync gives the
# warp's 32 predicates as one 32-bit word and __popc counts it.
_count = cp.RawKernel(
    r"""
extern "C" __global__ void count_positive(const float* __restrict__ x, long long n, int* __restrict__ counts) {
    __shared__ int warp_counts[8];
    long long base = (long long)blockIdx.x * 2048;
    int count = 0;
    for (int r = 0; r < 8; ++r) {
        long long i = base + r * 256 + threadIdx.x;
        count += __popc(__ballot_sync(0xffffffffu, i < n && x[i] > 0.0f));
    }
    if (threadIdx.x % 32 == 0) warp_counts[threadIdx.x / 32] = count;
    __syncthreads();  // every warp's count is in before thread 0 adds them
    if (threadIdx.x == 0) {
        int total = 0;
        for (int w = 0; w < 8; ++w) total += warp_counts[w];
        counts[blockIdx.x] = total;
    }
}
""",
    "count_positive",
)

# Pass 2 places them: a kept value's position is its tile's start, plus the kept
# values of the earlier rounds, of the earlier warps in this round, and of the
# lower lanes of its own warp (the ballot's bits below its own).
_scatter = cp.RawKernel(
    r"""
extern "C" __global__ void scatter_positive(const float* __restrict__ x, long long n,
                                            const long long* __restrict__ starts, float* __restrict__ out) {
    __shared__ int warp_counts[8];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    unsigned int lower = (1u << lane) - 1u;
    long long base = (long long)blockIdx.x * 2048;
    long long next = starts[blockIdx.x];
    for (int r = 0; r < 8; ++r) {
        long long i = base + r * 256 + threadIdx.x;
        float v = i < n ? x[i] : 0.0f;
        bool keep = v > 0.0f;
        unsigned int ballot = __ballot_sync(0xffffffffu, keep);
        if (lane == 0) warp_counts[warp] = __popc(ballot);
        __syncthreads();  // every warp's count for this round is in
        int before = 0, round = 0;
        for (int w = 0; w < 8; ++w) {
            int c = warp_counts[w];
            before += w < warp ? c : 0;
            round += c;
        }
        if (keep) out[next + before + __popc(ballot & lower)] = v;
        next += round;
        __syncthreads();  // everyone has read this round's counts before the next overwrites them
    }
}
""",
    "scatter_positive",
)


def compact_positive(x):
    n = x.shape[0]
    if n == 0:
        return cp.empty(0, dtype=cp.float32)
    blocks = (n + TILE - 1) // TILE
    counts = cp.empty(blocks, dtype=cp.int32)
    _count((blocks,), (THREADS,), (x, n, counts))
    ends = cp.cumsum(counts, dtype=cp.int64)  # a scan of one value per 2 048 elements
    total = int(ends[-1])  # the one wait for the host: the result's length
    out = cp.empty(total, dtype=cp.float32)
    if total:
        _scatter((blocks,), (THREADS,), (x, n, ends - counts, out))
    return out
