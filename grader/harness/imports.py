"""What submitted code may import and touch.

This is a policy check, not the security boundary (the sandbox is): it turns
the obvious ways of reaching the operating system, the grader's processes or
Python's introspection machinery into a clear "rejected" message before any
code runs, and the runner enforces the same import list at run time on the
submission's import statements, and the forbidden modules on any import that
goes through its builtins (see guarded_builtins).
"""

import ast
import builtins
import difflib
import dis
import sys
from collections.abc import Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType

#: Standard-library modules with no access to the OS, files or processes.
HARMLESS_STDLIB = frozenset(
    {
        "__future__",
        "math",
        "cmath",
        "functools",
        "itertools",
        "operator",
        "collections",
        "typing",
        "dataclasses",
        "heapq",
        "bisect",
    }
)

#: Never importable, whatever an exercise lists.
FORBIDDEN_MODULES = frozenset(
    {
        "os",
        "sys",
        "subprocess",
        "socket",
        "ctypes",
        "_ctypes",
        "multiprocessing",
        "threading",
        "_thread",
        "signal",
        "importlib",
        "builtins",
        "concurrent",
        "asyncio",
        "pickle",
        "marshal",
        "shutil",
        "pathlib",
        "io",
        "tempfile",
        "mmap",
        "gc",
        "inspect",
        "resource",
        "fcntl",
        "pty",
        "posix",
        "code",
        "codeop",
        "runpy",
        "faulthandler",
        "atexit",
        "sysconfig",
        "platform",
        "select",
        "selectors",
        "pdb",
        "trace",
        "tracemalloc",
        "weakref",
        "linecache",
        "cffi",
    }
)

#: Builtins that evaluate code, reach files or reach objects by computed name.
BANNED_NAMES = frozenset(
    {
        "__import__",
        "eval",
        "exec",
        "compile",
        "open",
        "globals",
        "locals",
        "vars",
        "getattr",
        "setattr",
        "delattr",
        "breakpoint",
        "input",
        "help",
        "exit",
        "quit",
        "__builtins__",
        "__loader__",
        "__spec__",
    }
)

#: Attributes that lead to ctypes, frames or code objects, or fetch attributes by name.
BANNED_ATTRIBUTES = (
    frozenset(
        {
            "ctypes",
            "ctypeslib",
            "_ctypes",
            "attrgetter",
            "methodcaller",
            "f_globals",
            "f_locals",
            "f_back",
            "f_builtins",
            "f_code",
            "gi_frame",
            "gi_code",
            "cr_frame",
            "cr_code",
            "ag_frame",
            "tb_frame",
            "tb_next",
            "co_code",
            "load_library",
            "f2py",
            "distutils",
            "system",
            "popen",
            "fork",
            "forkpty",
            "kill",
            "killpg",
            "environ",
            "execv",
            "execve",
            "execvp",
            "spawnv",
            "spawnve",
            "_exit",
        }
    )
    | FORBIDDEN_MODULES
)

#: Dunder attributes ordinary code uses; every other __x__ attribute is introspection.
ALLOWED_DUNDER_ATTRIBUTES = frozenset(
    {
        "__init__",
        "__name__",
        "__doc__",
        "__qualname__",
        "__len__",
        "__getitem__",
        "__setitem__",
        "__iter__",
        "__next__",
        "__call__",
        "__enter__",
        "__exit__",
    }
)


@dataclass(frozen=True)
class Problem:
    verdict: str  # "rejected", "syntax_error" or "runtime_error"
    message: str
    line: int | None = None
    hint: str | None = None  # instead of the verdict's general hint


#: The hint when the function the grader calls is missing.
MISSING_ENTRY_POINT_HINT = (
    "The grader calls your function by its name with the arguments the starter code shows: keep the starter's "
    "`def` line and change only what is inside it."
)


def allowed_modules(allowed_imports: Iterable[str]) -> set[str]:
    """The top-level modules a submission may import: the exercise's and the harmless
    standard library, never a forbidden one."""
    return (set(allowed_imports) | HARMLESS_STDLIB) - FORBIDDEN_MODULES


def check_source(source: str, allowed_imports: Iterable[str], entry_point: str) -> Problem | None:
    """The first policy problem in `source`, or None when it may run."""
    try:
        tree = ast.parse(source, filename="solution.py")
    except SyntaxError as exc:  # IndentationError and TabError too
        where = f" at line {exc.lineno}" if exc.lineno else ""
        return Problem("syntax_error", f"Syntax error{where}: {exc.msg}.", exc.lineno)
    except (ValueError, RecursionError, MemoryError) as exc:  # a NUL byte; nesting too deep to parse
        return Problem("syntax_error", f"Python could not read your code ({type(exc).__name__}: {exc}).")
    allowed = allowed_modules(allowed_imports)
    for node in ast.walk(tree):
        problem = _check_node(node, allowed)
        if problem:
            return problem
    bound = set(_top_level_names(tree))
    if entry_point not in bound:
        return Problem(
            "runtime_error",
            f"Your code does not define a function named `{entry_point}`.{_did_you_mean(entry_point, bound)}",
            hint=MISSING_ENTRY_POINT_HINT,
        )
    return None


def _did_you_mean(entry_point: str, bound: Iterable[str]) -> str:
    """A sentence naming the defined name `entry_point` was probably meant to be
    (a typo, another case), or nothing when none is close."""
    close = difflib.get_close_matches(entry_point, sorted(bound), n=1, cutoff=0.75)
    if not close:
        folded = [name for name in sorted(bound) if name.lower() == entry_point.lower()]
        close = folded[:1]
    return f" It defines `{close[0]}`: rename it `{entry_point}`." if close else ""


def _check_node(node: ast.AST, allowed: set[str]) -> Problem | None:
    line = getattr(node, "lineno", None)
    if isinstance(node, ast.Import):
        for alias in node.names:
            problem = _check_module(alias.name, allowed, line)
            if problem:
                return problem
    elif isinstance(node, ast.ImportFrom):
        if node.level:
            return Problem("rejected", f"Line {line}: relative imports are not allowed.", line)
        problem = _check_module(node.module or "", allowed, line)
        if problem:
            return problem
        for alias in node.names:
            if alias.name == "*" or _banned_attribute(alias.name):
                return Problem(
                    "rejected", f"Line {line}: `from {node.module} import {alias.name}` is not allowed.", line
                )
    elif isinstance(node, ast.Name) and node.id in BANNED_NAMES:
        return Problem("rejected", f"Line {line}: `{node.id}` is not allowed in submitted code.", line)
    elif isinstance(node, ast.Attribute) and _banned_attribute(node.attr):
        return Problem("rejected", f"Line {line}: the attribute `.{node.attr}` is not allowed in submitted code.", line)
    return None


def _check_module(name: str, allowed: set[str], line: int | None) -> Problem | None:
    parts = name.split(".")
    if parts[0] not in allowed or any(_banned_attribute(part) for part in parts[1:]):
        listed = ", ".join(sorted(allowed - {"__future__"}))
        return Problem(
            "rejected", f"Line {line}: import of `{name}` is not allowed in this exercise (allowed: {listed}).", line
        )
    return None


def _banned_attribute(name: str) -> bool:
    if name in BANNED_ATTRIBUTES:
        return True
    return name.startswith("__") and name.endswith("__") and name not in ALLOWED_DUNDER_ATTRIBUTES


def _top_level_names(tree: ast.Module) -> Iterator[str]:
    """Every name a module binds at its top level (functions, classes, assignments,
    imports), including inside top-level if, try and with blocks."""
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            yield node.name
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            yield from (t.id for t in targets if isinstance(t, ast.Name))
        if isinstance(node, ast.ImportFrom):
            yield from (a.asname or a.name for a in node.names)
        if isinstance(node, (ast.If, ast.Try, ast.With)):
            for field in ("body", "orelse", "finalbody", "handlers"):
                pending.extend(getattr(node, field, []))
        if isinstance(node, ast.ExceptHandler):
            pending.extend(node.body)


def imported_libraries(source: str, allowed: Container[str] | None = None) -> list[str]:
    """The absolute module names `source` imports (within `allowed`, a set of
    top-level names, when given), in order. Unparsable source imports nothing."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    wanted = [name for name in names if allowed is None or name.split(".")[0] in allowed]
    return list(dict.fromkeys(wanted))


#: The opcode of an `import` statement.
IMPORT_NAME = dis.opmap["IMPORT_NAME"]


def guarded_builtins(allowed_imports: Iterable[str]) -> dict[str, object]:
    """The builtins a submission's module runs with: the banned names are gone
    and `__import__` admits only the exercise's modules on the submission's
    own import statements, and never a forbidden module on any import that
    reaches it. Libraries the submission imports keep their normal builtins,
    but a library's C code that imports while the submission's line calls it
    (time.strptime loads _strptime; CuPy's and NumPy's C code load what they
    need) goes through the calling frame's builtins, which are these: such an
    import is held to FORBIDDEN_MODULES only, not to the exercise's list."""
    allowed = allowed_modules(allowed_imports)
    real_import = builtins.__import__

    def guarded_import(
        name: str,
        globals: Mapping[str, object] | None = None,
        locals: Mapping[str, object] | None = None,
        fromlist: Sequence[str] | None = (),
        level: int = 0,
    ) -> ModuleType:
        parts = str(name).split(".")
        caller = sys._getframe(1)
        if caller.f_code.co_code[caller.f_lasti] == IMPORT_NAME:
            refused = parts[0] not in allowed
        else:
            refused = parts[0] in FORBIDDEN_MODULES
        if level or refused or any(_banned_attribute(p) for p in parts[1:]):
            raise ImportError(f"import of '{name}' is not allowed in this exercise")
        if any(_banned_attribute(str(item)) for item in fromlist or ()):
            raise ImportError(f"importing those names from '{name}' is not allowed")
        return real_import(name, globals, locals, fromlist, level)

    namespace = {key: value for key, value in vars(builtins).items() if key not in BANNED_NAMES}
    namespace["__import__"] = guarded_import
    return namespace
