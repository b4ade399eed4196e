class CliError(Exception):
    """Something the user can fix, said plainly; `hotpath` prints it and exits non-zero."""

    exit_code = 2
