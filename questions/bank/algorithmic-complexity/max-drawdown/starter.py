def max_drawdown(prices):
    """Return the maximum drawdown of a price series.

    prices: 1-D float64 array of positive, finite prices (may be empty); do not modify it.
    Result: a float, max over t of (peak_t - prices[t]) / peak_t, where peak_t is the
    highest price up to and including t; 0.0 for an empty or never-falling series.
    This is the reference: a Python loop. Make it fast.
    """
    peak = 0.0
    worst = 0.0
    for price in prices.tolist():
        if price > peak:
            peak = price
        drop = (peak - price) / peak
        if drop > worst:
            worst = drop
    return worst
