"""Checking a candidate's number against a numeric question's answer.

The candidate may type a bare number ("4294967296", read in the question's unit)
or a number with a unit ("4 GiB", "3.2e9 bytes", "150 ms"). Physical units are
converted with pint; a unit pint does not know ("copies", "comparisons") is a
plain count, compared as a number.
"""
import functools
import math
import re
from dataclasses import dataclass

import pint

NUMBER_WITH_UNIT = re.compile(
    r"^\s*(?P<number>[-+]?(?:\d[\d,_]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*(?P<unit>.*?)\s*$"
)
EXAMPLES = "e.g. 4 GiB, 4294967296, 3.2e9 bytes or 150 ms"
#: A comma only groups thousands ("1,000,000"). A decimal comma ("1,11") is refused
#: rather than read as 111.
GROUPED_THOUSANDS = re.compile(r"[-+]?\d{1,3}(?:,\d{3})+(?:\.\d*)?(?:[eE][-+]?\d+)?")
#: How far a wrong answer is searched for a unit slip: factors of 1,000 up to 1000**4.
UNIT_SLIP_POWERS = (1, 2, 3, 4)

# How to name a kind of quantity in messages, by its pint base units.
BASE_UNIT_WORDS = {
    "": "a plain number",
    "bit": "bytes",
    "second": "seconds",
    "bit / second": "bytes per second",
    "1 / second": "a rate per second",
    "meter": "metres",
    "kilogram": "kilograms",
    "kilogram * meter ** 2 / second ** 3": "watts",
    "kilogram * meter ** 2 / second ** 2": "joules",
    "radian": "an angle",
}


#: Unit names as people type them, in any case ("1 gib", "150 MS"). pint's names are
#: case-sensitive (mB is a millibyte, Ms a megasecond, S a siemens), so these are
#: tried only when the name as typed is unknown or of the wrong kind.
CASE_FOLDED_UNITS = {
    name.lower(): name
    for name in (
        "B", "byte", "bit",
        *(f"{prefix}B" for prefix in ("k", "M", "G", "T", "P", "Ki", "Mi", "Gi", "Ti", "Pi")),
        *(f"{prefix}bit" for prefix in ("k", "M", "G", "T", "Ki", "Mi", "Gi", "Ti")),
        "s", "ms", "us", "µs", "ns", "ps", "min", "h", "Hz", "kHz", "MHz", "GHz", "W", "kW", "J",
    )
}
UNIT_NAME = re.compile(r"[A-Za-zµ]+")
#: Examples for the answer box's help, by the kind (pint base units) of the question's unit.
EXAMPLES_BY_KIND = {
    "bit": "4 GiB, 512 mib or 3.2e9 bytes",
    "second": "150 ms, 20 us or 1.5 s",
    "bit / second": "25 GB/s or 100 Gbit/s",
    "1 / second": "3 GHz or 2e9 Hz",
}


def answer_help(unit):
    """What the answer box says: a bare number is read in the question's unit, and
    which units of the same kind may be typed instead."""
    expected = physical_unit(unit)
    text = f"A bare number is read in {unit} (so 64 means 64 {unit})."
    examples = EXAMPLES_BY_KIND.get(str(_base_units(expected))) if expected is not None else None
    if examples:
        text += f" Or give a unit, in any case: {examples}."
    return text


@functools.cache
def unit_registry():
    return pint.UnitRegistry()


def physical_unit(unit):
    """The pint Unit for `unit`, or None when it is a count word pint does not know."""
    try:
        return unit_registry().parse_units(unit)
    except Exception:  # pint's parser raises undefined-unit, syntax and tokenizer errors of several types
        return None


def _base_units(unit):
    return unit_registry().Quantity(1, unit).to_base_units().units


def _describe(unit):
    base = str(_base_units(unit))
    return BASE_UNIT_WORDS.get(base, str(unit).replace("_", " "))


def _count_word_matches(typed, unit):
    """'31 copy' and '31 copies' both name the unit 'copies'; 'cache lines'
    names 'cache_lines' (spaces, hyphens and underscores are the same)."""
    typed, unit = (" ".join(word.replace("_", " ").replace("-", " ").split()).lower() for word in (typed, unit))
    singular = unit[:-3] + "y" if unit.endswith("ies") else unit.removesuffix("s")
    return typed in {unit, singular}


@dataclass(frozen=True)
class NumericCheck:
    """`error` is set when the input could not be compared; otherwise `correct`
    says whether `value` (converted to the question's unit) is within tolerance."""

    error: str = ""
    value: float | None = None
    correct: bool = False

    @property
    def ok(self):
        return not self.error


def within_tolerance(value, expected, tolerance):
    if expected == 0:
        return abs(value) <= tolerance
    return abs(value - expected) <= tolerance * abs(expected)


def to_question_unit(raw, unit):
    """Read `raw` as a value in `unit`. Returns (value, error message)."""
    text = (raw or "").strip()
    if not text:
        return None, "Enter a number, with a unit if you like."
    match = NUMBER_WITH_UNIT.match(text)
    if not match:
        return None, f"Could not read {text!r} as a number with an optional unit ({EXAMPLES})."
    if "," in match["number"] and not GROUPED_THOUSANDS.fullmatch(match["number"]):
        return None, (f"Could not read {text!r}: a comma may only separate thousands (as in 1,000,000). "
                      "Write a decimal with a point (1.5).")
    number = float(match["number"].replace(",", "").replace("_", ""))  # the pattern admits only what float() reads
    if not math.isfinite(number):
        return None, "Enter a finite number."
    typed_unit = match["unit"]
    if not typed_unit:
        return number, ""

    expected = physical_unit(unit)
    if expected is None:
        if _count_word_matches(typed_unit, unit):
            return number, ""
        return None, f"Expected a number of {unit}, got {typed_unit!r}."

    given = physical_unit(typed_unit)
    if given is None or _base_units(given) != _base_units(expected):
        folded = physical_unit(UNIT_NAME.sub(lambda name: CASE_FOLDED_UNITS.get(name[0].lower(), name[0]), typed_unit))
        if folded is not None and _base_units(folded) == _base_units(expected):
            given = folded
    if given is None:
        return None, f"Could not understand the unit {typed_unit!r} ({EXAMPLES})."
    # pint treats bytes, radians and plain numbers all as dimensionless; comparing
    # base units keeps "5 bytes" from converting to percent.
    if _base_units(given) != _base_units(expected):
        return None, f"Expected a value in {unit}, got {_describe(given)}."
    registry = unit_registry()
    return registry.Quantity(number, given).to(expected).magnitude, ""


def unit_slip(value, expected, tolerance):
    """The power of 1,000 (1000, 0.001, 1e6, ...) by which a wrong `value` misses
    `expected` when dividing by it lands within tolerance: most likely a unit
    slipped (ms for s, MB for GB), the commonest slip in estimation questions.
    None when the answer is right or no such power fits (a zero misses by no factor)."""
    if value is None or expected == 0 or within_tolerance(value, expected, tolerance):
        return None
    for power in UNIT_SLIP_POWERS:
        for factor in (1000**power, 1000.0**-power):
            if within_tolerance(value / factor, expected, tolerance):
                return factor
    return None


def slip_words(factor):
    """unit_slip's factor in words: '1,000 times' or '1/1,000 of'."""
    if factor >= 1000:
        return f"{factor:,} times"
    return f"1/{round(1 / factor):,} of"


def check_numeric(raw, *, answer, unit, tolerance):
    value, error = to_question_unit(raw, unit)
    if error:
        return NumericCheck(error=error)
    return NumericCheck(value=value, correct=within_tolerance(value, answer, tolerance))
