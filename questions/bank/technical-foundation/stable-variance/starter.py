def mean_and_variance(x):
    """Return (mean, population variance) of `x`.

    x: 1-D float64 array of n >= 1 finite values (readings around a large offset,
    e.g. 1e9 +- a few); do not modify it.
    Result: a pair of floats; variance = mean((x - mean)**2), divided by n.
    This is the reference: Welford's stable one-pass update, in a Python loop.
    Make it fast without losing accuracy.
    """
    count = 0
    mean = 0.0
    m2 = 0.0
    for value in x.tolist():
        count += 1
        delta = value - mean
        mean += delta / count
        m2 += delta * (value - mean)
    return mean, m2 / count
