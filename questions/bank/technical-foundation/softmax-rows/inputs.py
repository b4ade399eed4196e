import numpy as np

COLUMNS = 64


def make_inputs(size, seed):
    """`size` rows of 64 logits. Every 7th row is shifted up by 1000 and every 11th
    down by 1000, so exp without the max shift overflows (inf/inf) or underflows (0/0)."""
    rng = np.random.default_rng(seed)
    z = rng.standard_normal((size, COLUMNS)) * 30.0
    z[::7] += 1000.0
    z[5::11] -= 1000.0
    return (z,)


def edge_cases():
    return [
        (np.zeros((0, COLUMNS)),),
        (np.array([[3.0]]),),  # one column: softmax is 1
        (np.array([[1e300, -1e300, 0.0]]),),  # huge spread: one 1.0, the rest 0
        (np.full((3, 5), -745.0),),  # equal logits: uniform, even where exp(-745) underflows
        (np.array([[0.0, np.log(3.0)], [-0.0, 0.0]]),),
        (np.arange(12.0).reshape(3, 4)[:, ::-1].copy(),),
    ]
