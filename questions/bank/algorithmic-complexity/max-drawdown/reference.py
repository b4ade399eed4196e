def max_drawdown(prices):
    """Largest fall from a running peak, as a fraction of that peak: one pass, in Python."""
    peak = 0.0
    worst = 0.0
    for price in prices.tolist():
        if price > peak:
            peak = price
        drop = (peak - price) / peak
        if drop > worst:
            worst = drop
    return worst
