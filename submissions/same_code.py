"""The same code, whatever its names, comments, docstrings and layout: how
gradings of one program are told apart from gradings of another.

Normalisation: parse, drop docstrings, print back with ast.unparse (which drops
comments and fixes layout), then rename every identifier that is not a keyword,
builtin or attribute to a placeholder numbered by first appearance. What an import
statement names stays as written, but the local name after `as`: the module
imported (`import numpy as np` is not `import math as np`) and the names taken
from it (`from numpy import sqrt`) are what the program runs. Two programs that
differ only by variable names, aliases, comments, docstrings or formatting
normalise to the same token sequence. Code that does not parse is tokenised as
written.

Why it matters to the figures: a grading is one noisy measurement. Graded ten
times, the same answer reads a spread of figures (10-25% on the project's
2-core hosts, docs/benchmarks.md), so keeping the highest of them rewards
submitting the same code again until a lucky figure comes up. by_program and
middle_grading keep one grading per program, its median, and the best program is chosen
among those. A change that does something (a different expression, a reordered
loop) is a new program, as it should be; so is a change that does nothing but
alter the tokens (`x * 2.0` for `2.0 * x`): this raises the bar against fishing,
it does not make it impossible.
"""

import ast
import builtins
import hashlib
import io
import keyword
import tokenize

BUILTIN_NAMES = frozenset(dir(builtins))
SKIPPED_TOKENS = frozenset(
    {
        tokenize.COMMENT,
        tokenize.NL,
        tokenize.NEWLINE,
        tokenize.INDENT,
        tokenize.DEDENT,
        tokenize.ENCODING,
        tokenize.ENDMARKER,
    }
)


class _DocstringStripper(ast.NodeTransformer):
    def _strip(self, node):
        self.generic_visit(node)
        body = node.body
        if (
            body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
        return node

    visit_Module = visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _strip


def _canonical_source(code):
    """The code printed back without docstrings, comments or its own layout; the
    code as written when it does not parse, or nests deeper than the parser or
    the printer can recurse (`x = 1+1+...+1`, a thousand terms, is a tree a
    thousand deep: it once made a team's report page fail)."""
    try:
        return ast.unparse(_DocstringStripper().visit(ast.parse(code)))
    except (SyntaxError, ValueError, RecursionError):
        return code


def _raw_tokens(source):
    try:
        yield from tokenize.generate_tokens(io.StringIO(source).readline)
    except (tokenize.TokenError, SyntaxError):
        # Code that does not tokenise to the end: compare what was read before the error.
        return


def _ends_statement(token):
    return token.type == tokenize.NEWLINE or token.string == ";"


def normalised_tokens(code):
    """The token sequence used for comparison."""
    placeholders = {}
    tokens = []
    previous = None
    statement_start = True
    in_import = False  # within `import ...` or `from ... import ...`
    for token in _raw_tokens(_canonical_source(code)):
        if token.type not in SKIPPED_TOKENS:
            if statement_start:
                in_import = token.string in ("import", "from")
            tokens.append(_normalised(token, previous, in_import, placeholders))
            previous = token.string
        statement_start = _ends_statement(token) or (statement_start and token.type in SKIPPED_TOKENS)
    return tokens


def _normalised(token, previous, in_import, placeholders):
    """The token's text, or its placeholder when it is a name the program chose: neither a
    keyword, builtin or attribute, nor a module or a name an import statement takes."""
    text = token.string
    is_chosen_name = (
        token.type == tokenize.NAME
        and not keyword.iskeyword(text)
        and not keyword.issoftkeyword(text)
        and text not in BUILTIN_NAMES
        and previous != "."
        and (not in_import or previous == "as")
    )
    return placeholders.setdefault(text, f"id{len(placeholders)}") if is_chosen_name else text


def fingerprint(code):
    """A short digest of normalised_tokens(code): equal for the same program."""
    return hashlib.sha256("\n".join(normalised_tokens(code)).encode()).hexdigest()[:32]


def by_program(gradings):
    """`gradings` (objects with `program`, their code's fingerprint, as a
    Submission stores it) grouped by program, groups and their members in the
    order first seen."""
    programs = {}
    for grading in gradings:
        programs.setdefault(grading.program, []).append(grading)
    return list(programs.values())


def middle_grading(group, figure):
    """The grading whose `figure(grading)` is the lower median of `group` (an
    actual grading, never an average of two)."""
    return sorted(group, key=figure)[(len(group) - 1) // 2]
