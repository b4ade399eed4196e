def count_keys(keys):
    """Count how often each integer in `keys` occurs.

    `keys` is a list of Python ints (possibly negative, possibly wider than 64
    bits) and must not be modified. Return (unique_keys, counts): unique_keys
    sorted ascending, counts[i] the occurrences of unique_keys[i].

    This is the reference. The keys are crafted so that they all share one hash
    value, which makes every dict operation scan all keys stored so far.
    """
    counts = {}
    for key in keys:
        counts[key] = counts.get(key, 0) + 1
    unique_keys = sorted(counts)
    return unique_keys, [counts[key] for key in unique_keys]
