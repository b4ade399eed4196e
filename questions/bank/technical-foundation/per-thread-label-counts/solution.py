import numpy as np
from numba import get_num_threads, njit, prange

NUM_LABELS = 8
#: Chunks per thread: a few, so a thread held up by another process does not
#: leave the others waiting for its single large chunk.
CHUNKS_PER_THREAD = 4


@njit(parallel=True, cache=False)
def _count_labels(labels, chunks):
    n = labels.shape[0]
    step = (n + chunks - 1) // chunks
    per_chunk = np.zeros((chunks, NUM_LABELS), np.int64)
    for c in prange(chunks):
        # Counters private to this chunk: no other thread writes near them, so
        # their cache line never moves between cores while the loop runs.
        local = np.zeros(NUM_LABELS, np.int64)
        # Iterating over the chunk's slice compiles to the same tight loop as the
        # reference's; indexing the whole array by a computed range was slower.
        for label in labels[c * step : min(n, (c + 1) * step)]:
            local[label] += 1
        per_chunk[c, :] = local  # one write per chunk into shared memory
    return per_chunk.sum(axis=0)


def count_labels(labels):
    return _count_labels(labels, CHUNKS_PER_THREAD * get_num_threads())
