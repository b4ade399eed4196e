def squared_distance(x, y):
    """Return sum((x - y) ** 2) as a float.

    x, y: 1-D float64 arrays of the same length n >= 0, finite; do not modify them.
    This is the reference: it builds an n-element temporary. Use less memory, and
    less time.
    """
    return float(((x - y) ** 2).sum())
