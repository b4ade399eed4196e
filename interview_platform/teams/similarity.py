"""Similarity between candidates' code, robust to cosmetic changes.

Normalisation: parse, drop docstrings, print back with ast.unparse (which drops
comments and fixes layout), then rename every identifier that is not a keyword,
builtin or attribute to a placeholder numbered by first appearance. Two programs
that differ only by variable names, comments, docstrings or formatting normalise
to the same token sequence. Code that does not parse is tokenised as written.
"""
import ast
import builtins
import difflib
import io
import keyword
import tokenize
from dataclasses import dataclass
from itertools import combinations

FLAG_THRESHOLD = 0.9
BUILTIN_NAMES = frozenset(dir(builtins))
SKIPPED_TOKENS = frozenset(
    {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING, tokenize.ENDMARKER}
)


class _DocstringStripper(ast.NodeTransformer):
    def _strip(self, node):
        self.generic_visit(node)
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            node.body = body[1:] or [ast.Pass()]
        return node

    visit_Module = visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _strip


def _canonical_source(code):
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return code
    return ast.unparse(_DocstringStripper().visit(tree))


def _raw_tokens(source):
    try:
        yield from tokenize.generate_tokens(io.StringIO(source).readline)
    except (tokenize.TokenError, SyntaxError):
        # Code that does not tokenise to the end: compare what was read before the error.
        return


def normalised_tokens(code):
    """The token sequence used for comparison."""
    placeholders = {}
    tokens = []
    previous = None
    for token in _raw_tokens(_canonical_source(code)):
        if token.type in SKIPPED_TOKENS:
            continue
        text = token.string
        is_identifier = (
            token.type == tokenize.NAME
            and not keyword.iskeyword(text)
            and not keyword.issoftkeyword(text)
            and text not in BUILTIN_NAMES
            and previous != "."
        )
        if is_identifier:
            text = placeholders.setdefault(text, f"id{len(placeholders)}")
        tokens.append(text)
        previous = token.string
    return tokens


def similarity(code_a, code_b):
    """0..1: how alike two programs are after normalisation."""
    a, b = normalised_tokens(code_a), normalised_tokens(code_b)
    if not a and not b:
        return 1.0
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


@dataclass(frozen=True)
class SimilarityFlag:
    item: object
    first: object  # whatever labels a candidate: the caller's key
    second: object
    ratio: float


def similarity_flags(codes_by_item, starters=None, threshold=FLAG_THRESHOLD):
    """`codes_by_item` maps an item to {candidate: code}. Flags each pair of
    candidates whose code for the same item is at least `threshold` alike, unless
    both are that close to the item's starter code (untouched starters match)."""
    starters = starters or {}
    flags = []
    for item, codes in codes_by_item.items():
        starter = starters.get(item)
        normalised = {candidate: normalised_tokens(code) for candidate, code in codes.items()}
        near_starter = set()
        if starter is not None:
            starter_tokens = normalised_tokens(starter)
            near_starter = {
                candidate
                for candidate, tokens in normalised.items()
                if difflib.SequenceMatcher(None, tokens, starter_tokens, autojunk=False).ratio() >= threshold
            }
        for first, second in combinations(normalised, 2):
            if first in near_starter and second in near_starter:
                continue
            ratio = difflib.SequenceMatcher(None, normalised[first], normalised[second], autojunk=False).ratio()
            if ratio >= threshold:
                flags.append(SimilarityFlag(item=item, first=first, second=second, ratio=ratio))
    return sorted(flags, key=lambda flag: -flag.ratio)
