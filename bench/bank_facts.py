"""Small measurements behind figures quoted in question texts (docs/bank.md lists
which question uses which). Run: .venv/bin/python bench/bank_facts.py

Each measurement is a few seconds on one core; the figures are for this host and
are quoted as orders of magnitude, never as exact values.
"""

import json
import socket
import threading
import time
import tracemalloc

import numpy as np


def peak_extra_arrays(function, x):
    """Peak memory traced while `function(x)` runs, in units of x's size."""
    tracemalloc.start()
    result = function(x)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    del result
    return peak / x.nbytes


def one_liner(x):
    return (x * 2 + 1) ** 2


def named_temporaries(x):
    doubled = x * 2
    shifted = doubled + 1
    return shifted**2


def in_place_chain(x):
    y = x * 2.0
    y += 1.0
    return np.square(y, out=y)


def temporary_elision():
    x = np.random.default_rng(0).random(10_000_000)
    for function in (one_liner, named_temporaries, in_place_chain):
        print(f"  {function.__name__}: peak {peak_extra_arrays(function, x):.2f} extra arrays")


def best_seconds(function, repeats, inner):
    """Fastest batch mean: the host is shared, and slower batches measure the neighbours."""
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(inner):
            function()
        samples.append((time.perf_counter() - start) / inner)
    return min(samples)


def json_round_trip():
    payload = {
        "items": [
            {"id": i, "name": f"item-{i}", "tags": ["a", "bb"], "score": i * 0.5, "active": True} for i in range(60)
        ]
    }
    text = json.dumps(payload)
    seconds = best_seconds(lambda: json.loads(json.dumps(payload)), repeats=9, inner=2000)
    print(f"  json dumps+loads of {len(text)} bytes: {seconds * 1e6:.1f} us (best of 9 batches of 2000)")


def _echo_server(listener):
    connection, _ = listener.accept()
    connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    with connection:
        while data := connection.recv(64):
            connection.sendall(data)


def tcp_round_trip():
    listener = socket.create_server(("127.0.0.1", 0))
    server = threading.Thread(target=_echo_server, args=(listener,), daemon=True)
    server.start()
    client = socket.create_connection(listener.getsockname())
    client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def ping():
        client.sendall(b"x" * 32)
        client.recv(64)

    seconds = best_seconds(ping, repeats=9, inner=2000)
    client.close()
    listener.close()
    print(f"  localhost TCP round trip, 32 bytes, Python both ends: {seconds * 1e6:.1f} us (best of 9 batches of 2000)")


def column_sums_by_column(a):
    """strided-column-sums' reference: one strided column at a time."""
    out = np.empty(a.shape[1])
    for j in range(a.shape[1]):
        out[j] = a[:, j].sum()
    return out


def strided_column_sums():
    for n in (1000, 2000, 4000):
        a = np.random.default_rng(2).standard_normal((n, n))
        by_column = best_seconds(lambda: column_sums_by_column(a), repeats=5, inner=1)
        by_row = best_seconds(lambda: a.sum(axis=0), repeats=5, inner=1)
        print(
            f"  n={n}: column by column {by_column * 1e3:.1f} ms, a.sum(axis=0) {by_row * 1e3:.1f} ms "
            f"({by_column / by_row:.0f}x, best of 5)"
        )


def main():
    print(f"NumPy {np.__version__}")
    print("Column sums of a C-ordered n x n float64 matrix:")
    strided_column_sums()
    print("Temporary elision, (2x+1)^2 on 10 M float64:")
    temporary_elision()
    print("Serialisation and transport:")
    json_round_trip()
    tcp_round_trip()


if __name__ == "__main__":
    main()
