"""Every module of the judge is type-checked with mypy's --strict checks (pyproject.toml)."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def strict_modules():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    [override] = config["tool"]["mypy"]["overrides"]
    assert override["disallow_untyped_defs"] is True
    return set(override["module"])


def judge_modules():
    modules = set()
    for path in (ROOT / "grader").rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        modules.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return modules


def test_every_module_of_the_judge_is_on_the_strict_list():
    assert judge_modules() - strict_modules() == set(), "add these to [[tool.mypy.overrides]] in pyproject.toml"


def test_the_strict_list_names_no_module_that_is_gone():
    assert strict_modules() - judge_modules() == set()
