"""What a learner's own input ("Run my input") may be: the rules the web side
applies before queueing and the supervisor applies again inside the sandbox
(custom_input.py). The standard library only: the web and worker image has no
NumPy, and the web side imports this module.
"""

import ast
import os
from collections.abc import Iterable, Mapping
from typing import Any, TypedDict, TypeGuard

#: Seeds are what the supervisor draws for its own calls: four bytes.
MAX_SEED = 2**32 - 1
#: Literal values: elements over all arguments, and an array's dimensions.
MAX_LITERAL_ELEMENTS = 10_000
MAX_DIMENSIONS = 4
#: A literal string argument (or a uint8 array given as text), in characters.
MAX_TEXT_CHARS = 10_000


class CustomInput(TypedDict):
    """A learner's own input in its one form: a size and seed, or literal arguments."""

    size: int | None
    seed: int | None
    args: list[object] | None


# Any: the front matter as parsed from YAML; grader/validation.py checks its values.
def quick_check_sizes(spec: Mapping[str, Any]) -> list[int]:
    """The sizes a quick check runs, from an exercise's front matter (`spec`): its
    `check_sizes`, else its first benchmark size. The largest is the largest size
    a learner's own input may have."""
    return list(spec.get("check_sizes") or spec.get("sizes", [])[:1])


class Refused(ValueError):
    """The learner's input is outside what the exercise takes; the message says why."""


def clean(raw: object, max_size: int, arity: int | None = None) -> CustomInput:
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
        if not is_int(size) or size < 0:
            raise Refused("The size must be a whole number, 0 or more.")
        if size > max_size:
            raise Refused(
                f"The size may be at most {max_size:,} here (the exercise's largest quick-check size): "
                "a run on your input has the quick check's time."
            )
    if seed is not None and (not is_int(seed) or not 0 <= seed <= MAX_SEED):
        raise Refused(f"The seed must be a whole number from 0 to {MAX_SEED:,}.")
    return {"size": size, "seed": seed, "args": None}


def is_int(value: object) -> TypeGuard[int]:
    """Whether `value` is a JSON whole number (a bool is not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _clean_args(args: object, arity: int | None) -> list[object]:
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


def _count(value: object, depth: int, position: int) -> int:
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


def describe(custom: CustomInput) -> str:
    """The input in words, for messages: 'size 500, seed 42' or 'your arguments'."""
    if custom["args"] is not None:
        return "your arguments"
    return f"size {custom['size']:,}, seed {custom['seed']}"


def sized_input(custom: CustomInput, check_sizes: Iterable[int]) -> CustomInput:
    """`custom` with its size and seed filled in: the largest check size and a fresh seed when not given."""
    size = custom["size"] if custom["size"] is not None else max(check_sizes)
    seed = custom["seed"] if custom["seed"] is not None else int.from_bytes(os.urandom(4), "little")
    return {"size": size, "seed": seed, "args": None}


def parameter_names(source: str, entry_point: str) -> list[str]:
    """The parameter names of `entry_point` in `source` (the trusted reference),
    read without running it; empty when there is no such function."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == entry_point:
            arguments = node.args
            return [argument.arg for argument in arguments.posonlyargs + arguments.args]
    return []
