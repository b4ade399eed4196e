def count_keys(keys):
    """Count occurrences with a dict: O(1) per key only while the hashes spread."""
    counts = {}
    for key in keys:
        counts[key] = counts.get(key, 0) + 1
    unique_keys = sorted(counts)
    return unique_keys, [counts[key] for key in unique_keys]
