def compact_positive(x):
    """The library way: boolean-mask indexing."""
    return x[x > 0]
