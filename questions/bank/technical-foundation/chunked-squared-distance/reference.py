def squared_distance(x, y):
    """Sum of squared differences, the one-line way: the difference is a full-size
    temporary (squared in place by NumPy's temporary elision), then summed."""
    return float(((x - y) ** 2).sum())
