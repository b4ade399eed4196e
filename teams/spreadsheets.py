"""CSV cells the team downloads (reports, the audit log) made safe to open in a spreadsheet."""

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value):
    """Keep spreadsheets from running a cell as a formula (CSV injection)."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_PREFIXES) else text
