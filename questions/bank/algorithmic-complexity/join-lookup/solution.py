import numpy as np


def lookup_regions(customer_ids, customer_regions, order_customer_ids):
    if customer_ids.size == 0:
        return np.full(order_customer_ids.shape, -1, dtype=np.int64)
    # Sort the small side once, then binary-search every order in it (a sort-based join).
    order = np.argsort(customer_ids)
    sorted_ids = customer_ids[order]
    position = np.searchsorted(sorted_ids, order_customer_ids)
    position[position == sorted_ids.size] = 0  # past the end: cannot match; any valid slot will do
    found = sorted_ids[position] == order_customer_ids
    return np.where(found, customer_regions[order][position], -1).astype(np.int64, copy=False)
