"""How well the assessment report's copy flags (teams.similarity) tell copies from
independent answers, on bank exercises.

Corpus, per exercise in bench/similarity_corpus/: the bank's starter and model solution
(questions/bank/*/<exercise>/) and hand-written independent answers (`alt_*.py`).

- Copies: every answer (model solution and alternatives) transformed as a copier would:
  renamed (every name the program chose), renamed with two adjacent lines swapped (the
  issue's example), re-commented (comments and docstrings replaced), and all three at
  once; plus `partial_alt_1.py`, a copy of `alt_1.py` with about a third rewritten by
  hand, renamed. Each copy is compared with its original.
- Independent pairs: every two answers of one exercise, and the starter lightly edited
  (renamed, re-commented) against each answer and against another such edit: none of
  them should be flagged.

Each pair is compared as the report compares it: what it shares with the starter never
counts; what it shares with the model solution counts only when the model solution is
one side. Prints the detection rate per transformation, the false-flag rate, and with
--sweep the same over other thresholds (how FLAG_THRESHOLD and MIN_SHARED_TOKENS were
chosen). No database, no Django: `.venv/bin/python bench/similarity_bench.py [--sweep]`.
"""

import argparse
import ast
import io
import sys
import tokenize
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from teams.fingerprints import compare, fingerprint, tokens  # noqa: E402
from teams.similarity import FLAG_THRESHOLD, MIN_SHARED_TOKENS, boilerplate_prints, is_copy  # noqa: E402

CORPUS = ROOT / "bench" / "similarity_corpus"
BANK = ROOT / "questions" / "bank"
SIMPLE_STATEMENT_STARTS = (
    "def ",
    "class ",
    "if ",
    "elif ",
    "else",
    "for ",
    "while ",
    "return",
    "import ",
    "from ",
    "with ",
    "try",
    "except",
    "finally",
    "@",
    "#",
    '"',
    "'",
)


# Transformations -----------------------------------------------------------------------------------


def renamed(code, keep):
    """`code` with every name it chose (teams.fingerprints' `N` tokens) renamed, but those in `keep`."""
    new_names = {}
    pieces, cursor = [], 0
    for token in tokens(code):
        name = code[token.start : token.end]
        if token.text != "N" or name in keep:
            continue
        pieces += [code[cursor : token.start], new_names.setdefault(name, f"renamed_{len(new_names)}")]
        cursor = token.end
    return "".join(pieces) + code[cursor:]


def _assigned_name(line):
    return line.split("=", 1)[0].strip() if "=" in line and "==" not in line.split("=", 2)[0] + "=" else ""


def _swappable(first, second):
    """Two adjacent simple statements at one indentation, the second not reading what the first sets."""
    indent = len(first) - len(first.lstrip())
    if not first.strip() or not second.strip() or indent != len(second) - len(second.lstrip()):
        return False
    if any(
        line.strip().startswith(SIMPLE_STATEMENT_STARTS) or line.rstrip().endswith((":", "(", ",", "[", "\\"))
        for line in (first, second)
    ):
        return False
    assigned = _assigned_name(first)
    return bool(assigned) and assigned not in second


def swapped(code):
    """`code` with its first pair of swappable adjacent lines swapped; None when it has none."""
    lines = code.splitlines(keepends=True)
    for i in range(len(lines) - 1):
        if _swappable(lines[i], lines[i + 1]):
            return "".join(lines[:i] + [lines[i + 1], lines[i]] + lines[i + 2 :])
    return None


def _docstring_lines(code):
    lines = set()
    for node in ast.walk(ast.parse(code)):
        documented = isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        if documented and ast.get_docstring(node):
            first = node.body[0]
            lines.update(range(first.lineno, first.end_lineno + 1))
    return lines


def recommented(code):
    """`code` without its comments and docstrings, with other comments written in."""
    comments = [t for t in tokenize.generate_tokens(io.StringIO(code).readline) if t.type == tokenize.COMMENT]
    lines = code.splitlines()
    for comment in reversed(comments):
        row, col = comment.start
        lines[row - 1] = lines[row - 1][:col].rstrip()
    docstrings = _docstring_lines(code)
    out = []
    for number, line in enumerate(lines, start=1):
        if number in docstrings or (not line.strip() and number - 1 in docstrings):
            continue
        if line.lstrip().startswith("def "):
            out.append(line[: len(line) - len(line.lstrip())] + "# my approach: see below")
        elif line.strip() and not line.rstrip().endswith(("\\", ":")) and number % 2:
            line += "  # step"
        out.append(line)
    return "\n".join(out) + "\n"


# The corpus ---------------------------------------------------------------------------------------


def bank_folder(exercise):
    return next(BANK.glob(f"*/{exercise}"))


def exercise_corpus(folder):
    """(starter, solution, {name: answer}, partial rewrite of alt_1 or None) for one exercise."""
    bank = bank_folder(folder.name)
    starter, solution = (bank / "starter.py").read_text(), (bank / "solution.py").read_text()
    answers = {"solution": solution}
    answers.update({path.stem: path.read_text() for path in sorted(folder.glob("alt_*.py"))})
    partial = folder / "partial_alt_1.py"
    return starter, solution, answers, partial.read_text() if partial.exists() else None


def _entry_points(starter):
    return {node.name for node in ast.parse(starter).body if isinstance(node, ast.FunctionDef)}


def copies(answers, partial, keep):
    """(transformation, copy, original name) for every copy the bench makes."""
    for name, code in answers.items():
        yield "renamed", renamed(code, keep), name
        reordered = swapped(code)
        if reordered is not None:
            yield "renamed, two lines swapped", renamed(reordered, keep), name
        yield "re-commented", recommented(code), name
        if reordered is not None:
            yield "renamed, swapped, re-commented", recommented(renamed(reordered, keep)), name
    if partial is not None:
        yield "a third rewritten, renamed", renamed(partial, keep), "alt_1"


def _boilerplate(names, starter, solution):
    """As the report: the model solution's fingerprints count only when it is one side."""
    return boilerplate_prints(starter) if "solution" in names else boilerplate_prints(starter, solution)


TINY = f"any copy of a tiny answer (under {MIN_SHARED_TOKENS} tokens of its own)"


def _own_tokens(code, boilerplate):
    """How many of the code's tokens lie in fingerprints that are not boilerplate."""
    return compare(fingerprint(code), fingerprint(code), boilerplate).shared_tokens


def measured_pairs():
    """(group, exercise, match) for every copy and every independent pair in the corpus."""
    pairs = []
    for folder in sorted(path for path in CORPUS.iterdir() if path.is_dir()):
        starter, solution, answers, partial = exercise_corpus(folder)
        keep = _entry_points(starter)
        for transformation, copy, original in copies(answers, partial, keep):
            boilerplate = _boilerplate({original}, starter, solution)
            group = TINY if _own_tokens(answers[original], boilerplate) < MIN_SHARED_TOKENS else transformation
            pairs.append((group, folder.name, compare(fingerprint(copy), fingerprint(answers[original]), boilerplate)))
        for (name_a, a), (name_b, b) in combinations(answers.items(), 2):
            boilerplate = _boilerplate({name_a, name_b}, starter, solution)
            pairs.append(("independent answers", folder.name, compare(fingerprint(a), fingerprint(b), boilerplate)))
        edited_starters = [renamed(starter, keep), recommented(starter)]
        for edited in edited_starters:
            for name, answer in answers.items():
                boilerplate = _boilerplate({name}, starter, solution)
                match = compare(fingerprint(edited), fingerprint(answer), boilerplate)
                pairs.append(("starter edited vs an answer", folder.name, match))
        boilerplate = _boilerplate(set(), starter, solution)
        pairs.append(
            (
                "starter edited vs starter edited",
                folder.name,
                compare(fingerprint(edited_starters[0]), fingerprint(edited_starters[1]), boilerplate),
            )
        )
    return pairs


# Reporting ----------------------------------------------------------------------------------------

INDEPENDENT_GROUPS = ("independent answers", "starter edited vs an answer", "starter edited vs starter edited")


def rates(pairs, threshold, min_tokens):
    """{group: (flagged, total)}, groups in the order first seen."""
    counts = {}
    for group, _exercise, match in pairs:
        flagged, total = counts.get(group, (0, 0))
        counts[group] = (flagged + is_copy(match, threshold, min_tokens), total + 1)
    return counts


def _percent(flagged, total):
    return f"{100 * flagged / total:.0f}% ({flagged}/{total})" if total else "n/a"


def table(pairs, threshold, min_tokens):
    lines = ["| pairs | flagged |", "| --- | --- |"]
    for group, (flagged, total) in rates(pairs, threshold, min_tokens).items():
        kind = "false flags" if group in INDEPENDENT_GROUPS else "copies found"
        lines.append(f"| {group} ({kind}) | {_percent(flagged, total)} |")
    return "\n".join(lines)


def sweep(pairs):
    lines = ["| threshold | min shared tokens | copies found | false flags |", "| --- | --- | --- | --- |"]
    for min_tokens in (0, 12, 16, 20, 24, 36):
        for threshold in (0.4, 0.5, 0.6, 0.7):
            counts = rates(pairs, threshold, min_tokens)
            found = [counts[g] for g in counts if g not in INDEPENDENT_GROUPS]
            false = [counts[g] for g in counts if g in INDEPENDENT_GROUPS]
            lines.append(
                f"| {threshold:.1f} | {min_tokens} | {_percent(*map(sum, zip(*found, strict=True)))} "
                f"| {_percent(*map(sum, zip(*false, strict=True)))} |"
            )
    return "\n".join(lines)


def missed_and_false(pairs):
    lines = []
    for group, exercise, match in pairs:
        flagged = is_copy(match)
        if flagged == (group in INDEPENDENT_GROUPS):
            verdict = "false flag" if flagged else "missed"
            detail = f"score {match.score:.2f}, {match.shared_tokens} shared tokens"
            lines.append(f"- {verdict}: {group}, {exercise}: {detail}")
    return "\n".join(lines) or "- none"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sweep", action="store_true", help="also the rates at other thresholds")
    args = parser.parse_args()
    pairs = measured_pairs()
    print(f"Flagged at score >= {FLAG_THRESHOLD} with >= {MIN_SHARED_TOKENS} shared tokens:\n")
    print(table(pairs, FLAG_THRESHOLD, MIN_SHARED_TOKENS))
    print("\nMissed copies and false flags:\n")
    print(missed_and_false(pairs))
    if args.sweep:
        print("\nOther limits:\n")
        print(sweep(pairs))


if __name__ == "__main__":
    main()
