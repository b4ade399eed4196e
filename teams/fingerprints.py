"""Fingerprints of Python code by winnowing (Schleimer, Wilkerson and Aiken, "Winnowing:
local algorithms for document fingerprinting", SIGMOD 2003), and the regions two programs
share. Django-free.

Tokens: Python's own tokenizer over the code as written, so every token keeps its place
in the source and a match can be highlighted there. Comments, blank lines and bare string
statements (docstrings) are dropped; every name the program chose (not a keyword, builtin,
attribute or imported module) becomes `N`, every number `NUM` and every string `STR`, so
renaming, re-commenting and changing constants do not change the tokens. A `;` counts as
a line break. Code that does not tokenise to the end is read up to the error.

Fingerprints: each run of K tokens is hashed (blake2b, stable across processes), and in
every window of W consecutive hashes the smallest is kept (the rightmost on a tie).
Any run of K + W - 1 tokens two programs share yields at least one common fingerprint,
whatever surrounds it: reordered functions or lines still match piece by piece.

compare() measures how much of each program is covered by fingerprints it shares with the
other, leaving out what either shares with `boilerplate` (the starter, the model solution),
and returns the matching regions as character spans of each program.
"""

import builtins
import hashlib
import io
import keyword
import tokenize
from dataclasses import dataclass
from functools import lru_cache

K = 8  # tokens per k-gram: ~ one short statement once names and literals are normalised
W = 2  # winnowing window: short, as answers are short (tens to hundreds of tokens)
GUARANTEED = K + W - 1  # any run of this many tokens two programs share is found
BUILTIN_NAMES = frozenset(dir(builtins))
DROPPED = frozenset({tokenize.COMMENT, tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER})
STRUCTURE = frozenset({"NEWLINE", "INDENT", "DEDENT"})


@dataclass(frozen=True)
class Token:
    text: str  # the normalised text that is hashed
    start: int  # character offsets of the token in the code as written
    end: int


@dataclass(frozen=True)
class Fingerprinted:
    """A program's tokens and its winnowed fingerprints: hash -> token positions."""

    code: str
    tokens: tuple
    prints: dict

    @property
    def hashes(self):
        return self.prints.keys()


@dataclass(frozen=True)
class Region:
    number: int  # the same number marks a region's counterpart in the other program
    start: int
    end: int


@dataclass(frozen=True)
class Match:
    """How much two programs share beyond the boilerplate. `coverage_*`: the share of
    each program's own tokens (those not also in the boilerplate) inside shared
    fingerprints; `shared_tokens_*`: how many tokens that is."""

    coverage_a: float
    coverage_b: float
    shared_tokens_a: int
    shared_tokens_b: int
    regions_a: tuple
    regions_b: tuple

    @property
    def score(self):
        """The larger coverage: a copy padded with other code still scores as a copy."""
        return max(self.coverage_a, self.coverage_b)

    @property
    def shared_tokens(self):
        return min(self.shared_tokens_a, self.shared_tokens_b)


def _raw_tokens(code):
    try:
        yield from tokenize.generate_tokens(io.StringIO(code).readline)
    except (tokenize.TokenError, SyntaxError):
        # Code that does not tokenise to the end: what was read before the error counts.
        return


def _line_offsets(code):
    offsets = [0, 0]  # tokenize numbers rows from 1
    for line in code.splitlines(keepends=True):
        offsets.append(offsets[-1] + len(line))
    return offsets


def _is_bare_string(raw, index):
    """A string alone on its line as a statement: a docstring or a comment in disguise."""
    before = raw[index - 1].type if index else tokenize.NEWLINE
    after = raw[index + 1].type if index + 1 < len(raw) else tokenize.NEWLINE
    starts_statement = before in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
    return starts_statement and after in (tokenize.NEWLINE, tokenize.ENDMARKER)


class _Normaliser:
    """Reads one program's tokens in order, knowing what a name is from what came before:
    an attribute (after `.`), a module or a name taken by an import (as the program wrote
    it), a keyword argument in a call (`axis=1`: the callee's name, not the program's),
    or a name the program chose (`N`)."""

    def __init__(self):
        self.previous = "NEWLINE"
        self.in_import = False
        self.imported = set()
        self.brackets = []  # per open bracket: whether it holds a def's parameters
        self.after_def_name = False

    def text(self, token, following):
        if self.previous == "NEWLINE":
            self.in_import = token.string in ("import", "from")
        text = self._text(token, following)
        self._track_brackets(token)
        self.previous = text if text in STRUCTURE else token.string
        return text

    def _text(self, token, following):
        if token.type == tokenize.NAME:
            return "N" if self._is_chosen(token.string, following) else token.string
        if token.type == tokenize.NUMBER:
            return "NUM"
        if token.type == tokenize.STRING:
            return "STR"
        if token.type == tokenize.NEWLINE or token.string == ";":
            return "NEWLINE"
        if token.type in (tokenize.INDENT, tokenize.DEDENT):
            return tokenize.tok_name[token.type]
        return token.string

    def _is_chosen(self, name, following):
        if self.in_import:
            if self.previous == "as":
                return True
            self.imported.add(name)
            return False
        keyword_argument = following == "=" and self.brackets and not self.brackets[-1]
        return not (
            keyword.iskeyword(name)
            or keyword.issoftkeyword(name)
            or name in BUILTIN_NAMES
            or name in self.imported
            or self.previous == "."
            or keyword_argument
        )

    def _track_brackets(self, token):
        if token.string in ("(", "[", "{"):
            self.brackets.append(token.string == "(" and self.after_def_name)
        elif token.string in (")", "]", "}") and self.brackets:
            self.brackets.pop()
        self.after_def_name = self.previous == "def"  # `previous` is still the token before this one


def tokens(code):
    """The normalised tokens of `code`, each with its character span in `code`."""
    raw = [token for token in _raw_tokens(code) if token.type not in DROPPED]
    offsets = _line_offsets(code)
    normaliser = _Normaliser()
    result = []
    skipped = set()
    for index, token in enumerate(raw):
        if token.type == tokenize.STRING and _is_bare_string(raw, index):
            skipped.update((index, index + 1))  # the string and the line break after it
        if index in skipped:
            continue
        following = raw[index + 1].string if index + 1 < len(raw) else ""
        text = normaliser.text(token, following)
        start = offsets[token.start[0]] + token.start[1]
        end = offsets[token.end[0]] + token.end[1]
        result.append(Token(text, start, end))
    return tuple(result)


def _kgram_hashes(texts):
    return [
        int.from_bytes(hashlib.blake2b("\x1f".join(texts[i : i + K]).encode(), digest_size=8).digest(), "big")
        for i in range(len(texts) - K + 1)
    ]


def winnow(hashes):
    """{hash: [positions]} chosen by robust winnowing: the minimum of each window of W,
    the rightmost on a tie, each position once. Fewer than W hashes form one window."""
    chosen = {}
    last = None
    for start in range(max(len(hashes) - W + 1, 1 if hashes else 0)):
        window = hashes[start : start + W]
        position = start + min(range(len(window)), key=lambda i: (window[i], -i))
        if position != last:
            chosen.setdefault(hashes[position], []).append(position)
            last = position
    return chosen


@lru_cache(maxsize=4096)
def fingerprint(code):
    """`code` tokenised and winnowed (kept per process: sources recur across reports)."""
    code_tokens = tokens(code)
    return Fingerprinted(code=code, tokens=code_tokens, prints=winnow(_kgram_hashes([t.text for t in code_tokens])))


def _covered(prints, hashes):
    """Token positions inside the k-grams of `prints` whose hash is in `hashes`."""
    return {p + offset for h in hashes for p in prints.get(h, ()) for offset in range(K)}


def compare(a, b, boilerplate=frozenset()):
    """The Match of two Fingerprinted programs, leaving out the fingerprints in `boilerplate`."""
    shared = (a.hashes & b.hashes) - boilerplate
    boiler_a = _covered(a.prints, a.hashes & boilerplate)
    boiler_b = _covered(b.prints, b.hashes & boilerplate)
    covered_a = _long_runs(_covered(a.prints, shared) - boiler_a)
    covered_b = _long_runs(_covered(b.prints, shared) - boiler_b)
    regions_a, run_of = _runs(a, covered_a)
    regions_b = _counterparts(a, b, shared, run_of, covered_b)
    return Match(
        coverage_a=_share(covered_a, len(a.tokens) - len(boiler_a)),
        coverage_b=_share(covered_b, len(b.tokens) - len(boiler_b)),
        shared_tokens_a=len(covered_a),
        shared_tokens_b=len(covered_b),
        regions_a=regions_a,
        regions_b=regions_b,
    )


def _long_runs(covered):
    """The positions of `covered` in runs of at least GUARANTEED consecutive tokens.
    Shorter matches are found only when winnowing happens to pick them, and are mostly
    the generic joints of any program (the end of one function and the header of the
    next): counting them would make the figure depend on luck."""
    kept = set()
    run = []
    for position in sorted(covered) + [None]:
        if run and position != run[-1] + 1:
            if len(run) >= GUARANTEED:
                kept.update(run)
            run = []
        run.append(position)
    return kept


def _share(covered, own):
    return len(covered) / own if own > 0 else 0.0


def _runs(program, covered):
    """Regions numbered 1.. over runs of consecutive covered positions, and the region
    number of each covered position."""
    run_of = {}
    number = 0
    for position in sorted(covered):
        if position - 1 not in covered:
            number += 1
        run_of[position] = number
    return _spans(program, run_of), run_of


def _counterparts(a, b, shared, run_of_a, covered_b):
    """Regions of `b` over `covered_b`, each numbered after the region of `a` that holds
    the same fingerprint."""
    run_of_b = {}
    for h in shared:
        number = next((run_of_a[q] for p in a.prints[h] for q in range(p, p + K) if q in run_of_a), None)
        if number is None:
            continue  # in `a` it lies in boilerplate or in a short, chance match
        for p in b.prints[h]:
            for position in range(p, p + K):
                if position in covered_b:
                    run_of_b.setdefault(position, number)
    return _spans(b, run_of_b)


def _spans(program, run_of):
    """Character spans of consecutive positions with one region number, line breaks and
    indentation at their edges left out."""
    spans = []
    group = []
    for position in sorted(run_of):
        if group and (position != group[-1] + 1 or run_of[position] != run_of[group[-1]]):
            spans.extend(_span(program, group, run_of[group[0]]))
            group = []
        group.append(position)
    if group:
        spans.extend(_span(program, group, run_of[group[0]]))
    return tuple(spans)


def _span(program, positions, number):
    inner = [program.tokens[p] for p in positions if program.tokens[p].text not in STRUCTURE]
    if not inner:
        return []
    return [Region(number=number, start=inner[0].start, end=inner[-1].end)]


def segments(code, regions):
    """`code` cut into (text, region number or None) pieces, in order, for display."""
    pieces = []
    cursor = 0
    for region in sorted(regions, key=lambda r: r.start):
        if region.start < cursor:
            continue  # overlaps the previous region: already shown there
        if region.start > cursor:
            pieces.append((code[cursor : region.start], None))
        pieces.append((code[region.start : region.end], region.number))
        cursor = region.end
    if cursor < len(code):
        pieces.append((code[cursor:], None))
    return pieces
