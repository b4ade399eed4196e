"""Similarity between candidates' code, robust to cosmetic changes: both
programs are compared as submissions.same_code.normalised_tokens (names, comments,
docstrings and layout do not count). Code that does not parse is tokenised as
written.
"""
import difflib
from dataclasses import dataclass
from itertools import combinations

from submissions.same_code import normalised_tokens

FLAG_THRESHOLD = 0.9


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
