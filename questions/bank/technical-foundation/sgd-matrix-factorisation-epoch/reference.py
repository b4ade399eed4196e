def sgd_epoch(users, items, ratings, P, Q, lr, reg):
    """One epoch of plain SGD over the ratings, in order, with NumPy row operations."""
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
