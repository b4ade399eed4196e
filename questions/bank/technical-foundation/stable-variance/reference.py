def mean_and_variance(x):
    """Mean and population variance in one pass with Welford's update: stable,
    but a Python loop over every value."""
    count = 0
    mean = 0.0
    m2 = 0.0
    for value in x.tolist():
        count += 1
        delta = value - mean
        mean += delta / count
        m2 += delta * (value - mean)
    return mean, m2 / count
