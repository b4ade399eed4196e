def _as_exact_ints(values, name):
    """The sequence as a list of Python ints, or a message saying why not."""
    try:
        items = list(values)
    except TypeError:
        return None, f"{name} is not a sequence"
    exact = []
    for position, value in enumerate(items):
        if isinstance(value, bool) or not hasattr(value, "__index__"):
            return None, f"{name}[{position}] is {type(value).__name__}, expected an exact integer"
        exact.append(value.__index__())
    return exact, ""


def check(expected, got, args):
    if not isinstance(got, (tuple, list)) or len(got) != 2:
        return False, "return a pair (unique_keys, counts)"
    expected_keys, expected_counts = expected
    keys, message = _as_exact_ints(got[0], "unique_keys")
    if keys is None:
        return False, message
    counts, message = _as_exact_ints(got[1], "counts")
    if counts is None:
        return False, message
    if len(keys) != len(counts):
        return False, f"unique_keys has {len(keys)} entries but counts has {len(counts)}"
    if keys != list(expected_keys):
        if sorted(set(keys)) == list(expected_keys):
            return False, "unique_keys holds the right keys but not in ascending order (or with repeats)"
        return False, f"unique_keys is not the {len(expected_keys)} distinct keys of the input in ascending order"
    for position, (want, have) in enumerate(zip(expected_counts, counts)):
        if want != have:
            return False, f"count for key {keys[position]} is {have}, expected {want}"
    return True, ""
