from numba import njit


@njit(cache=False)
def _epoch(users, items, ratings, P, Q, lr, reg):
    k = P.shape[1]
    for n in range(ratings.shape[0]):
        u = users[n]
        i = items[n]
        prediction = 0.0
        for f in range(k):
            prediction += P[u, f] * Q[i, f]
        error = ratings[n] - prediction
        for f in range(k):
            # Both updates must see the values from before this step.
            p = P[u, f]
            q = Q[i, f]
            P[u, f] = p + lr * (error * q - reg * p)
            Q[i, f] = q + lr * (error * p - reg * q)


def sgd_epoch(users, items, ratings, P, Q, lr, reg):
    P = P.copy()
    Q = Q.copy()
    _epoch(users, items, ratings, P, Q, lr, reg)
    return P, Q
