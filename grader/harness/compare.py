"""Is the submission's answer the reference's answer?

Runs in the supervisor on values decoded by ipc.decode (plain ndarrays and
numbers only). An exercise's check.py, when present, replaces the value
comparison but not the type check: whatever it says, an answer must be the
same kind of thing as the reference's.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypedDict, cast

import numpy as np
import numpy.typing as npt

from .ipc import UnsupportedValue, same_bytes
from .job import Tolerance

KIND_NAMES = {"b": "boolean", "i": "signed integer", "u": "unsigned integer", "f": "floating-point", "c": "complex"}
SCALAR_TYPES = (bool, int, float, complex, np.generic)


#: An exercise's check.py `check(expected, got, args)`: whether the answer is
#: acceptable, and what to tell the learner when it is not.
CustomCheck = Callable[[object, object, tuple[object, ...]], tuple[bool, str]]


class Failure(TypedDict, total=False):
    """What a mismatch records for the report, by the kind of mismatch: a value the
    codec refused (returned), a checker's verdict (check) or wrong values (the rest)."""

    returned: str
    check: str
    shape: list[int]
    index: list[int]
    expected: str
    got: str
    tolerance: Tolerance
    mismatches: int
    total: int


@dataclass
class Mismatch:
    message: str
    failure: Failure = field(default_factory=Failure)


#: Added when the whole answer is None where the reference returns something.
NO_RETURN_NOTE = " A function that reaches its end without a `return` statement returns None: return the result."


def compare(
    expected: object,
    got: object,
    tolerance: Tolerance,
    custom_check: CustomCheck | None = None,
    args: tuple[object, ...] = (),
) -> Mismatch | None:
    """None when `got` is acceptable, else a Mismatch saying why."""
    problem = _check_structure(expected, got, "")
    if problem:
        if got is None:  # the whole answer, not an item of a tuple
            return Mismatch(problem.message + NO_RETURN_NOTE, problem.failure)
        return problem
    if custom_check is not None:
        return _run_custom_check(custom_check, expected, got, args)
    return _compare_values(expected, got, tolerance, "")


def _describe(value: object) -> str:
    if isinstance(value, UnsupportedValue):
        return value.what
    if isinstance(value, np.ndarray):
        return f"a numpy array of dtype {value.dtype} and shape {value.shape}"
    if isinstance(value, tuple):
        return f"a tuple of {len(value)} items"
    if value is None:
        return "None"
    return f"a {type(value).__name__}"


def _check_structure(expected: object, got: object, where: str) -> Mismatch | None:
    if isinstance(got, UnsupportedValue):
        return Mismatch(
            f"Your function returned {got.what}{where}; expected {_describe(expected)}.", {"returned": got.what}
        )
    if isinstance(expected, np.ndarray):
        if not isinstance(got, np.ndarray):
            return Mismatch(f"Your function returned {_describe(got)}{where}; expected a numpy.ndarray.")
        if got.dtype.kind != expected.dtype.kind:
            return Mismatch(
                f"Your function returned a {KIND_NAMES[got.dtype.kind]} array ({got.dtype}){where}; "
                f"expected a {KIND_NAMES[expected.dtype.kind]} array ({expected.dtype})."
            )
        if got.shape != expected.shape:
            return Mismatch(
                f"Your function returned an array of shape {got.shape}{where}; expected shape {expected.shape}."
            )
        return None
    if isinstance(expected, tuple):
        if not isinstance(got, tuple) or len(got) != len(expected):
            return Mismatch(
                f"Your function returned {_describe(got)}{where}; expected a tuple of {len(expected)} items."
            )
        for position, (want, have) in enumerate(zip(expected, got)):
            problem = _check_structure(want, have, f" (item {position} of the tuple)")
            if problem:
                return problem
        return None
    if expected is None:
        return None if got is None else Mismatch(f"Your function returned {_describe(got)}{where}; expected None.")
    if isinstance(expected, SCALAR_TYPES):
        if isinstance(got, np.ndarray) or not isinstance(got, SCALAR_TYPES):
            return Mismatch(f"Your function returned {_describe(got)}{where}; expected a single number.")
        return None
    return Mismatch(f"The reference returned {_describe(expected)}, which the grader cannot compare.")


def _compare_values(expected: object, got: object, tolerance: Tolerance, where: str) -> Mismatch | None:
    if isinstance(expected, tuple):
        # _check_structure has matched got to expected: a tuple of as many items.
        for position, (want, have) in enumerate(zip(expected, cast("tuple[object, ...]", got))):
            problem = _compare_values(want, have, tolerance, f" (item {position} of the tuple)")
            if problem:
                return problem
        return None
    if expected is None:
        return None
    want = np.asarray(expected)
    have = np.asarray(got)
    if same_bytes(want, have):  # the common case, at a fraction of np.isclose's cost
        return None
    bad = mismatches(want, have, tolerance)
    if not bad.any():
        return None
    flat = int(np.argmax(bad.reshape(-1)))
    index = [int(i) for i in np.unravel_index(flat, want.shape)] if want.ndim else []
    expected_text = format_number(want.reshape(-1)[flat])
    got_text = format_number(have.reshape(-1)[flat])
    count = int(bad.sum())
    at_index = f" at index {index}" if index else ""
    message = (
        f"Wrong value{at_index}{where}: expected {expected_text}, got {got_text} "
        f"(tolerance rtol={tolerance['rtol']:g}, atol={tolerance['atol']:g}); {count} of {want.size} values differ."
    ) + _precision_note(want.dtype, have.dtype)
    failure: Failure = {
        "shape": list(want.shape),
        "index": index,
        "expected": expected_text,
        "got": got_text,
        "tolerance": {"rtol": tolerance["rtol"], "atol": tolerance["atol"]},
        "mismatches": count,
        "total": int(want.size),
    }
    return Mismatch(message, failure)


def _precision_note(expected: np.dtype[np.generic], got: np.dtype[np.generic]) -> str:
    """Why the values may differ when the answer is a narrower float than the
    reference's: float32 keeps about 7 significant digits, float64 about 16."""
    if got.kind not in "fc" or got.kind != expected.kind or got.itemsize >= expected.itemsize:
        return ""
    return (
        f" Your array is {got}, the reference's {expected}: {got} cannot hold the digits this tolerance "
        f"asks for, so compute in {expected} and return {expected}."
    )


#: Elements per block of the float64 fast path: two scratch blocks of this
#: size stay in cache while every block is compared.
COMPARE_BLOCK = 1 << 16


def mismatches(
    want: npt.NDArray[np.generic], have: npt.NDArray[np.generic], tolerance: Tolerance
) -> npt.NDArray[np.bool_]:
    """Boolean mask of wrong values. An integer or boolean answer must be
    exact, whatever type the submission gave it in (a tolerance relative to
    10**12 would accept an off-by-one count); floats within tolerance, NaN only
    where NaN is expected, inf only where the same-signed inf is expected
    (np.isclose already treats infs so)."""
    if want.dtype.kind in "biu":
        unequal: npt.NDArray[np.bool_] = want != have
        return unequal
    if want.dtype == have.dtype == np.float64 and want.size:
        # Both float64, as the condition says (mypy does not narrow on dtype comparisons).
        both = cast("npt.NDArray[np.float64]", want), cast("npt.NDArray[np.float64]", have)
        return _float64_mismatches(*both, tolerance["rtol"], tolerance["atol"])
    return _isclose_mismatches(want, have, tolerance["rtol"], tolerance["atol"])


def _isclose_mismatches(
    want: npt.NDArray[np.generic], have: npt.NDArray[np.generic], rtol: float, atol: float
) -> npt.NDArray[np.bool_]:
    with np.errstate(invalid="ignore", over="ignore"):
        outside: npt.NDArray[np.bool_] = ~np.isclose(have, want, rtol=rtol, atol=atol, equal_nan=True)
    return outside


def _float64_mismatches(
    want: npt.NDArray[np.float64], have: npt.NDArray[np.float64], rtol: float, atol: float
) -> npt.NDArray[np.bool_]:
    """np.isclose's answer at a fraction of its cost (it makes several
    full-size temporaries; comparing every answer of a grading with it took
    seconds at 6.4 M elements): |have - want| <= atol + rtol * |want| in
    cache-sized blocks, which is exactly np.isclose for finite values. Whatever
    that test does not pass (NaN, infinities, real mismatches) is decided by
    np.isclose itself, element by element."""
    want_flat, have_flat = want.reshape(-1), have.reshape(-1)
    suspect = np.empty(want_flat.size, dtype=bool)
    difference = np.empty(min(COMPARE_BLOCK, want_flat.size))
    allowed = np.empty_like(difference)
    with np.errstate(invalid="ignore", over="ignore"):
        for start in range(0, want_flat.size, COMPARE_BLOCK):
            stop = min(start + COMPARE_BLOCK, want_flat.size)
            d, a = difference[: stop - start], allowed[: stop - start]
            np.subtract(have_flat[start:stop], want_flat[start:stop], out=d)
            np.abs(d, out=d)
            np.abs(want_flat[start:stop], out=a)
            a *= rtol
            a += atol
            # Passes only finite comparisons (NaN fails <=; an infinite allowance is not trusted).
            np.less_equal(d, a, out=suspect[start:stop])
            suspect[start:stop] &= a < np.inf
        np.logical_not(suspect, out=suspect)
        where = np.flatnonzero(suspect)
        if where.size:
            suspect[where] = _isclose_mismatches(want_flat[where], have_flat[where], rtol, atol)
    return suspect.reshape(want.shape)


def format_number(value: object) -> str:
    value = value.item() if isinstance(value, np.generic) else value
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, complex):
        return repr(value)
    return str(value)


def _run_custom_check(check: CustomCheck, expected: object, got: object, args: tuple[object, ...]) -> Mismatch | None:
    try:
        outcome = check(expected, got, args)
        ok, message = outcome
    except Exception as exc:
        return Mismatch(f"The exercise's checker rejected your answer: {type(exc).__name__}: {str(exc)[:300]}")
    if ok:
        return None
    return Mismatch(
        str(message)[:1000] or "The exercise's checker rejected your answer.", {"check": str(message)[:1000]}
    )
