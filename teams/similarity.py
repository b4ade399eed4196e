"""Copies among candidates' code, found by fingerprints (teams.fingerprints: winnowed
k-grams of normalised Python tokens), for the assessment report.

Each candidate's final code for a coding question is compared with every other
candidate's, and with each `Source`: the exercise's model solution, accepted public
practice answers to the exercise, the final code of the organisation's other sittings
on it. What a program shares with the starter never counts, nor what it shares with
the model solution except when the model solution itself is the other side: code
close to the starter, or to the one obvious answer every solver writes, is not a copy.

A pair is flagged when its Match scores at least FLAG_THRESHOLD (the larger share of
either program's own tokens inside shared fingerprints) and that shared part is at
least MIN_SHARED_TOKENS long in both programs, so two tiny programs never match by
saying the same one line. Both numbers were chosen on bench/similarity_bench.py's
corpus (docs/benchmarks.md, "Similarity").
"""

from dataclasses import dataclass
from itertools import combinations

from .fingerprints import compare, fingerprint, segments

FLAG_THRESHOLD = 0.6
MIN_SHARED_TOKENS = 24


@dataclass(frozen=True)
class Source:
    """Code a candidate's answer is compared with. `kind`: "solution", "practice" or
    "sitting"; `session`: the CandidateSession of a sitting; `author`: who wrote it,
    when known, so a candidate is never flagged for their own earlier work."""

    kind: str
    label: str
    code: str
    session: object = None
    author: object = None


@dataclass(frozen=True)
class SimilarityFlag:
    item: object
    first: object  # the candidate's key (the caller's: a CandidateSession in the report)
    second: object  # another candidate's key, or a Source
    first_code: str
    second_code: str
    match: object  # teams.fingerprints.Match

    @property
    def score(self):
        return self.match.score

    @property
    def second_is_candidate(self):
        return not isinstance(self.second, Source)

    def first_segments(self):
        """The first program in (text, region number or None) pieces, for display."""
        return segments(self.first_code, self.match.regions_a)

    def second_segments(self):
        return segments(self.second_code, self.match.regions_b)


def is_copy(match, threshold=FLAG_THRESHOLD, min_tokens=MIN_SHARED_TOKENS):
    """Whether a Match is flagged: see the module's docstring (the bench tries other limits)."""
    return match.score >= threshold and match.shared_tokens >= min_tokens


def boilerplate_prints(*codes):
    """The fingerprints of code every candidate may share (starter, model solution)."""
    return frozenset().union(*(fingerprint(code).hashes for code in codes if code))


def item_flags(item, candidates, sources=(), starter="", solution="", author_of=None):
    """Flags for one question. `candidates`: {key: final code}; `sources`: Sources;
    `author_of(key)`: the candidate's user, to skip their own earlier work. Pairs of
    candidates come once, each candidate against each source once; best score first."""
    starter_only = boilerplate_prints(starter)
    everything = boilerplate_prints(starter, solution)
    flags = []
    for first, second in combinations(candidates, 2):
        flags.extend(_flag(item, first, candidates[first], second, candidates[second], everything))
    for key, code in candidates.items():
        for source in sources:
            if author_of is not None and source.author is not None and source.author == author_of(key):
                continue
            boilerplate = starter_only if source.kind == "solution" else everything
            flags.extend(_flag(item, key, code, source, source.code, boilerplate))
    return sorted(flags, key=lambda flag: -flag.score)


def _flag(item, first, first_code, second, second_code, boilerplate):
    match = compare(fingerprint(first_code), fingerprint(second_code), boilerplate)
    if is_copy(match):
        return [SimilarityFlag(item, first, second, first_code, second_code, match)]
    return []
