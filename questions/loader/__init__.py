"""The question bank on disk <-> Question / ExerciseVersion rows.

Files under questions/bank/ are the source of truth. `load_bank` reads them all,
validates everything first, leaves out (and names) any entry that is bad and
writes the rest in one transaction; a strict load writes nothing unless every
file is good. It is idempotent: each entry's canonical text is hashed, and a row
whose hash and path match is left alone. A question whose file disappeared is
retired, never deleted (attempts and submissions keep pointing at it); a file
that comes back restores it. Coding exercises get a new ExerciseVersion only
when the exercise itself (spec or code) changes.

`dump_bank` writes rows back out in the canonical form, so load -> dump -> load
is lossless and a second dump is byte-identical.

The package, one concern a module: `schema` (what a bank file may hold),
`fields` (parsing and validating one question's Markdown), `canonical` (the one
writer of that Markdown, for hashes and dumps), `entries` (a parsed entry and the
errors), `formats` (the registry of entry formats, ENTRY_FORMATS, and read_bank:
adding a format means adding a class there), `sync` (load_bank and dump_bank).
"""

from .schema import (  # noqa: F401
    COMMON_KEYS,
    EXERCISE_FILES,
    EXERCISE_MARKDOWN,
    GRADED_ON,
    KIND_KEYS,
    LIMIT_KEYS,
    MODULE_PATTERN,
    OPTIONAL_EXERCISE_FILES,
    REQUIRED_CODING_KEYS,
    REQUIRED_SECTIONS,
    RESERVED_SLUGS,
    RUBRIC_SIZE,
    SECTIONS,
    SLUG_PATTERN,
    TARGETS,
    TOLERANCE_KEYS,
    TOPIC_FOLDERS,
    default_bank_dir,
)
from .entries import (  # noqa: F401
    BankEntry,
    BankError,
    BankFileInvalid,
    BankLoadError,
    exercise_content_hash,
)
from .canonical import (  # noqa: F401
    canonical_front_matter,
    render_question_markdown,
)
from .fields import (  # noqa: F401
    coding_spec,
    parse_question_markdown,
    split_sections,
)
from .formats import (  # noqa: F401
    ENTRY_FORMATS,
    ExerciseFolder,
    QuestionFile,
    format_for_kind,
    read_bank,
    topic_folder,
)
from .sync import (  # noqa: F401
    LoadProgress,
    LoadReport,
    QUESTION_FIELDS,
    dump_bank,
    entry_from_question,
    load_bank,
    validate_exercise_entry,
)
