"""The work an exercise must do, as a function of its size n: the bytes it must move
and the floating-point operations it must do (front matter `work: {bytes: "16*n",
flops: "2*n"}`). The grader turns them into achieved GB/s and GFLOP/s.

The formulas are a tiny language: n, numbers, + - * / ** and parentheses. They are
parsed with `ast` and walked node by node; nothing is ever passed to eval, and a
power's exponent must be a small number written out, so no formula can make the
loader or the grader compute for long.
"""

import ast
import math
import operator
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeGuard

if TYPE_CHECKING:

    class _NumberConstant(ast.Constant):
        value: int | float  # what _is_number checks


#: A formula's value: a fractional power of a negative number is a complex.
_Number = float | complex

WORK_KEYS = ("bytes", "flops")
MAX_FORMULA_CHARS = 200
MAX_EXPONENT = 4

_BINARY: dict[type[ast.operator], Callable[[_Number, _Number], _Number]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: operator.pow,
}
_UNARY: dict[type[ast.unaryop], Callable[[_Number], _Number]] = {ast.UAdd: operator.pos, ast.USub: operator.neg}


class BadFormula(ValueError):
    """A work formula outside the language; the message says what is wrong."""


def _as_text(value: object) -> object:
    """YAML reads `flops: 0` as a number: the formula is its text."""
    return repr(value) if type(value) in (int, float) else value


def parse(text: object) -> ast.expr:
    """The formula's syntax tree, or BadFormula."""
    text = _as_text(text)
    if not isinstance(text, str) or not text.strip():
        raise BadFormula(f"a formula in n must be a non-empty string, got {text!r}")
    if len(text) > MAX_FORMULA_CHARS:
        raise BadFormula(f"a formula may have at most {MAX_FORMULA_CHARS} characters")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        raise BadFormula(f"{text!r} is not a formula (use n, numbers, + - * / ** and parentheses)") from None
    _check(tree.body, text)
    return tree.body


def _check(node: ast.expr, text: str) -> None:
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        _check(node.left, text)
        _check(node.right, text)
        if isinstance(node.op, ast.Pow) and not (_is_number(node.right) and abs(node.right.value) <= MAX_EXPONENT):
            raise BadFormula(f"in {text!r}, a power's exponent must be a number of at most {MAX_EXPONENT}")
    elif isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        _check(node.operand, text)
    elif isinstance(node, ast.Name):
        if node.id != "n":
            raise BadFormula(f"in {text!r}, the only name allowed is n, not {node.id!r}")
    elif not _is_number(node):
        raise BadFormula(f"{text!r} may use only n, numbers, + - * / ** and parentheses")


def _is_number(node: ast.expr) -> TypeGuard["_NumberConstant"]:
    return isinstance(node, ast.Constant) and type(node.value) in (int, float)


def evaluate(text: object, n: float) -> float:
    """The formula's value at size n, as a float; BadFormula when it is not a finite,
    non-negative number there."""
    try:
        # _value may be a complex (a fractional power of a negative n); float() of it raises the TypeError caught below
        value = float(_value(parse(text), float(n)))  # type: ignore[arg-type]
    except (ZeroDivisionError, OverflowError, TypeError):  # TypeError: float() of a complex power
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise BadFormula(f"{text!r} is not a finite, non-negative number at n = {n}")
    return value


def _value(node: ast.expr, n: float) -> _Number:
    if isinstance(node, ast.BinOp):
        return _BINARY[type(node.op)](_value(node.left, n), _value(node.right, n))
    if isinstance(node, ast.UnaryOp):
        return _UNARY[type(node.op)](_value(node.operand, n))
    if isinstance(node, ast.Name):
        return n
    assert _is_number(node)  # parse() let through only numbers besides the nodes above
    return node.value


def check_work(work: object, sizes: Sequence[int]) -> dict[str, str | int | float]:
    """The `work` front matter as {"bytes": formula, "flops": formula} (stripped
    strings, or numbers as written), or BadFormula. Both formulas must hold at every size in `sizes`."""
    if not isinstance(work, dict) or set(work) != set(WORK_KEYS):
        raise BadFormula(
            f"'work' must be a mapping with exactly the keys bytes and flops (formulas in n), got {work!r}"
        )
    checked: dict[str, str | int | float] = {}
    for key in WORK_KEYS:
        formula = _as_text(work[key])
        parse(formula)
        assert isinstance(formula, str)  # parse() accepts only a string
        for n in sizes:
            evaluate(formula, n)
        checked[key] = work[key] if formula is not work[key] else formula.strip()  # a number stays a number
    if not any(evaluate(checked[key], max(sizes or [1])) > 0 for key in WORK_KEYS):
        raise BadFormula("'work' must declare some bytes or some flops")
    return checked
