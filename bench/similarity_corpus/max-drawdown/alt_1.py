import numpy as np


def max_drawdown(prices):
    n = len(prices)
    if n == 0:
        return 0.0
    running_high = np.empty(n)
    np.maximum.accumulate(prices, out=running_high)
    fall = 1.0 - prices / running_high
    worst = fall.max()
    if worst < 0.0:
        worst = 0.0
    return float(worst)
