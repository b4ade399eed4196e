"""The failing call, written so the learner can make it again.

A wrong answer or an exception on an input is only useful feedback when the
learner can reproduce it: "a tiny input (size 1)" is not enough. So the report
names each argument as the reference names it and gives its value as Python
that rebuilds it exactly (`x = np.array([0.5, np.nan], dtype=np.float64)`):
shortest round-tripping digits, NaN and infinities spelt as NumPy names. On a
wrong answer both whole answers follow when they are as small, so a result
shifted by one place or reversed shows at a glance. Arrays past
SHOWN_ELEMENTS are described by dtype and shape instead; at that size a
learner reruns the reference on an input of their own.
"""

import math
from collections.abc import Iterable, Sequence
from typing import TypedDict, cast

import numpy as np
import numpy.typing as npt

#: An array with at most this many elements is shown in full.
SHOWN_ELEMENTS = 32
#: Ends the line of an argument too large to give in full.
DESCRIBED = " (too large to list)"
#: Any one argument's text is cut to this many characters (a huge int, say).
MAX_CHARS = 600
CUT = " … (cut short)"


class CallFields(TypedDict):
    """The failing call's arguments in a report's failure (call_fields)."""

    arguments: list[str]
    arguments_complete: bool


class AnswerFields(TypedDict, total=False):
    """Both whole answers in a report's failure, when small enough (answer_fields)."""

    expected_answer: str
    got_answer: str


def call_fields(args: Iterable[object], names: Sequence[str]) -> CallFields:
    """The report's failure fields for a call on `args`: `arguments`, one line per
    argument, and `arguments_complete`, whether every value is given in full."""
    lines = describe(args, names)
    return {"arguments": lines, "arguments_complete": all(_complete(line) for line in lines)}


def answer_fields(expected: object, got: object) -> AnswerFields:
    """The reference's answer and the submission's, in full (`expected_answer`,
    `got_answer`), when both are small enough to read whole; else nothing."""
    texts = [_value(expected), _value(got)]
    if not all(len(text) <= MAX_CHARS and _complete(text) for text in texts):
        return {}
    return {"expected_answer": texts[0], "got_answer": texts[1]}


def _complete(text: str) -> bool:
    return DESCRIBED not in text and not text.endswith(CUT)


def describe(args: Iterable[object], names: Sequence[str]) -> list[str]:
    """One `name = value` line per argument of the failing call."""
    lines: list[str] = []
    for position, value in enumerate(args):
        name = names[position] if position < len(names) else f"argument {position + 1}"
        text = _value(value)
        if len(text) > MAX_CHARS:
            text = text[:MAX_CHARS] + CUT
        lines.append(f"{name} = {text}")
    return lines


def _value(value: object) -> str:
    if isinstance(value, np.ndarray):
        return _array(value)
    if isinstance(value, np.generic):
        return f"{_dtype(value.dtype)}({_scalar(value.item())})"
    if isinstance(value, tuple):
        items = ", ".join(_value(item) for item in value)
        return f"({items},)" if len(value) == 1 else f"({items})"
    if isinstance(value, list):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    if value is None or isinstance(value, (bool, int, float, complex, str)):
        return _scalar(value)
    return f"a {type(value).__name__}"


def _array(array: npt.NDArray[np.generic]) -> str:
    if array.size > SHOWN_ELEMENTS or array.dtype.kind not in "biufc":
        shape = "(" + ", ".join(str(n) for n in array.shape) + ("," if array.ndim == 1 else "") + ")"
        return f"a {array.dtype.name} array of shape {shape}{DESCRIBED}"
    if array.size == 0:
        return f"np.empty({tuple(array.shape)}, dtype={_dtype(array.dtype)})"
    return f"np.array({_nested(array)}, dtype={_dtype(array.dtype)})"


def _dtype(dtype: np.dtype[np.generic]) -> str:
    # np.bool_ is the one spelling of the boolean type NumPy 1 and 2 both have.
    return "np.bool_" if dtype.kind == "b" else f"np.{dtype.name}"


def _nested(array: npt.NDArray[np.generic]) -> str:
    if array.ndim == 0:
        # A 0-d array indexed by () gives its NumPy scalar (NumPy's stubs say an array).
        return _element(cast(np.generic, array[()]))
    return "[" + ", ".join(_nested(row) for row in array) + "]"


def _element(value: np.generic) -> str:
    """A NumPy scalar's shortest exact spelling (NumPy's str of a scalar round-trips)."""
    if value.dtype.kind == "c" and not np.isfinite(value):
        return f"complex({_scalar(float(value.real))}, {_scalar(float(value.imag))})"
    if value.dtype.kind == "f":
        return _scalar(float(value)) if not np.isfinite(value) else str(value)
    return str(value)


def _scalar(value: object) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        return "np.nan" if math.isnan(value) else ("np.inf" if value > 0 else "-np.inf")
    return repr(value)
