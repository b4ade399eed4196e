"""The bank's file schema: front-matter keys, body sections, an exercise's files,
the topics and their folders. What a bank file may hold is named here."""

import re
from pathlib import Path

from django.conf import settings

from ..models import Kind

SLUG_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
# Paths under /questions/ that are pages, not questions.
RESERVED_SLUGS = frozenset({"progress", "preview", "tracks"})
MODULE_PATTERN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$")
RUBRIC_SIZE = (4, 8)

# Front matter, in the order dump writes it.
COMMON_KEYS = ("slug", "title", "topic", "tags", "difficulty", "kind")
KIND_KEYS = {
    Kind.CONCEPT: ("rubric",),
    Kind.NUMERIC: ("answer", "unit", "tolerance"),
    Kind.CODING: (
        "target",
        "entry_point",
        "sizes",
        "check_sizes",
        "edge_sizes",
        "tolerance",
        "repeats",
        "limits",
        "allowed_imports",
        "graded_on",
        "cpus",
        "work",
    ),
}
REQUIRED_CODING_KEYS = ("target", "entry_point", "sizes", "tolerance", "limits", "allowed_imports")
LIMIT_KEYS = ("time_s", "memory_mb", "processes", "output_kb", "disk_mb")
TOLERANCE_KEYS = ("rtol", "atol")
GRADED_ON = ("time", "memory")
TARGETS = ("cpu", "gpu")
#: `cpus`: how many CPUs a CPU exercise is graded on (a count up to this, or "all" the
#: worker has); one when absent. The grader gives at most what the host has.
MAX_CPUS = 64
ALL_CPUS = "all"

# Body sections: model field -> heading. Written in this order.
SECTIONS = {"prompt": "Prompt", "sample_answer": "Sample answer", "explanation": "Explanation", "hints": "Hints"}
REQUIRED_SECTIONS = {
    Kind.CONCEPT: ("prompt", "sample_answer"),
    Kind.NUMERIC: ("prompt", "sample_answer", "explanation"),
    Kind.CODING: ("prompt", "sample_answer"),
}

EXERCISE_FILES = {
    "reference.py": "reference_code",
    "starter.py": "starter_code",
    "inputs.py": "inputs_code",
    "solution.py": "solution_code",
    "check.py": "check_code",
}
OPTIONAL_EXERCISE_FILES = ("check.py",)
EXERCISE_MARKDOWN = "question.md"

# The one list of topics (every bank entry names one; browsing and progress group by
# topic) and the folder dump puts a question in when it was written in the admin.
TOPIC_FOLDERS = {
    "Algorithmic Complexity & Code-Level Optimization": "algorithmic-complexity",
    "Technical Foundation and Self Assessment": "technical-foundation",
    "Performance Cost Optimization & Resource Efficiency": "cost-efficiency",
}


def default_bank_dir():
    return Path(settings.BASE_DIR) / "questions" / "bank"
