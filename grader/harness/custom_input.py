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
import os

import numpy as np

from . import failing_call, feedback

#: Seeds are what the supervisor draws for its own calls: four bytes.
MAX_SEED = 2**32 - 1
#: Literal values: elements over all arguments, and an array's dimensions.
MAX_LITERAL_ELEMENTS = 10_000
MAX_DIMENSIONS = 4
#: A literal string argument (or a uint8 array given as text), in characters.
MAX_TEXT_CHARS = 10_000
#: Elements of an answer shown in its preview.
PREVIEW_ELEMENTS = 8
#: How a float that JSON cannot carry is spelt.
SPECIAL_FLOATS = {"nan": math.nan, "inf": math.inf, "+inf": math.inf, "-inf": -math.inf}


def quick_check_sizes(spec):
    """The sizes a quick check runs, from an exercise's front matter (`spec`): its
    `check_sizes`, else its first benchmark size. The largest is the largest size
    a learner's own input may have."""
    return list(spec.get("check_sizes") or spec["sizes"][:1])


class Refused(ValueError):
    """The learner's input is outside what the exercise takes; the message says why."""


def clean(raw, max_size, arity=None):
    """The custom input `raw` (a dict from JSON) in its one form: {"size", "seed",
    "args"}, each None when not given; Refused with a message for the learner when
    it is malformed, too large, or (with `arity`, the entry point's parameter
    count) gives the wrong number of arguments."""
    if not isinstance(raw, dict):
        raise Refused("Give your input as an object with a size and seed, or with args.")
    unknown = sorted(set(raw) - {"size", "seed", "args"})
    if unknown:
        raise Refused(f"Unknown input field {unknown[0]!r}: give a size and seed, or args.")
    size, seed, args = raw.get("size"), raw.get("seed"), raw.get("args")
    if args is not None and (size is not None or seed is not None):
        raise Refused("Give either a size and seed or literal arguments, not both.")
    if args is None and size is None and seed is None:
        raise Refused("Give a size, a seed or literal arguments to run your code on.")
    if args is not None:
        return {"size": None, "seed": None, "args": _clean_args(args, arity)}
    if size is not None:
        if not _is_int(size) or size < 0:
            raise Refused("The size must be a whole number, 0 or more.")
        if size > max_size:
            raise Refused(
                f"The size may be at most {max_size:,} here (the exercise's largest quick-check size): "
                "a run on your input has the quick check's time."
            )
    if seed is not None and (not _is_int(seed) or not 0 <= seed <= MAX_SEED):
        raise Refused(f"The seed must be a whole number from 0 to {MAX_SEED:,}.")
    return {"size": size, "seed": seed, "args": None}


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _clean_args(args, arity):
    if not isinstance(args, list):
        raise Refused("Give the arguments as a list, one value per argument of the function.")
    if arity is not None and len(args) != arity:
        raise Refused(f"The function takes {arity} argument{'s' if arity != 1 else ''}; your input gives {len(args)}.")
    elements = sum(_count(value, 1, position) for position, value in enumerate(args, start=1))
    if elements > MAX_LITERAL_ELEMENTS:
        raise Refused(
            f"Your arguments hold {elements:,} values; at most {MAX_LITERAL_ELEMENTS:,} may be given as literals. "
            "For a larger input give a size and a seed."
        )
    return args


def _count(value, depth, position):
    """Values in one argument, refusing what no argument can be."""
    if isinstance(value, list):
        if depth > MAX_DIMENSIONS:
            raise Refused(f"Argument {position} is nested more than {MAX_DIMENSIONS} lists deep.")
        return sum(_count(item, depth + 1, position) for item in value)
    if isinstance(value, str):
        if len(value) > MAX_TEXT_CHARS:
            raise Refused(f"Argument {position} has a text longer than {MAX_TEXT_CHARS:,} characters.")
        return max(len(value), 1)
    if value is None or isinstance(value, (bool, int, float)):
        return 1
    raise Refused(f"Argument {position} holds a value of a kind an argument cannot be ({type(value).__name__}).")


def describe(custom):
    """The input in words, for messages: 'size 500, seed 42' or 'your arguments'."""
    if custom["args"] is not None:
        return "your arguments"
    return f"size {custom['size']:,}, seed {custom['seed']}"


def sized_input(custom, check_sizes):
    """`custom` with its size and seed filled in: the largest check size and a fresh seed when not given."""
    size = custom["size"] if custom["size"] is not None else max(check_sizes)
    seed = custom["seed"] if custom["seed"] is not None else int.from_bytes(os.urandom(4), "little")
    return {"size": size, "seed": seed, "args": None}


def literal_arguments(values, sample, names):
    """The learner's literal `values` as arguments of exactly the types in `sample`
    (make_inputs' arguments at a check size); Refused saying which argument does not fit."""
    if len(values) != len(sample):
        raise Refused(f"The function takes {len(sample)} arguments; your input gives {len(values)}.")
    return tuple(
        _convert(value, like, names[position] if position < len(names) else f"argument {position + 1}")
        for position, (value, like) in enumerate(zip(values, sample, strict=True))
    )


def _convert(value, like, name):
    if isinstance(like, np.ndarray):
        return _array(value, like, name)
    if isinstance(like, (bool, np.bool_)):
        if not isinstance(value, bool):
            raise Refused(f"{name} must be true or false.")
        return type(like)(value)
    if isinstance(like, (int, np.integer)):
        if not _is_int(value):
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


def _array(value, like, name):
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


def _shape(value, name):
    """The shape of nested lists, refusing ragged ones."""
    if not isinstance(value, list):
        return ()
    inner = {_shape(item, name) for item in value}
    if len(inner) > 1:
        raise Refused(f"{name}'s rows must all have the same length.")
    return (len(value),) + (inner.pop() if inner else ())


def _flatten(value):
    if isinstance(value, list):
        for item in value:
            yield from _flatten(item)
    else:
        yield value


def _element(item, dtype, name):
    if dtype.kind == "b":
        if not isinstance(item, bool):
            raise Refused(f"{name} holds booleans: give true or false, not {item!r}.")
        return item
    if dtype.kind in "iu":
        if not _is_int(item):
            raise Refused(f"{name} holds {dtype.name} values: give whole numbers, not {item!r}.")
        _in_range(item, dtype, name)
        return item
    number = _float(item)
    if number is None:
        raise Refused(
            f'{name} holds {dtype.name} values: give numbers ("nan", "inf", "-inf" as strings), not {item!r}.'
        )
    return number


def _float(value):
    if isinstance(value, str):
        return SPECIAL_FLOATS.get(value.strip().lower())
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _in_range(number, dtype, name):
    limits = np.iinfo(dtype)
    if not limits.min <= number <= limits.max:
        raise Refused(
            f"{name} holds {dtype.name} values, from {limits.min:,} to {limits.max:,}; {number:,} is outside."
        )


def preview(value):
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


def _shape_text(shape):
    return "(" + ", ".join(str(n) for n in shape) + ("," if len(shape) == 1 else "") + ")"


def side_entry(value, first_call_s, warm_s):
    return {"answer": preview(value), "first_call_s": first_call_s, "seconds": warm_s}


def matched_message(custom):
    return (
        f"Your code and the reference ran on {describe(custom)}: the answers match. "
        "Each side was called twice on it (the first call may compile); the times are one call each, "
        "so a rough figure: submit for a measured speedup."
    )


def reference_refused(custom, failure):
    """Why the reference's own failure on literal values is the input's doing:
    the last line of its traceback (the exception), for the learner."""
    detail = str((failure or {}).get("reference") or "").strip().splitlines()
    cause = detail[-1][:300] if detail else "it failed"
    return (
        f"The reference could not run on {describe(custom)} ({cause}), so they are outside what this exercise "
        "takes: check them against the contract in the prompt."
    )


def run(grading):
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
    entry = report["custom_input"] = {
        "size": custom["size"],
        "seed": custom["seed"],
        "arguments": failing_call.call_fields(args, grading.parameter_names)["arguments"],
        "match": None,
        "mismatch": "",
        "reference": None,
        "submission": None,
    }
    first = {}
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


def _as_tuple(args):
    return tuple(args) if isinstance(args, (tuple, list)) else (args,)
