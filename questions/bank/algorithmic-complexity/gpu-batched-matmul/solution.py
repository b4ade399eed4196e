import cupy as cp


def batched_matmul(a, b):
    # matmul broadcasts over the leading axis: one batched GEMM for the whole stack.
    return cp.matmul(a, b)
