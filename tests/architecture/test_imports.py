"""The layering rule: each app imports only the apps its row in docs/where-things-are.md
allows, so no two apps depend on each other, and the harness (run inside the sandbox)
imports nothing from Django or the host. The table in the doc is the rule itself."""
import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "where-things-are.md"
TABLE_HEADING = "## Apps and what each may import"
#: The project's own top-level packages; everything else is a library.
PROJECT_PACKAGES = ("interview_platform", "questions", "grader")
DJANGO_FREE_MARK = "Django-free"


@dataclass(frozen=True)
class Rule:
    app: str
    may_import: frozenset
    #: For a Django-free app: the libraries it may import besides the standard library; None otherwise.
    django_free_libraries: frozenset | None


@dataclass(frozen=True)
class Violation:
    module: str
    imported: str
    line: int
    reason: str

    def __str__(self):
        return f"{self.module}:{self.line} imports {self.imported}: {self.reason}"


def read_rules(text):
    """The rules from the doc's table: {app: Rule}."""
    section = text.split(TABLE_HEADING, 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    apps = [re.fullmatch(r"`([\w.]+)`", row.split("|")[1].strip()).group(1) for row in rows]
    rules = {}
    for app, row in zip(apps, rows):
        cell = row.rstrip(" |").split("|")[-1]
        names = re.findall(r"`([\w.]+)`", cell)
        unknown = [name for name in names if name not in apps]
        django_free = DJANGO_FREE_MARK in cell
        if unknown and not django_free:
            raise ValueError(f"{app} may import {unknown}, which are not apps of the table")
        libraries = frozenset(unknown) if django_free else None
        rules[app] = Rule(app, frozenset(name for name in names if name in apps), libraries)
    return rules


def app_of(module, rules):
    """The longest app name that is `module` or a package above it; None outside the project."""
    owners = [app for app in rules if module == app or module.startswith(app + ".")]
    return max(owners, key=len, default=None)


def imported_modules(source, module, *, is_package=False):
    """(dotted name, line) of everything imported in `source`, at any depth (function-level
    too), relative ones resolved, and importlib.import_module/__import__ of a literal."""
    package = module if is_package else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join(parts + ([node.module] if node.module else []))
            # base.name: `from package import module` may name a module of another app.
            found.extend((f"{base}.{alias.name}" if alias.name != "*" else base, node.lineno) for alias in node.names)
        elif isinstance(node, ast.Call) and _is_dynamic_import(node.func) and node.args:
            argument = node.args[0]
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                found.append((argument.value, node.lineno))
    return found


def _is_dynamic_import(func):
    return (isinstance(func, ast.Attribute) and func.attr == "import_module") or (
        isinstance(func, ast.Name) and func.id in ("import_module", "__import__")
    )


def violations(module, source, rules, *, is_package=False):
    """Every import in `module` that its app's rule forbids."""
    app = app_of(module, rules)
    if app is None:
        return [Violation(module, "", 0, "the module belongs to no app of the table")]
    rule = rules[app]
    found = []
    for imported, line in imported_modules(source, module, is_package=is_package):
        target = app_of(imported, rules)
        top = imported.split(".")[0]
        if target is not None and target != app and not _allowed(target, rule):
            found.append(Violation(module, imported, line, f"{app} may import only {sorted(rule.may_import) or 'no app'}"))
        elif target is None and top in PROJECT_PACKAGES:
            found.append(Violation(module, imported, line, "not part of any app of the table"))
        elif rule.django_free_libraries is not None and target is None and not (
            top in sys.stdlib_module_names or top in rule.django_free_libraries
        ):
            allowed = ", ".join(sorted(rule.django_free_libraries))
            found.append(Violation(module, imported, line, f"{app} is Django-free: the standard library and {allowed} only"))
    return found


def _allowed(target, rule):
    """An app the rule names, or one inside it (`grader` allows `grader.harness`)."""
    return any(target == app or target.startswith(app + ".") for app in rule.may_import)


def project_modules():
    """(module name, path, is_package) of every module of the project's packages."""
    for package in PROJECT_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            is_package = parts[-1] == "__init__"
            yield ".".join(parts[:-1] if is_package else parts), path, is_package


def cycles(rules):
    """App cycles the table itself allows, as lists of app names."""
    found = []

    def visit(app, path):
        for target in sorted(rules[app].may_import):
            if target in path:
                found.append(path[path.index(target):] + [target])
            elif target > path[0]:  # report each cycle once, from its smallest app
                visit(target, path + [target])

    for app in sorted(rules):
        visit(app, [app])
    return [cycle for cycle in found if cycle[0] == min(cycle)]


@pytest.fixture(scope="module")
def rules():
    return read_rules(DOC.read_text(encoding="utf-8"))


# -- the tree ------------------------------------------------------------------------------


def test_every_module_imports_only_what_its_app_may(rules):
    found = []
    for module, path, is_package in project_modules():
        found.extend(violations(module, path.read_text(encoding="utf-8"), rules, is_package=is_package))
    assert not found, "Imports the layering table (docs/where-things-are.md) forbids:\n" + "\n".join(map(str, found))


def test_the_table_allows_no_cycle(rules):
    assert cycles(rules) == []


def test_every_installed_app_of_the_project_has_a_row(rules, settings):
    ours = [app for app in settings.INSTALLED_APPS if app.split(".")[0] in PROJECT_PACKAGES]
    assert [app for app in ours if app not in rules] == []


# -- the checker, on synthetic modules ------------------------------------------------------


def test_a_cycle_added_back_is_caught(rules):
    source = "def counts():\n    from grader.models import Submission\n    return Submission\n"
    [violation] = violations("questions.services", source, rules)
    assert violation.imported == "grader.models.Submission" and violation.line == 2


def test_relative_and_dynamic_imports_are_resolved(rules):
    source = "import importlib\nfrom .. import teams\nimportlib.import_module('interview_platform.api.views')\n"
    found = violations("interview_platform.leaderboards.services", source, rules)
    assert {v.imported for v in found} == {"interview_platform.teams", "interview_platform.api.views"}


def test_the_harness_may_not_import_django_or_the_host(rules):
    source = "import numpy\nimport json\nfrom django.conf import settings\nfrom grader import states\nfrom . import stats\n"
    found = violations("grader.harness.feedback", source, rules)
    assert {v.imported for v in found} == {"django.conf.settings", "grader.states"}


def test_a_table_that_allows_a_cycle_is_caught():
    table = (
        f"{TABLE_HEADING}\n\n| app | owns | may import |\n| --- | --- | --- |\n"
        "| `a` | . | `b` |\n| `b` | . | `c` |\n| `c` | . | `a` |\n| `d` | . | nothing |\n"
    )
    assert cycles(read_rules(table)) == [["a", "b", "c", "a"]]
