import cupy as cp


def upload_concat(chunks):
    """Upload every host chunk separately, then join the pieces on the device."""
    if not chunks:
        return cp.empty(0, dtype=cp.float32)
    on_device = [cp.asarray(chunk) for chunk in chunks]
    return cp.concatenate(on_device)
