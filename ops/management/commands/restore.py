"""`manage.py restore FILE`: replace the database with a backup made by `manage.py backup` (ops.backup). FILE `-`
reads it from standard input. A file that is not a readable Hotpath backup, holds another engine's database or comes
from a newer schema is refused before anything changes; a restore that fails leaves the database as it was."""

import json
import shutil
import sys
import tempfile

from django.core.management.base import BaseCommand, CommandError

from ops import backup


class Command(BaseCommand):
    help = "Replace the database with a backup made by `manage.py backup`. FILE - reads standard input."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the backup (.tar.gz); - for standard input")

    def handle(self, *args, **options):
        source = options["file"]
        named = "the backup on standard input" if source == "-" else source
        try:
            if source == "-":
                with tempfile.NamedTemporaryFile(prefix="hotpath-restore-", suffix=".tar.gz") as spooled:
                    shutil.copyfileobj(sys.stdin.buffer, spooled)
                    spooled.flush()
                    manifest = backup.restore_backup(spooled.name)
            else:
                manifest = backup.restore_backup(source)
        except backup.BackupRefused as exc:
            raise CommandError(f"restore refused, the database is unchanged: {named}: {exc}") from None
        except backup.RestoreFailed as exc:
            raise CommandError(f"restore failed, the database is as it was before: {named}: {exc}") from None
        except OSError as exc:
            raise CommandError(f"restore refused, the database is unchanged: cannot read {named}: {exc}") from None
        made = f"made {manifest['created_at']} by Hotpath {manifest['hotpath_version']}"
        self.stdout.write(f"restored the backup {made}: {json.dumps(manifest['counts'], sort_keys=True)}")
        pending = backup.pending_migrations(manifest)
        if pending:
            self.stdout.write(f"it predates {len(pending)} migration(s) of this code: run `manage.py migrate` next")
