def keep_positive(x):
    # Boolean-mask indexing on the device: CuPy computes the mask, scans it for output
    # positions and scatters the survivors; only the count comes back to the host.
    return x[x > 0]
