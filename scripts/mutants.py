#!/usr/bin/env python3
"""Mutation testing of the code that decides verdicts, speedups and ranks.

Each mutant is one small change to one module (a flipped comparison, `and` for
`or`, a changed constant, `None` returned, a removed `not`, a moved slice
bound...). The module's fast tests run against it; a mutant they fail on is
killed, one they pass on survived: a mistake of that shape would go unnoticed.

Mutants run in a private copy of the repository under the system temporary
folder (the working tree, not .git or .venv), never in the working tree itself,
so people editing and testing it meanwhile see nothing; the copy is deleted at
the end, even on Ctrl-C. The mutants of a module are a sample drawn with a fixed
seed, so a rerun on the same code runs the same mutants.

Mutants known to change nothing a caller can observe are listed, each with the
reason, in scripts/mutants_equivalent.toml; they are not run and do not count.
The score of a module is killed / (killed + survived); the command exits non-zero
when a module scores below its recorded floor (FLOORS, or --min-score).

    .venv/bin/python scripts/mutants.py                       # every module (make mutants)
    .venv/bin/python scripts/mutants.py --module compare --module stats   # what CI runs
    .venv/bin/python scripts/mutants.py --module numeric --show-survivors
"""

import argparse
import ast
import copy
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENTS_FILE = ROOT / "scripts" / "mutants_equivalent.toml"
SEED = 20261203
MUTANTS_PER_MODULE = 60

#: Module -> stages of pytest arguments, run in order until one fails (cheap tests first).
#: Only fast unit tests: the harness's own supervisor and sandbox runs are not here.
#: Plugins are not auto-loaded (the suite's environment has heavy ones, e.g. hypothesis via
#: schemathesis, whose loading costs seconds per run): pytest-django is the one these tests need
#: (tests/conftest.py uses its fixtures, even around the harness's Django-free tests).
WITH_DJANGO = ["-p", "pytest_django.plugin", "--ds=mutants_settings"]
MODULES = {
    "compare": (
        "grader/harness/compare.py",
        [[*WITH_DJANGO, "tests/harness/test_compare.py", "tests/harness/test_units.py", "tests/harness/test_echo.py"]],
    ),
    "stats": (
        "grader/harness/stats.py",
        [[*WITH_DJANGO, "tests/harness/test_stats.py", "tests/harness/test_units.py", "tests/harness/test_echo.py"]],
    ),
    "numeric": (
        "questions/numeric.py",
        [[*WITH_DJANGO, "tests/questions/test_numeric.py", "tests/questions/test_numeric_units.py"]],
    ),
    "grading": (
        "grader/grading.py",
        [
            [
                *WITH_DJANGO,
                "tests/submissions/test_grading_host.py",
                "tests/grader/test_grading.py",
                "-m",
                "not sandbox",
            ],
            # Two real gradings for what only a sandbox run shows (the files written, the report returned),
            # both in check mode: correctness only. The timed and limit tests are left out, since their
            # outcome on a loaded host hinges on the load, not on this module.
            [*WITH_DJANGO, "tests/grader/test_grading.py", "-m", "sandbox", "-k", "check_mode or check_py"],
        ],
    ),
    "gpu": ("grader/harness/gpu.py", [[*WITH_DJANGO, "tests/harness/test_gpu_phases.py"]]),
    "leaderboards": (
        "leaderboards/services.py",
        [
            [
                *WITH_DJANGO,
                "tests/leaderboards/test_ranking.py",
                "tests/leaderboards/test_standing.py",
                "tests/leaderboards/test_pages.py::test_a_board_page_holds_fifty_people",
            ]
        ],
    ),
}
#: Recorded scores (percent of non-equivalent mutants killed): a run below them fails.
FLOORS = {"compare": 100.0, "stats": 100.0, "numeric": 100.0, "grading": 100.0, "leaderboards": 100.0, "gpu": 100.0}

#: A fast password hasher for the copy's test runs (users are created in many tests);
#: nothing else differs from the project's settings.
TEST_SETTINGS = """from interview_platform.settings import *  # noqa: F401,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
"""
COPY_IGNORE = shutil.ignore_patterns(
    ".venv",
    ".git",
    "node_modules",
    "__pycache__",
    ".run",
    "db.sqlite3",
    "staticfiles",
    ".pytest_cache",
    "test-artifacts",
)

COMPARISON_SWAPS = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
}
ARITHMETIC_SWAPS = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Div,
    ast.Div: ast.Mult,
    ast.FloorDiv: ast.Div,
    ast.Pow: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.BitAnd: ast.BitOr,
    ast.BitOr: ast.BitAnd,
    ast.LShift: ast.RShift,
}
CALL_SWAPS = {"min": "max", "max": "min", "any": "all", "all": "any"}


@dataclass
class Mutant:
    module: str
    key: str  # stable across line moves: "function: original -> mutated"
    line: int
    source: str = field(repr=False)
    outcome: str = ""


# -- generating mutants -----------------------------------------------------------


def _replace(tree, target, build):
    """A copy of `tree` with node number `target` (ast.walk order) rebuilt by build(node)."""
    tree = copy.deepcopy(tree)
    for index, node in enumerate(ast.walk(tree)):
        if index == target:
            build(node)
            return tree
    raise IndexError(target)


def _mutations(node):
    """One function per mutation of `node`, each changing it in place (strings are never changed:
    they are messages, and a changed message is a test of wording, not of numbers)."""
    if isinstance(node, ast.Compare):
        for position, op in enumerate(node.ops):
            swapped = COMPARISON_SWAPS.get(type(op))
            if swapped:
                yield lambda n, p=position, s=swapped: n.ops.__setitem__(p, s())
    elif isinstance(node, ast.BoolOp):
        yield lambda n: setattr(n, "op", ast.Or() if isinstance(n.op, ast.And) else ast.And())
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield lambda n: _become(n, n.operand)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        yield lambda n: _become(n, n.operand)
    elif isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in ARITHMETIC_SWAPS:
        yield lambda n: setattr(n, "op", ARITHMETIC_SWAPS[type(n.op)]())
    elif isinstance(node, ast.Constant) and type(node.value) in (int, float):
        value = node.value
        for changed in dict.fromkeys([value + 1, value * 2 if value else 1, 0]):
            if changed != value:
                yield lambda n, c=changed: setattr(n, "value", type(value)(c))
    elif isinstance(node, ast.Constant) and type(node.value) is bool:
        yield lambda n: setattr(n, "value", not n.value)
    elif isinstance(node, ast.Return) and node.value is not None and not _is_none(node.value):
        yield lambda n: setattr(n, "value", ast.Constant(None))
    elif isinstance(node, ast.Slice):
        for bound in ("lower", "upper"):
            if getattr(node, bound) is not None:
                yield lambda n, b=bound: setattr(n, b, None)
                yield lambda n, b=bound: setattr(n, b, ast.BinOp(getattr(n, b), ast.Add(), ast.Constant(1)))
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in CALL_SWAPS:
        yield lambda n: setattr(n.func, "id", CALL_SWAPS[n.func.id])


def _is_none(node):
    return isinstance(node, ast.Constant) and node.value is None


def _become(node, other):
    """Turn `node` into `other` in place (for removing a unary operator)."""
    node.__class__ = other.__class__
    node.__dict__.clear()
    node.__dict__.update(other.__dict__)


def _skipped_nodes(tree):
    """Nodes not worth mutating: annotations and the insides of f-strings (format specs)."""
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.JoinedStr, ast.AnnAssign)):
            skipped.update(
                id(inner) for inner in ast.walk(node.annotation if isinstance(node, ast.AnnAssign) else node)
            )
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for argument in ast.walk(node.args):
                if getattr(argument, "annotation", None) is not None:
                    skipped.update(id(inner) for inner in ast.walk(argument.annotation))
            if node.returns is not None:
                skipped.update(id(inner) for inner in ast.walk(node.returns))
    return skipped


def _context(parents, node):
    """The innermost enclosing function's name, and what to show of the change:
    the whole expression of the statement that holds `node` (or the statement)."""
    function, holder, current = "<module>", node, node
    while current in parents:
        parent = parents[current]
        if isinstance(current, ast.expr) and isinstance(parent, ast.stmt):
            holder = current
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and function == "<module>":
            function = parent.name
        current = parent
    if isinstance(node, ast.stmt):
        holder = node
    return function, holder


def generate(module_path):
    text = (ROOT / module_path).read_text(encoding="utf-8")
    tree = ast.parse(text)
    skipped = _skipped_nodes(tree)
    parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    nodes = list(ast.walk(tree))
    seen = {}
    mutants = []
    for index, node in enumerate(nodes):
        if id(node) in skipped:
            continue
        function, holder = _context(parents, node)
        holder_index = nodes.index(holder)
        for mutate in _mutations(node):
            mutated = _replace(tree, index, mutate)
            before = ast.unparse(holder).splitlines()[0]
            after = ast.unparse(list(ast.walk(mutated))[holder_index]).splitlines()[0]
            if before == after:
                continue
            key = f"{function}: {before} -> {after}"
            seen[key] = seen.get(key, 0) + 1
            if seen[key] > 1:
                key += f" #{seen[key]}"
            mutants.append(Mutant(module_path, key, getattr(node, "lineno", 0), ast.unparse(mutated) + "\n"))
    return mutants


def sample(mutants, count, seed):
    chosen = sorted(random.Random(seed).sample(range(len(mutants)), min(count, len(mutants))))
    return [mutants[i] for i in chosen]


# -- running them -----------------------------------------------------------------


def make_copy():
    workdir = Path(tempfile.mkdtemp(prefix="hotpath-mutants-"))
    tree = workdir / "repo"
    shutil.copytree(ROOT, tree, ignore=COPY_IGNORE, symlinks=True)
    (tree / "mutants_settings.py").write_text(TEST_SETTINGS, encoding="utf-8")
    return workdir, tree


def run_tests(tree, stages, timeout, output=subprocess.DEVNULL):
    """'passed', 'failed' or 'timeout' for the stages run in order in `tree`."""
    environment = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    environment.pop("DJANGO_SETTINGS_MODULE", None)
    deadline = time.monotonic() + timeout
    for stage in stages:
        command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *stage]
        process = subprocess.Popen(
            command, cwd=tree, env=environment, stdout=output, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            code = process.wait(timeout=max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            _kill(process)
            return "timeout"
        except BaseException:  # Ctrl-C: leave no test run behind
            _kill(process)
            raise
        if code == 5:  # no tests collected in this stage (e.g. none marked)
            continue
        if code != 0:
            return "failed"
    return "passed"


def _write_source(path, text):
    """Write a module and drop its compiled copy: a .pyc is reused when the source
    has the same size and modification second, which a mutant written within a
    second of the last one may well have."""
    path.write_text(text, encoding="utf-8")
    for compiled in (path.parent / "__pycache__").glob(f"{path.stem}.*.pyc"):
        compiled.unlink()


def _kill(process):
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def load_equivalents():
    if not EQUIVALENTS_FILE.exists():
        return {}
    entries = tomllib.loads(EQUIVALENTS_FILE.read_text(encoding="utf-8")).get("equivalent", [])
    return {(entry["module"], entry["mutant"]): entry["reason"] for entry in entries}


def run_module(name, tree, equivalents, count, seed, deadline, show_survivors, extra_arguments=(), match=None):
    module_path, stages = MODULES[name]
    stages = [[*stage, *extra_arguments] for stage in stages]
    mutants = [
        m for m in sample(generate(module_path), count, seed) if not match or any(text in m.key for text in match)
    ]
    target = tree / module_path
    original = target.read_text(encoding="utf-8")
    started = time.monotonic()
    with tempfile.TemporaryFile() as output:
        if run_tests(tree, stages, timeout=600, output=output) != "passed":
            output.seek(0)
            print(output.read().decode(errors="replace")[-3000:])
            print(f"{name}: the tests fail on the unmutated code; fix them first", flush=True)
            return mutants, False
    baseline = time.monotonic() - started
    for mutant in mutants:
        if (module_path, mutant.key) in equivalents:
            mutant.outcome = "equivalent"
            continue
        if time.monotonic() > deadline:
            mutant.outcome = "not run"
            continue
        _write_source(target, mutant.source)
        try:
            result = run_tests(tree, stages, timeout=3 * baseline + 30)
        finally:
            _write_source(target, original)
        mutant.outcome = "survived" if result == "passed" else "killed"
        if show_survivors and mutant.outcome == "survived":
            print(f"  survived line {mutant.line}: {mutant.key}", flush=True)
        else:
            print(".", end="", flush=True)
    print(flush=True)
    return mutants, True


def score(mutants):
    killed = sum(m.outcome == "killed" for m in mutants)
    survived = sum(m.outcome == "survived" for m in mutants)
    return killed, survived, (100.0 * killed / (killed + survived) if killed + survived else 100.0)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--module", action="append", choices=sorted(MODULES), help="repeatable; default: all")
    parser.add_argument("--mutants", type=int, default=MUTANTS_PER_MODULE, help="mutants sampled per module (0: all)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument(
        "--budget", type=float, default=3600, help="seconds; mutants left when it runs out are 'not run'"
    )
    parser.add_argument("--min-score", type=float, help="instead of the recorded floors")
    parser.add_argument("--show-survivors", action="store_true")
    parser.add_argument(
        "--deselect",
        action="append",
        default=[],
        metavar="NODEID",
        help="leave a test out of every run (one broken by work elsewhere); repeatable",
    )
    parser.add_argument("--list", action="store_true", help="print the sampled mutants' keys and exit")
    parser.add_argument(
        "--match",
        action="append",
        metavar="TEXT",
        help="run only the sampled mutants whose key contains TEXT; repeatable",
    )
    args = parser.parse_args(argv)
    names = args.module or list(MODULES)
    count = args.mutants or 10**9
    equivalents = load_equivalents()

    if args.list:
        for name in names:
            for mutant in sample(generate(MODULES[name][0]), count, args.seed):
                print(f"{MODULES[name][0]}:{mutant.line}: {mutant.key}")
        return 0

    deadline = time.monotonic() + args.budget
    workdir, tree = make_copy()
    rows, failing = [], []
    try:
        for name in names:
            deselected = [option for node in args.deselect for option in ("--deselect", node)]
            mutants, ran = run_module(
                name, tree, equivalents, count, args.seed, deadline, args.show_survivors, deselected, args.match
            )
            killed, survived, percent = score(mutants)
            equivalent = sum(m.outcome == "equivalent" for m in mutants)
            not_run = sum(m.outcome == "not run" for m in mutants)
            floor = FLOORS[name] if args.min_score is None else args.min_score
            if not ran or percent < floor:
                failing.append(name)
            rows.append(
                (
                    name,
                    MODULES[name][0],
                    len(mutants),
                    killed,
                    survived,
                    equivalent,
                    not_run,
                    percent if ran else None,
                    floor,
                )
            )
            print(
                f"{name}: {killed} killed, {survived} survived, {equivalent} equivalent, {not_run} not run: {percent:.1f}% (floor {floor:g}%)",
                flush=True,
            )
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    print("\n| module | mutants | killed | survived | equivalent | not run | score |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, path, total, killed, survived, equivalent, not_run, percent, _ in rows:
        shown = "tests fail unmutated" if percent is None else f"{percent:.1f}%"
        print(f"| {path} | {total} | {killed} | {survived} | {equivalent} | {not_run} | {shown} |")
    generated = {(MODULES[name][0], m.key) for name in names for m in generate(MODULES[name][0])}
    stale = [key for key in equivalents if key[0] in {MODULES[name][0] for name in names} and key not in generated]
    for module_path, key in stale:
        print(f"warning: listed equivalent no longer generated ({module_path}): {key}")
    if failing:
        print(f"below the floor: {', '.join(failing)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
