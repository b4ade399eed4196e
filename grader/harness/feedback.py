"""What the learner reads: verdict names, the message and the hint.

The verdict words are defined here, once: the harness imports nothing from Django,
so the host's submissions.states.Verdict takes them from this module.
"""

from collections.abc import Collection, Mapping, Sequence

ACCEPTED = "accepted"
WRONG_ANSWER = "wrong_answer"
SYNTAX_ERROR = "syntax_error"
RUNTIME_ERROR = "runtime_error"
TIME_LIMIT = "time_limit"
MEMORY_LIMIT = "memory_limit"
OUTPUT_LIMIT = "output_limit"
REJECTED = "rejected"
INTERNAL_ERROR = "internal_error"
VERDICTS = frozenset(
    {
        ACCEPTED,
        WRONG_ANSWER,
        SYNTAX_ERROR,
        RUNTIME_ERROR,
        TIME_LIMIT,
        MEMORY_LIMIT,
        OUTPUT_LIMIT,
        REJECTED,
        INTERNAL_ERROR,
    }
)

#: Below this the answer is not meaningfully faster than the reference.
SLOW_SPEEDUP = 1.2
#: A first call this much slower than a timed one is compile time worth mentioning.
FIRST_CALL_FACTOR = 10.0
FIRST_CALL_FLOOR_S = 0.2


# How figures are written, wherever they are shown: these messages, and every page
# (submissions/figures.py wraps them as template filters). Memory is in MiB.


def mebibytes(nbytes: float) -> str:
    return f"{nbytes / 2**20:,.1f} MiB"


def _three_digits(value: float) -> str:
    """Three significant digits, trailing zeros kept (6.00, 25.0, 0.520); whole
    numbers from 100 up (123, 1,234), never an exponent."""
    if abs(value) >= 100:
        return f"{value:,.0f}"
    return f"{value:#.3g}".rstrip(".")


def times(ratio: float) -> str:
    """A speedup or a ratio: '12.5×', '6.00×', '1,234×'."""
    return f"{_three_digits(ratio)}×"


def interval(low: float, high: float) -> str:
    return f"{_three_digits(low)}–{_three_digits(high)}×"


def seconds(value: float) -> str:
    """A duration with a unit that keeps three significant digits readable."""
    if value < 1e-3:
        return f"{value * 1e6:.3g} µs"
    if value < 1:
        return f"{value * 1e3:.3g} ms"
    return f"{value:.3g} s"


def three_figures(value: float) -> str:
    """A measured rate to three significant figures, never in exponent form: a
    GPU's 4,830 GB/s, a core's 20.6 GFLOP/s, a Python loop's 0.0375 GFLOP/s."""
    rounded = float(f"{value:.3g}")
    return f"{rounded:,.0f}" if abs(rounded) >= 1000 else f"{value:.3g}"


def percent(fraction: float) -> str:
    """Whole percents, or two significant figures below one percent: a Python
    loop at 0.15% of a roof is not at 0%."""
    return f"{fraction:.0%}" if fraction >= 0.01 else f"{fraction * 100:.2g}%"


def speed_phrase(speedup: float) -> str:
    if speedup >= 1:
        return f"{times(speedup)} faster than"
    return f"{times(1 / speedup)} slower than"


def interval_phrase(low: float, high: float) -> str:
    """A speedup's 95% interval in the same words as its figure: a faster-than
    interval, a slower-than one, or one that spans the reference's speed."""
    if low >= 1:
        return f"95% CI {interval(low, high)} faster"
    if high <= 1:
        return f"95% CI {interval(1 / high, 1 / low)} slower"
    return f"95% CI from {times(1 / low)} slower to {times(high)} faster"


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def accepted_message(
    size_count: int,
    edge_count: int,
    headline_size: int,
    speedup: float,
    ci: Sequence[float] | None,
    memory: int,
    reference_memory: int,
    graded_on: Collection[str],
) -> str:
    """The accepted verdict's message; `ci` is the headline speedup's interval (low, high)."""
    text = f"Correct on all {plural(size_count, 'size')} and {plural(edge_count, 'edge case')}. "
    text += f"{speed_phrase(speedup).capitalize()} the reference at size {headline_size:,}"
    if ci:
        text += f" ({interval_phrase(*ci)})"
    text += f"; peak memory {mebibytes(memory)} vs {mebibytes(reference_memory)}"
    if "memory" not in graded_on:
        text += " (not graded for this exercise)"
    return text + "."


def shortened_note(pairs_by_size: Mapping[int, int], planned: int) -> str:
    """For sizes whose timed pairs the time budget cut short (see supervisor.MIN_PAIRS)."""
    where = ", ".join(f"{pairs} at size {size:,}" for size, pairs in pairs_by_size.items())
    return (
        f"To stay within the time limit, fewer timed pairs than the planned {planned} were run ({where}), "
        "so the intervals there are wider."
    )


def busy_note(contended_by_size: Mapping[int, tuple[int, int]]) -> str:
    """For sizes where other processes held the reference's CPU during many timed
    calls (per_size.BUSY_SHARE): {size: (contended calls, timed calls)}."""
    where = ", ".join(f"{count} of {total} at size {size:,}" for size, (count, total) in contended_by_size.items())
    return (
        f"The grading machine was busy: another process held the reference's CPU during part of its timed calls "
        f"({where}), and the interval there stayed wider than the grader aims for, so these figures may be off. "
        "Grading again when the machine is quieter gives steadier ones."
    )


def check_message(size_count: int, edge_count: int) -> str:
    return (
        f"Correct on {plural(size_count, 'check size')} and {plural(edge_count, 'edge case')}. "
        "This quick check does not time anything: submit to measure speed and memory."
    )


def accepted_hint(
    speedup: float,
    memory: int,
    reference_memory: int,
    first_call_s: float | None,
    fastest_call_s: float,
    exponent: float | None,
    reference_exponent: float | None,
    graded_on: Collection[str],
) -> str:
    hints: list[str] = []
    if speedup < SLOW_SPEEDUP:
        hints.append(
            "Your code is not much faster than the reference: replace Python-level loops with whole-array "
            "NumPy operations (vectorise), or compile the loop with Numba."
        )
    if exponent is not None and reference_exponent is not None and exponent > reference_exponent + 0.3:
        hints.append(
            f"Your time grows faster with the input size than the reference's (exponent {exponent:.2f} vs "
            f"{reference_exponent:.2f}): look for a step that is accidentally quadratic."
        )
    if "memory" in graded_on and memory > 1.1 * reference_memory:
        hints.append(
            "Your peak memory is above the reference's: reuse buffers with in-place operations "
            "(`out=`, `+=`) instead of creating temporaries."
        )
    if first_call_s is not None and first_call_s > max(FIRST_CALL_FLOOR_S, FIRST_CALL_FACTOR * fastest_call_s):
        hints.append(
            f"Your first call took {seconds(first_call_s)} (compilation, e.g. Numba's JIT). It is not part of the "
            "speedup, but it is real latency: mention caching or warm-up in an interview."
        )
    if not hints:
        hints.append(
            "Well done. Can you explain where the remaining time goes (memory bandwidth, passes over the data)?"
        )
    return " ".join(hints[:2])


MODIFIED_INPUT_HINT = (
    "In-place operations on an argument (`x *= 2`, `x += 1`, `out=x`, `x.sort()`, `x[...] = ...`) change the "
    "caller's array: start from a copy (`y = x * 2.0` makes a new array; so does `x.copy()`), then work in place on that."
)

HINTS = {
    WRONG_ANSWER: "Run your function and the reference on the failing input and compare them element by element; "
    "check edge cases (empty input, NaN, inf) and dtype.",
    SYNTAX_ERROR: "Python stopped reading at the line shown: look there and just above it for a missing bracket, "
    "colon or quote, or indentation that does not line up.",
    RUNTIME_ERROR: "Read the traceback from the bottom up: the last line says what went wrong, the lines above where.",
    TIME_LIMIT: "Look for loops that run in Python over every element, or work that grows faster than the input.",
    MEMORY_LIMIT: "Avoid building large temporaries: process the data in chunks, or use in-place operations.",
    OUTPUT_LIMIT: "Remove print statements from your function: output is limited.",
    REJECTED: "Use only the modules the exercise allows and plain computation: no files, processes or introspection.",
    INTERNAL_ERROR: "This is a problem on our side, not in your code. Please try again later.",
}
