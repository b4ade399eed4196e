import numpy as np


def lookup_regions(customer_ids, customer_regions, order_customer_ids):
    """Attach each order's customer region.

    customer_ids: 1-D int64 array of distinct ids, in no particular order (sparse, up to 2**62).
    customer_regions: 1-D int64 array, the region of each customer (same length).
    order_customer_ids: 1-D int64 array, the customer of each order; may name unknown customers.
    Do not modify any argument.
    Result: int64 array with one region per order, -1 where the customer is unknown.
    This is the reference: a dict built and probed in Python. Make it fast.
    """
    region_of = dict(zip(customer_ids.tolist(), customer_regions.tolist()))
    return np.array([region_of.get(customer, -1) for customer in order_customer_ids.tolist()], dtype=np.int64)
