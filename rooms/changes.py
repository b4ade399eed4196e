"""CodeMirror ChangeSets (their JSON form) applied to text on the server.

A ChangeSet's JSON is a list of sections covering the whole document: a number
keeps that many characters; [n] deletes n; [n, line, line, ...] replaces n
characters by the lines joined with newlines. CodeMirror counts UTF-16 code
units, so positions are counted in UTF-16 here too."""


class BadChanges(ValueError):
    """A change set that is malformed or does not fit the document it is applied to."""


def _code_units(text):
    return text.encode("utf-16-le")


def code_units(text):
    """The text's length as CodeMirror counts it: in UTF-16 code units."""
    return len(_code_units(text)) // 2


def apply_changes(text, changes):
    """The text after `changes` (a ChangeSet's JSON); BadChanges when they do not fit it."""
    if not isinstance(changes, list):
        raise BadChanges("A change set is a list of sections.")
    source = _code_units(text)
    pieces = []
    position = 0  # in bytes of UTF-16: two per code unit
    for section in changes:
        if isinstance(section, int) and not isinstance(section, bool):
            length, inserted = section, None
        elif isinstance(section, list) and section and isinstance(section[0], int) and not isinstance(section[0], bool):
            length, inserted = section[0], section[1:]
            if not all(isinstance(line, str) for line in inserted):
                raise BadChanges("Inserted lines must be strings.")
        else:
            raise BadChanges(f"Unreadable section {section!r}.")
        end = position + 2 * length
        if length < 0 or end > len(source):
            raise BadChanges("The change set does not fit the document.")
        if inserted is None:
            pieces.append(source[position:end])
        elif inserted:
            pieces.append(_code_units("\n".join(inserted)))
        position = end
    if position != len(source):
        raise BadChanges("The change set does not cover the whole document.")
    try:
        return b"".join(pieces).decode("utf-16-le")
    except UnicodeDecodeError:
        raise BadChanges("The change set splits a character.") from None
