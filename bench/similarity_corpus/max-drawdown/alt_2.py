from numba import njit


@njit(cache=True)
def _scan(p):
    best_peak = p[0]
    answer = 0.0
    for t in range(1, p.shape[0]):
        v = p[t]
        if v > best_peak:
            best_peak = v
        elif (best_peak - v) / best_peak > answer:
            answer = (best_peak - v) / best_peak
    return answer


def max_drawdown(prices):
    return 0.0 if prices.size == 0 else float(_scan(prices))
