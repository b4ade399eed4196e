"""The bank's exercises graded on several CPUs (front matter `cpus`), in the sandbox:
each model solution is accepted on the CPUs the host gives it, and the mistakes the
texts warn about (a lost update, a race, a split that drops the tail, a pair counted
twice) are not. Most of those mistakes only show with two threads or more; the races
need the threads to run at the same moment, so their inputs are large enough that
they overlap for milliseconds on end."""

import os
import shutil
import textwrap

import pytest

from grader import grading
from questions.loader import default_bank_dir, read_bank
from submissions.states import Verdict

pytestmark = [
    pytest.mark.sandbox,
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed"),
]

MULTICORE_EXERCISES = (
    "per-thread-label-counts",
    "pair-energy-load-balance",
    "sum-of-squares-bandwidth",
    "softplus-many-cores",
)
CPUS_HERE = len(os.sched_getaffinity(0))
needs_two_cpus = pytest.mark.skipif(CPUS_HERE < 2, reason="with one CPU there is one thread, and no race")


def bank_exercise(slug):
    entries, errors = read_bank(default_bank_dir())
    assert not errors, errors
    entry = next(entry for entry in entries if entry.slug == slug)
    return grading.Exercise(slug=slug, spec=entry.spec, files=entry.files)


def check(slug, code):
    return grading.grade(bank_exercise(slug), textwrap.dedent(code), mode="check")


@pytest.mark.parametrize("slug", MULTICORE_EXERCISES)
def test_the_model_solution_is_accepted_on_the_cpus_declared(slug):
    exercise = bank_exercise(slug)
    assert exercise.spec["cpus"] == 2
    report = grading.grade(exercise, exercise.files["solution.py"], mode="check")
    assert report["verdict"] == Verdict.ACCEPTED, report
    assert report["cpus"] == min(2, CPUS_HERE)


#: Wrong whatever the number of threads.
WRONG_ANSWERS = {
    "labels split into chunks of n // chunks: the tail is never counted": (
        "per-thread-label-counts",
        """
        import numpy as np
        from numba import get_num_threads, njit, prange

        @njit(parallel=True, cache=False)
        def _counts(labels, chunks):
            step = labels.shape[0] // chunks
            per_chunk = np.zeros((chunks, 8), np.int64)
            for c in prange(chunks):
                local = np.zeros(8, np.int64)
                for i in range(c * step, (c + 1) * step):
                    local[labels[i]] += 1
                per_chunk[c, :] = local
            return per_chunk.sum(axis=0)

        def count_labels(labels):
            return _counts(labels, 4 * get_num_threads())
        """,
    ),
    "every pair visited from both ends to balance the rows, and not halved": (
        "pair-energy-load-balance",
        """
        import math
        from numba import njit, prange

        @njit(parallel=True, cache=False)
        def pair_energy(points):
            n = points.shape[0]
            total = 0.0
            for i in prange(n):
                for j in range(n):
                    if j != i:
                        dx = points[i, 0] - points[j, 0]
                        dy = points[i, 1] - points[j, 1]
                        dz = points[i, 2] - points[j, 2]
                        total += 1.0 / math.sqrt(dx * dx + dy * dy + dz * dz)
            return total
        """,
    ),
    "per-thread partial sums kept in float32": (
        "sum-of-squares-bandwidth",
        """
        import numpy as np
        from numba import njit, prange

        @njit(parallel=True, cache=False)
        def sum_of_squares(x):
            chunks = 16
            n = x.shape[0]
            step = (n + chunks - 1) // chunks
            partial = np.zeros(chunks, np.float32)
            for c in prange(chunks):
                for i in range(c * step, min(n, (c + 1) * step)):
                    partial[c] += x[i] * x[i]
            return float(partial.sum())
        """,
    ),
}

#: Wrong once two threads run it.
WRONG_WITH_TWO_THREADS = {
    "one shared counter array incremented from every thread (lost updates)": (
        "per-thread-label-counts",
        """
        import numpy as np
        from numba import njit, prange

        @njit(parallel=True, cache=False)
        def count_labels(labels):
            counts = np.zeros(8, np.int64)
            for i in prange(labels.shape[0]):
                counts[labels[i]] += 1
            return counts
        """,
    ),
    "the total kept in a one-element array, which prange does not treat as a reduction": (
        "sum-of-squares-bandwidth",
        """
        import numpy as np
        from numba import njit, prange

        @njit(parallel=True, cache=False)
        def sum_of_squares(x):
            total = np.zeros(1)
            for i in prange(x.shape[0]):
                total[0] += x[i] * x[i]
            return total[0]
        """,
    ),
    "one block of n // threads elements per thread: the tail of the output is never written": (
        "softplus-many-cores",
        """
        import math
        import numpy as np
        from numba import get_num_threads, njit, prange

        @njit(parallel=True, cache=False)
        def _softplus(x, threads):
            out = np.empty_like(x)
            step = x.shape[0] // threads
            for t in prange(threads):
                for i in range(t * step, (t + 1) * step):
                    v = x[i]
                    out[i] = math.log1p(math.exp(-abs(v))) + max(v, 0.0)
            return out

        def softplus(x):
            return _softplus(x, get_num_threads())
        """,
    ),
}


@pytest.mark.parametrize("mistake", WRONG_ANSWERS)
def test_a_plausible_wrong_answer_is_not_accepted(mistake):
    slug, code = WRONG_ANSWERS[mistake]
    report = check(slug, code)
    assert report["verdict"] == Verdict.WRONG_ANSWER, report


#: A race loses updates only while both threads run at once. On a host shared with other
#: work one of them can be held off its CPU for a whole call (three checks in a row once
#: beside a full test run), so a racy answer gets up to this many checks to be caught.
RACE_TRIES = 8


@needs_two_cpus
@pytest.mark.parametrize("mistake", WRONG_WITH_TWO_THREADS)
def test_a_mistake_that_needs_two_threads_is_not_accepted_on_two_cpus(mistake):
    slug, code = WRONG_WITH_TWO_THREADS[mistake]
    verdicts = []
    for _ in range(RACE_TRIES):
        report = check(slug, code)
        assert report["cpus"] == 2
        verdicts.append(report["verdict"])
        if report["verdict"] == Verdict.WRONG_ANSWER:
            break
    assert verdicts[-1] == Verdict.WRONG_ANSWER, verdicts
