import numpy as np


def max_drawdown(prices):
    if not prices.size:
        return 0.0
    tops = np.maximum.accumulate(prices)
    return float(np.max((tops - prices) / tops))
