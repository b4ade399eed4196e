"""`manage.py backup FILE`: the whole database as one file (ops.backup: the dump and a manifest). FILE `-` writes
the backup to standard output, e.g. `docker-compose exec -T web python manage.py backup - > hotpath.tar.gz`.
The file holds every account's data, password hashes included: it is written readable by its owner only."""

import json
import os
import sys

from django.core.management.base import BaseCommand, CommandError

from ops import backup


class Command(BaseCommand):
    help = "Back up the database (PostgreSQL or SQLite) to one file: the dump and a manifest. FILE - is stdout."

    def add_arguments(self, parser):
        parser.add_argument("file", help="where to write the backup (.tar.gz); - for standard output")

    def handle(self, *args, **options):
        target = options["file"]
        try:
            if target == "-":
                if sys.stdout.isatty():
                    raise CommandError("no backup written: standard output is a terminal; redirect it to a file")
                manifest = backup.write_backup(sys.stdout.buffer)
                sys.stdout.buffer.flush()
            else:
                manifest = self._write_file(target)
        except (backup.BackupRefused, RuntimeError, OSError) as exc:
            raise CommandError(f"no backup written: {exc}") from None
        summary = json.dumps({"counts": manifest["counts"], "created_at": manifest["created_at"]}, sort_keys=True)
        # With the backup on stdout, the summary goes to stderr.
        (self.stderr if target == "-" else self.stdout).write(f"backed up to {target}: {summary}")

    @staticmethod
    def _write_file(target):
        """Written beside the target and renamed into place, so a failed backup never leaves half a file there."""
        partial = f"{target}.partial"
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            with os.fdopen(descriptor, "wb") as out:
                manifest = backup.write_backup(out)
            os.replace(partial, target)
        except BaseException:
            if os.path.exists(partial):
                os.unlink(partial)
            raise
        return manifest
