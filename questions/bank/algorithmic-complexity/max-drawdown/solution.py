import numpy as np


def max_drawdown(prices):
    if prices.size == 0:
        return 0.0
    # The running peak is a prefix maximum: one compiled scan.
    peaks = np.maximum.accumulate(prices)
    drops = peaks - prices
    drops /= peaks
    return float(drops.max())
