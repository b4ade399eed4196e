import numpy as np


def max_drawdown(prices):
    if prices.shape[0] == 0:
        return 0.0
    running_high = np.empty(len(prices))
    np.maximum.accumulate(prices, out=running_high)
    fall = 1.0 - prices / running_high
    return max(float(fall.max()), 0.0)
