import cupy as cp

THREADS = 256

# One block per row. Pass 1 keeps, per thread, a running maximum m and the sum s of
# exp(v - m) over the values it has seen, rescaling s whenever m grows (online
# normalisation); the threads' (m, s) pairs are merged with warp shuffles, then
# across warps through shared memory. Pass 2 writes exp(v - m) / s. The row is read
# twice (the second time mostly from cache) and written once.
_softmax = cp.RawKernel(
    r"""
#define LOWEST (-3.402823466e+38f)  // the most negative float: exp(LOWEST - m) is 0 and never NaN

__device__ __forceinline__ void merge(float& m, float& s, float m2, float s2) {
    float top = fmaxf(m, m2);
    s = s * expf(m - top) + s2 * expf(m2 - top);
    m = top;
}

extern "C" __global__ void softmax_online(const float* __restrict__ z, float* __restrict__ out, int d) {
    __shared__ float warp_m[32], warp_s[32];
    const float* row = z + (size_t)blockIdx.x * d;
    float* dest = out + (size_t)blockIdx.x * d;
    float m = LOWEST, s = 0.0f;
    for (int c = threadIdx.x; c < d; c += blockDim.x) {
        float v = row[c];
        if (v > m) {
            s = s * expf(m - v) + 1.0f;  // the old terms, rescaled to the new maximum, and exp(0)
            m = v;
        } else {
            s += expf(v - m);
        }
    }
    for (int offset = 16; offset > 0; offset >>= 1) {
        float m2 = __shfl_xor_sync(0xffffffffu, m, offset);
        float s2 = __shfl_xor_sync(0xffffffffu, s, offset);
        merge(m, s, m2, s2);
    }
    if (threadIdx.x % 32 == 0) {
        warp_m[threadIdx.x / 32] = m;
        warp_s[threadIdx.x / 32] = s;
    }
    __syncthreads();  // every warp's pair is in before anyone merges them
    m = LOWEST;
    s = 0.0f;
    for (int w = 0; w < blockDim.x / 32; ++w) merge(m, s, warp_m[w], warp_s[w]);
    float inverse = 1.0f / s;
    for (int c = threadIdx.x; c < d; c += blockDim.x) dest[c] = expf(row[c] - m) * inverse;
}
""",
    "softmax_online",
)


def softmax(z):
    n, d = z.shape
    out = cp.empty((n, d), dtype=cp.float32)
    if n:
        _softmax((n,), (THREADS,), (z, out, cp.int32(d)))
    return out
