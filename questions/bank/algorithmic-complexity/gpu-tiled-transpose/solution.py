import cupy as cp

TILE = 32
ROWS = 8  # a block is 32 x 8 threads; each thread moves 4 elements of a 32 x 32 tile

# Read a 32 x 32 tile with coalesced loads (a warp reads 32 consecutive floats of a
# row), park it in shared memory, and write it out transposed, again with a warp
# writing 32 consecutive floats. The extra column (33) shifts each tile row by one
# bank, so reading a tile column touches 32 different banks instead of one.
_transpose = cp.RawKernel(
    r"""
#define TILE 32
#define ROWS 8
extern "C" __global__ void transpose(const float* __restrict__ a, float* __restrict__ out,
                                     int rows, int cols) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;  // column of a
    int y = blockIdx.y * TILE + threadIdx.y;  // row of a
    for (int j = 0; j < TILE; j += ROWS) {
        if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = a[(size_t)(y + j) * cols + x];
    }
    __syncthreads();  // the whole tile is in before anyone reads another thread's element
    x = blockIdx.y * TILE + threadIdx.x;      // column of out (a row of a)
    y = blockIdx.x * TILE + threadIdx.y;      // row of out (a column of a)
    for (int j = 0; j < TILE; j += ROWS) {
        if (x < rows && y + j < cols) out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
    }
}
""",
    "transpose",
)


def transpose(a):
    rows, cols = a.shape
    out = cp.empty((cols, rows), dtype=a.dtype)
    if rows and cols:
        grid = ((cols + TILE - 1) // TILE, (rows + TILE - 1) // TILE)
        _transpose(grid, (TILE, ROWS), (a, out, cp.int32(rows), cp.int32(cols)))
    return out
