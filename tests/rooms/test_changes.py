import pytest

from rooms.changes import BadChanges, apply_changes


def test_keeps_deletes_and_inserts_across_lines():
    assert apply_changes("abc\ndef", [1, [2, "XY", "Z"], 4]) == "aXY\nZ\ndef"
    assert apply_changes("abc", [[3]]) == ""


def test_counts_positions_in_utf16_code_units_as_codemirror_does():
    # The emoji is two UTF-16 code units: the insertion lands after it, not inside it.
    assert apply_changes("😀a", [2, [0, "!"], 1]) == "😀!a"
    with pytest.raises(BadChanges, match="splits a character"):
        apply_changes("😀a", [1, [0, "!"], 2])


@pytest.mark.parametrize("changes", [[2], [5], "abc", [[1, 2]], [True, 2], [-1, 4]])
def test_refuses_changes_that_do_not_fit_the_document(changes):
    with pytest.raises(BadChanges):
        apply_changes("abc", changes)
