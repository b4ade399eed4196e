import cupy as cp

# One block scans one row, one element a thread: each warp scans its 32 values
# with shuffles, the warps' totals are scanned by warp 0 in shared memory, and
# each thread adds the total of the warps before its own. Two barriers, log2(32)
# shuffle steps twice, every value in a register; 64-bit all the way.
_scan_rows = cp.RawKernel(
    r"""
extern "C" __global__ void scan_rows(const int* __restrict__ x, long long* __restrict__ out, int d) {
    __shared__ long long warp_totals[32];
    const int* row = x + (long long)blockIdx.x * d;
    long long* dest = out + (long long)blockIdx.x * d;
    int t = threadIdx.x, lane = t % 32, warp = t / 32;
    long long v = t < d ? (long long)row[t] : 0;  // idle threads scan zeros: every lane shuffles
    for (int offset = 1; offset < 32; offset <<= 1) {
        long long up = __shfl_up_sync(0xffffffffu, v, offset);
        if (lane >= offset) v += up;
    }
    if (lane == 31) warp_totals[warp] = v;
    __syncthreads();  // every warp's total is in before warp 0 scans them
    if (warp == 0) {
        int warps = blockDim.x / 32;
        long long total = lane < warps ? warp_totals[lane] : 0;
        for (int offset = 1; offset < 32; offset <<= 1) {
            long long up = __shfl_up_sync(0xffffffffu, total, offset);
            if (lane >= offset) total += up;
        }
        if (lane < warps) warp_totals[lane] = total;  // inclusive: warps 0..lane
    }
    __syncthreads();  // the scanned totals are in before anyone reads them
    if (warp > 0) v += warp_totals[warp - 1];
    if (t < d) dest[t] = v;
}
""",
    "scan_rows",
)


def row_prefix_sums(x):
    n, d = x.shape
    out = cp.empty((n, d), dtype=cp.int64)
    if n:
        threads = (d + 31) // 32 * 32
        _scan_rows((n,), (threads,), (x, out, cp.int32(d)))
    return out
