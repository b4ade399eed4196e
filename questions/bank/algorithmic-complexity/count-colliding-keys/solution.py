from itertools import groupby


def count_keys(keys):
    # Sorting compares keys and never hashes them: O(n log n) whatever the attacker picks.
    unique_keys, counts = [], []
    for key, run in groupby(sorted(keys)):
        unique_keys.append(key)
        counts.append(sum(1 for _ in run))
    return unique_keys, counts
