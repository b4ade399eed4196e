CHUNK = 1 << 16


def total(x):
    """Sum in chunks, converting each chunk's sum to a Python float: every float()
    waits for the GPU and copies the partial sum back."""
    result = 0.0
    for start in range(0, x.shape[0], CHUNK):
        result += float(x[start:start + CHUNK].sum())
    return result
