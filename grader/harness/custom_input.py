"""A quick check on the learner's own input ("Run my input"): a size, a seed, or
literal argument values, run on both sides with the two answers shown side by side.

The input travels in job.json as `custom_input` (check mode only). It is
checked twice by the same rules: by the web side before the submission is
queued (`clean`, so a refusal comes back at once) and again here by the
supervisor, which trusts nothing the host was given (`clean`, then
`literal_arguments` against the types the exercise's own inputs have).

  {"size": 500, "seed": 42}   make_inputs(500, 42); either may be left out
                              (the largest check size; a fresh seed, reported)
  {"args": [[1.0, 2.0], 3]}   one JSON value per argument of the entry point

A size may not exceed the exercise's largest check size: the run has the quick
check's budget. Literal values are converted to exactly what make_inputs gives
at a check size (an array's dtype and number of dimensions, a Python int, float,
bool or str); NaN and infinities are spelt "nan", "inf" and "-inf", as JSON
has no such numbers, and a uint8 array may be given as a string (its UTF-8 bytes).

The report's `custom_input` gives the input, each side's answer as a preview
(dtype, shape, the first elements), whether they match, and each side's call
times: the first call on the input (which may compile) and a second, warm one.
A call's time is the supervisor's clock around it, the grader's own transfers
included: one call each, so a rough figure, never a speedup.
"""

import math
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Literal, TypedDict, cast

import numpy as np
import numpy.typing as npt

from . import failing_call, feedback, input_rules
from .input_rules import CustomInput, Refused, clean, describe, sized_input
from .per_size import Role

if TYPE_CHECKING:
    from .supervisor import Grading

#: Elements of an answer shown in its preview.
PREVIEW_ELEMENTS = 8
#: How a float that JSON cannot carry is spelt.
SPECIAL_FLOATS = {"nan": math.nan, "inf": math.inf, "+inf": math.inf, "-inf": -math.inf}


class TuplePreview(TypedDict):
    kind: Literal["tuple"]
    items: list["Preview"]
    text: str


class ArrayPreview(TypedDict):
    kind: Literal["array"]
    dtype: str
    shape: list[int]
    head: list[str]
    more: int
    text: str


class ValuePreview(TypedDict):
    kind: Literal["value"]
    type: str
    text: str


#: An answer as the report previews it (see preview).
Preview = TuplePreview | ArrayPreview | ValuePreview


class SideEntry(TypedDict):
    """One side's answer on the input and its two call times (the warm one None
    when the first call already failed)."""

    answer: Preview
    first_call_s: float
    seconds: float | None


class CustomInputEntry(TypedDict):
    """The report's `custom_input`."""

    size: int | None
    seed: int | None
    arguments: list[str]
    match: bool | None
    mismatch: str
    reference: SideEntry | None
    submission: SideEntry | None


def literal_arguments(values: Sequence[object], sample: Sequence[object], names: Sequence[str]) -> tuple[object, ...]:
    """The learner's literal `values` as arguments of exactly the types in `sample`
    (make_inputs' arguments at a check size); Refused saying which argument does not fit."""
    if len(values) != len(sample):
        raise Refused(f"The function takes {len(sample)} arguments; your input gives {len(values)}.")
    return tuple(
        _convert(value, like, names[position] if position < len(names) else f"argument {position + 1}")
        for position, (value, like) in enumerate(zip(values, sample, strict=True))
    )


def _convert(value: object, like: object, name: str) -> object:
    if isinstance(like, np.ndarray):
        return _array(value, like, name)
    if isinstance(like, (bool, np.bool_)):
        if not isinstance(value, bool):
            raise Refused(f"{name} must be true or false.")
        return type(like)(value)
    if isinstance(like, (int, np.integer)):
        if not input_rules.is_int(value):
            raise Refused(f"{name} must be a whole number.")
        if isinstance(like, np.integer):
            _in_range(value, np.dtype(type(like)), name)
            return type(like)(value)
        return value
    if isinstance(like, (float, np.floating)):
        number = _float(value)
        if number is None:
            raise Refused(f'{name} must be a number ("nan", "inf" and "-inf" spelt as strings).')
        return type(like)(number)
    if isinstance(like, str):
        if not isinstance(value, str):
            raise Refused(f"{name} must be a string.")
        return value
    raise Refused(f"{name} ({type(like).__name__}) cannot be given as a literal here; give a size and a seed instead.")


def _array(value: object, like: npt.NDArray[np.generic], name: str) -> npt.NDArray[np.generic]:
    dtype = like.dtype
    if isinstance(value, str) and dtype == np.uint8 and like.ndim == 1:
        return np.frombuffer(value.encode("utf-8"), dtype=np.uint8).copy()
    what = f"a {like.ndim}-D array of {dtype.name}" + (" (a list of lists)" if like.ndim == 2 else "")
    if dtype.kind not in "biuf":
        raise Refused(f"{name} ({dtype.name} array) cannot be given as a literal here; give a size and a seed instead.")
    if not isinstance(value, list):
        raise Refused(f"{name} must be {what}.")
    if value == [] and like.ndim > 1:
        return np.empty((0,) + like.shape[1:], dtype=dtype)
    shape = _shape(value, name)
    if len(shape) != like.ndim:
        raise Refused(f"{name} must be {what}; yours has {len(shape)} dimension{'s' if len(shape) != 1 else ''}.")
    flat = [_element(item, dtype, name) for item in _flatten(value)]
    return np.array(flat, dtype=dtype).reshape(shape)


def _shape(value: object, name: str) -> tuple[int, ...]:
    """The shape of nested lists, refusing ragged ones."""
    if not isinstance(value, list):
        return ()
    inner = {_shape(item, name) for item in value}
    if len(inner) > 1:
        raise Refused(f"{name}'s rows must all have the same length.")
    return (len(value),) + (inner.pop() if inner else ())


def _flatten(value: object) -> Iterator[object]:
    if isinstance(value, list):
        for item in value:
            yield from _flatten(item)
    else:
        yield value


def _element(item: object, dtype: np.dtype[np.generic], name: str) -> bool | int | float:
    if dtype.kind == "b":
        if not isinstance(item, bool):
            raise Refused(f"{name} holds booleans: give true or false, not {item!r}.")
        return item
    if dtype.kind in "iu":
        if not input_rules.is_int(item):
            raise Refused(f"{name} holds {dtype.name} values: give whole numbers, not {item!r}.")
        _in_range(item, cast("np.dtype[np.integer]", dtype), name)  # an integer dtype: kind i or u
        return item
    number = _float(item)
    if number is None:
        raise Refused(
            f'{name} holds {dtype.name} values: give numbers ("nan", "inf", "-inf" as strings), not {item!r}.'
        )
    return number


def _float(value: object) -> float | None:
    if isinstance(value, str):
        return SPECIAL_FLOATS.get(value.strip().lower())
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _in_range(number: int, dtype: np.dtype[np.integer], name: str) -> None:
    limits = np.iinfo(dtype)
    if not limits.min <= number <= limits.max:
        raise Refused(
            f"{name} holds {dtype.name} values, from {limits.min:,} to {limits.max:,}; {number:,} is outside."
        )


def preview(value: object) -> Preview:
    """An answer, readable at a glance: its kind, dtype and shape, its first
    elements and how many more there are, and the whole in one line (`text`)."""
    if isinstance(value, tuple):
        items = [preview(item) for item in value]
        return {"kind": "tuple", "items": items, "text": "(" + "; ".join(item["text"] for item in items) + ")"}
    if isinstance(value, np.ndarray):
        flat = value.reshape(-1)
        head = [
            failing_call._element(flat[i]) if value.dtype.kind in "biufc" else repr(flat[i])
            for i in range(min(flat.size, PREVIEW_ELEMENTS))
        ]
        more = int(flat.size - len(head))
        shape = list(value.shape)
        listed = "[" + ", ".join(head) + (f", … {more:,} more" if more else "") + "]"
        return {
            "kind": "array",
            "dtype": value.dtype.name,
            "shape": shape,
            "head": head,
            "more": more,
            "text": f"{value.dtype.name} array, shape {_shape_text(shape)}: {listed}",
        }
    text = failing_call._value(value)
    if len(text) > failing_call.MAX_CHARS:
        text = text[: failing_call.MAX_CHARS] + failing_call.CUT
    return {"kind": "value", "type": type(value).__name__, "text": text}


def _shape_text(shape: Sequence[int]) -> str:
    return "(" + ", ".join(str(n) for n in shape) + ("," if len(shape) == 1 else "") + ")"


def side_entry(value: object, first_call_s: float, warm_s: float | None) -> SideEntry:
    return {"answer": preview(value), "first_call_s": first_call_s, "seconds": warm_s}


def matched_message(custom: CustomInput) -> str:
    return (
        f"Your code and the reference ran on {describe(custom)}: the answers match. "
        "Each side was called twice on it (the first call may compile); the times are one call each, "
        "so a rough figure: submit for a measured speedup."
    )


def reference_refused(custom: CustomInput, failure: Mapping[str, object] | None) -> str:
    """Why the reference's own failure on literal values is the input's doing:
    the last line of its traceback (the exception), for the learner."""
    detail = str((failure or {}).get("reference") or "").strip().splitlines()
    cause = detail[-1][:300] if detail else "it failed"
    return (
        f"The reference could not run on {describe(custom)} ({cause}), so they are outside what this exercise "
        "takes: check them against the contract in the prompt."
    )


def run(grading: "Grading") -> None:
    """Runs the job's custom input on both sides of `grading` (a supervisor.Grading
    in check mode, its runners loaded), twice, and writes `custom_input` and the
    message into its report. Ends the grading (supervisor.Finished) when the input
    is refused, either side fails, or the answers differ: the report then still
    shows both answers when both sides answered."""
    from .supervisor import Finished  # the supervisor imports this module

    job, report = grading.job, grading.report
    try:
        custom = clean(job.custom_input, max(job.sizes))
        if custom["args"] is None:
            custom = sized_input(custom, job.sizes)
            args = _as_tuple(grading.inputs.make_inputs(custom["size"], custom["seed"]))
        else:
            sample = _as_tuple(grading.inputs.make_inputs(min(job.sizes), 0))
            args = literal_arguments(custom["args"], sample, grading.parameter_names)
    except Refused as exc:
        raise Finished(feedback.REJECTED, f"Your input was refused: {exc}") from None
    entry: CustomInputEntry = {
        "size": custom["size"],
        "seed": custom["seed"],
        "arguments": failing_call.call_fields(args, grading.parameter_names)["arguments"],
        "match": None,
        "mismatch": "",
        "reference": None,
        "submission": None,
    }
    report["custom_input"] = entry
    first: dict[Role, float] = {}
    role: Role
    for new_input in (True, False):
        grading.last_outcomes = None
        try:
            outcomes = grading._checked_pair(args, "your input", None, ("reference", "submission"), new_input=new_input)
        except Finished as finished:
            if (
                custom["args"] is not None
                and finished.verdict == feedback.INTERNAL_ERROR
                and "reference" in (finished.failure or {})
            ):
                raise Finished(feedback.REJECTED, reference_refused(custom, finished.failure)) from None
            shown = grading.last_outcomes
            if finished.verdict == feedback.WRONG_ANSWER and shown is not None:
                entry["match"], entry["mismatch"] = False, finished.message
                for role in ("reference", "submission"):
                    seconds = shown[role].seconds
                    entry[role] = side_entry(
                        shown[role].value, first.get(role, seconds), None if new_input else seconds
                    )
            raise
        for role in ("reference", "submission"):
            if new_input:
                first[role] = outcomes[role].seconds
            else:
                entry[role] = side_entry(outcomes[role].value, first[role], outcomes[role].seconds)
    entry["match"] = True
    report["message"] = matched_message(custom)
    report["sizes"] = []


def _as_tuple(args: object) -> tuple[object, ...]:
    return tuple(args) if isinstance(args, (tuple, list)) else (args,)
