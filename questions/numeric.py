"""Checking a candidate's number against a numeric question's answer.

The candidate may type a bare number ("4294967296", read in the question's unit)
or a number with a unit ("4 GiB", "3.2e9 bytes", "150 ms", "25 GB per second").
Physical units are converted with pint; a unit pint does not know ("copies",
"comparisons", "times", "requests/s") is a plain count, compared as a number.
Case is forgiven where it means nothing ("SEC", "MS") and kept where it does:
b is a bit and B a byte (8 Gib is 1 GiB). The check names the unit it read when
it converted one, so a learner sees how their answer was taken.
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


#: Symbols as people type them, in any case ("150 MS", "3 GHZ"). pint's names are
#: case-sensitive (Ms a megasecond, S a siemens), so these, and any other name in
#: lower case ("SEC", "Seconds"), are tried only when the name as typed is unknown
#: or of the wrong kind.
CASE_FOLDED_UNITS = {
    name.lower(): name
    for name in ("s", "ms", "us", "µs", "ns", "ps", "min", "h", "Hz", "kHz", "MHz", "GHz", "W", "kW", "J")
}
UNIT_NAME = re.compile(r"[A-Za-zµμ]+")
#: A data unit's symbol or word: a prefix (its case means nothing here: nobody writes
#: millibytes), "i" for a binary prefix, then b or B, "bit" or "byte". pint would read
#: b as a barn, so these are named for it (data_unit_name).
DATA_UNIT = re.compile(
    r"^(?:(?P<prefix>[kmgtpe])(?P<binary>i)?)?(?:(?P<word>bits?|bytes?)|(?P<letter>b))$", re.IGNORECASE
)
#: "per second", "per sec", "/sec" and "/ s" all mean "/s".
PER_SECOND = re.compile(r"\s*(?:/|\bper\b)\s*(?:s|secs?|seconds?)\b", re.IGNORECASE)
#: Other ways a count word is written: "6.4x" and "6.4×" are 6.4 times, as the sample answers write it.
COUNT_WORD_SIGNS = {"times": ("x", "×")}
#: Examples for the answer box's help, by the kind (pint base units) of the question's unit.
EXAMPLES_BY_KIND = {
    "bit": "4 GiB, 512 mib or 3.2e9 bytes",
    "second": "150 ms, 20 us or 1.5 s",
    "bit / second": "25 GB/s, 25 GB per second or 100 Gbit/s",
    "1 / second": "3 GHz or 2e9 Hz",
}


def answer_help(unit):
    """What the answer box says: a bare number is read in the question's unit, and
    which units of the same kind may be typed instead."""
    expected = physical_unit(unit)
    text = f"A bare number is read in {unit} (so 64 means 64 {unit})."
    examples = EXAMPLES_BY_KIND.get(str(_base_units(expected))) if expected is not None else None
    if examples:
        text += f" Or give a unit: {examples}."
    if expected is not None and "bit" in str(_base_units(expected)):
        text += " B is a byte and b a bit (8 Gib is 1 GiB); a name all in lower case (gib) is read as bytes."
    signs = COUNT_WORD_SIGNS.get(unit.lower())
    if signs:
        text += f" 64{signs[0]} means the same."
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


def _unit_in_words(unit):
    """'gibibits', 'gigabytes per second': a pint unit named as a reader would."""
    first, _, rest = str(unit).replace(" / ", " per ").replace("_", " ").partition(" ")
    plural = first if first.endswith(("s", "z")) else f"{first}s"
    return f"{plural} {rest}".strip()


def data_unit_name(name):
    """pint's name for a data unit as typed ("Gib" -> "Gibit", "gib" -> "GiB"), or
    None when `name` is not one. The b's case decides bits or bytes whenever the name
    shows case (has a capital); a name all in lower case shows none and reads as
    bytes, the commoner meaning (the check then names the unit read)."""
    match = DATA_UNIT.match(name)
    if not match:
        return None
    prefix = (match["prefix"] or "").upper() + (match["binary"] or "").lower()
    if prefix == "K":
        prefix = "k"  # kilo; the binary Ki keeps its capital
    if match["word"]:
        is_bit = match["word"].lower().startswith("bit")
    else:
        is_bit = match["letter"] == "b" and name != name.lower()
    return f"{prefix}bit" if is_bit else f"{prefix}B"


def _named_for_pint(typed, *, fold_case):
    """`typed` with its data units named for pint and, when `fold_case`, its other
    names case-folded ("MS" -> "ms", "SEC" -> "sec")."""

    def name(match):
        word = match[0]
        if data_unit_name(word):
            return data_unit_name(word)
        return CASE_FOLDED_UNITS.get(word.lower(), word.lower()) if fold_case else word

    return UNIT_NAME.sub(name, typed)


def unit_as_learners_type_it(unit):
    """How the checker reads `unit` when a learner types it after a number ("kb" -> "kB",
    "Mib" -> "Mibit"): the spelling an author should give a question's unit so that
    learners can type it back."""
    return _named_for_pint(unit, fold_case=False)


def _count_word_forms(unit):
    """How '31 copies' may be written: the unit, its singular ('copy'), its signs
    ('x' for times), and for a rate ('requests/s') the same before '/s' or '/s' alone."""
    unit = " ".join(PER_SECOND.sub("/s", unit).replace("_", " ").replace("-", " ").split()).lower()
    count, slash, per = unit.partition("/")
    singular = count[:-3] + "y" if count.endswith("ies") else count.removesuffix("s")
    forms = {count, singular, *COUNT_WORD_SIGNS.get(count, ())}
    if slash:
        return {f"{form}/{per}" for form in forms} | {f"/{per}"}
    return forms


def _count_word_matches(typed, unit):
    """'31 copy' and '31 copies' both name the unit 'copies'; 'cache lines'
    names 'cache_lines' (spaces, hyphens and underscores are the same); '6.4x' is
    6.4 times; '100 requests per second' and '100/s' are 100 requests/s."""
    typed = " ".join(PER_SECOND.sub("/s", typed).replace("_", " ").replace("-", " ").split()).lower()
    return typed in _count_word_forms(unit)


@dataclass(frozen=True)
class NumericCheck:
    """`error` is set when the input could not be compared; otherwise `correct`
    says whether `value` (converted to the question's unit) is within tolerance.
    `unit_read` names the unit the answer was read in ("gibibits") when it was
    another than the question's and was converted; "" otherwise."""

    error: str = ""
    value: float | None = None
    correct: bool = False
    unit_read: str = ""

    @property
    def ok(self):
        return not self.error


def within_tolerance(value, expected, tolerance):
    if expected == 0:
        return abs(value) <= tolerance
    return abs(value - expected) <= tolerance * abs(expected)


@dataclass(frozen=True)
class Reading:
    """A typed answer read in the question's unit: `value`, or `error` saying why not;
    `unit_read` as in NumericCheck."""

    value: float | None = None
    error: str = ""
    unit_read: str = ""


def to_question_unit(raw, unit):
    """Read `raw` as a value in `unit`. Returns a Reading."""
    text = (raw or "").strip()
    if not text:
        return Reading(error="Enter a number, with a unit if you like.")
    match = NUMBER_WITH_UNIT.match(text)
    if not match:
        return Reading(error=f"Could not read {text!r} as a number with an optional unit ({EXAMPLES}).")
    if "," in match["number"] and not GROUPED_THOUSANDS.fullmatch(match["number"]):
        return Reading(
            error=(
                f"Could not read {text!r}: a comma may only separate thousands (as in 1,000,000). "
                "Write a decimal with a point (1.5)."
            )
        )
    number = float(match["number"].replace(",", "").replace("_", ""))  # the pattern admits only what float() reads
    if not math.isfinite(number):
        return Reading(error="Enter a finite number.")
    typed_unit = match["unit"]
    if not typed_unit:
        return Reading(value=number)

    expected = physical_unit(unit)
    if expected is None:
        if _count_word_matches(typed_unit, unit):
            return Reading(value=number)
        return Reading(error=f"Expected a number of {unit}, got {typed_unit!r}.")

    given = _read_unit(typed_unit, expected)
    if given is None:
        return Reading(error=f"Could not understand the unit {typed_unit!r} ({EXAMPLES}).")
    # pint treats bytes, radians and plain numbers all as dimensionless; comparing
    # base units keeps "5 bytes" from converting to percent.
    if _base_units(given) != _base_units(expected):
        return Reading(error=f"Expected a value in {unit}, got {_describe(given)}.")
    value = unit_registry().Quantity(number, given).to(expected).magnitude
    return Reading(value=value, unit_read="" if given == expected else _unit_in_words(given))


def _read_unit(typed, expected):
    """The pint unit `typed` names: as typed (data units named first, since pint reads
    b as a barn), else its names case-folded when that gives the expected kind. None
    when neither is a unit."""
    given = physical_unit(_named_for_pint(typed, fold_case=False))
    if given is None or _base_units(given) != _base_units(expected):
        folded = physical_unit(_named_for_pint(typed, fold_case=True))
        if folded is not None and _base_units(folded) == _base_units(expected):
            return folded
    return given


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
    reading = to_question_unit(raw, unit)
    if reading.error:
        return NumericCheck(error=reading.error)
    return NumericCheck(
        value=reading.value, correct=within_tolerance(reading.value, answer, tolerance), unit_read=reading.unit_read
    )
