import numpy as np


def sgd_epoch(users, items, ratings, P, Q, lr, reg):
    """One epoch of SGD for matrix factorisation, visiting ratings in order.

    users, items: int64 arrays (row indices into P and Q); ratings: float64.
    P (n_users, k) and Q (n_items, k): float64 factors. Return new (P, Q);
    do not modify the arguments. For each rating n, with u = users[n], i = items[n]:
        e = ratings[n] - P[u] . Q[i]
        P[u] += lr * (e * Q[i] - reg * P[u])      (using the old P[u] and Q[i])
        Q[i] += lr * (e * P[u] - reg * Q[i])
    This is the reference: every rating costs several small NumPy calls.
    """
    P = P.copy()
    Q = Q.copy()
    for n in range(len(ratings)):
        u = users[n]
        i = items[n]
        p_old = P[u].copy()
        q_row = Q[i]
        error = ratings[n] - p_old @ q_row
        P[u] += lr * (error * q_row - reg * p_old)
        Q[i] += lr * (error * p_old - reg * q_row)
    return P, Q
