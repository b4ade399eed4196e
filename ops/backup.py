"""Backups of the whole database as one file, and restoring one (`manage.py backup`, `manage.py restore`).

A backup is a gzipped tar archive holding two members:

- `manifest.json`: the format and its version, the database engine, when it was made, the Hotpath version, the
  applied migrations per app, the row counts of the tables that matter most (COUNTED_TABLES) and the dump's SHA-256;
- the dump: `database.sql` for PostgreSQL (pg_dump's plain SQL, no owners or grants, so it restores under any role)
  or `database.sqlite3` for SQLite (a copy made with SQLite's online backup API).

The counts and migrations describe exactly what the dump holds: PostgreSQL's are read in the snapshot pg_dump dumps
(pg_export_snapshot), SQLite's from the copy itself.

Restoring checks the file before touching the database (readable, a Hotpath backup, same engine, dump intact, no
migration this code does not know) and raises BackupRefused with the reason otherwise. It then replaces the database
whole or not at all: PostgreSQL's in one psql transaction that drops the `public` schema, loads the dump and checks
the counts, rolled back on any error; SQLite's in one step of the backup API, the counts checked afterwards. A backup
from an older schema restores, and `manage.py migrate` brings it up to date."""

import gzip
import hashlib
import io
import json
import os
import shutil
import sqlite3
import subprocess
import tarfile
import tempfile
import tomllib
import zlib
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.migrations.loader import MigrationLoader

FORMAT = "hotpath-backup"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
DUMP_NAMES = {"postgresql": "database.sql", "sqlite": "database.sqlite3"}


class BackupRefused(Exception):
    """The file cannot be restored here; the message says why. The database was not touched."""


class RestoreFailed(Exception):
    """The restore was attempted and failed; the database was left as it was before it."""


def counted_tables():
    """{label: SQL that counts it}: the rows a restore must bring back, named in the manifest."""
    from leaderboards.models import LeaderboardEntry
    from submissions.models import Submission
    from teams.models import CandidateSession

    submissions = Submission._meta.db_table
    return {
        "users": f'SELECT COUNT(*) FROM "{get_user_model()._meta.db_table}"',
        "submissions": f'SELECT COUNT(*) FROM "{submissions}"',
        "submission_reports": f'SELECT COUNT(*) FROM "{submissions}" WHERE "report" IS NOT NULL',
        "leaderboard_entries": f'SELECT COUNT(*) FROM "{LeaderboardEntry._meta.db_table}"',
        "sittings": f'SELECT COUNT(*) FROM "{CandidateSession._meta.db_table}"',
    }


def hotpath_version():
    with open(Path(settings.BASE_DIR) / "pyproject.toml", "rb") as file:
        return tomllib.load(file)["project"]["version"]


def engine():
    """'postgresql' or 'sqlite'; any other database is refused."""
    if connection.vendor not in DUMP_NAMES:
        raise BackupRefused(f"backups support PostgreSQL and SQLite, not {connection.vendor}")
    return connection.vendor


def _read_state(cursor):
    cursor.execute("SELECT app, name FROM django_migrations ORDER BY app, name")
    migrations = {}
    for app, name in cursor.fetchall():
        migrations.setdefault(app, []).append(name)
    counts = {}
    for label, sql in counted_tables().items():
        cursor.execute(sql)
        counts[label] = cursor.fetchone()[0]
    return migrations, counts


def _sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# --- PostgreSQL ------------------------------------------------------------------------------------------------


def _pg_environment():
    """libpq's variables for the configured database, so no password is on a command line."""
    database = connection.settings_dict
    values = {
        "PGDATABASE": database["NAME"],
        "PGUSER": database.get("USER"),
        "PGPASSWORD": database.get("PASSWORD"),
        "PGHOST": database.get("HOST"),
        "PGPORT": str(database.get("PORT") or ""),
        "PGSSLMODE": (database.get("OPTIONS") or {}).get("sslmode"),
    }
    return {**os.environ, **{key: value for key, value in values.items() if value}}


def _require_tool(name):
    if shutil.which(name) is None:
        raise BackupRefused(f"{name} is not installed here (Debian: apt-get install postgresql-client)")


def _dump_postgresql(dump_path):
    _require_tool("pg_dump")
    with connection.cursor() as cursor:
        cursor.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        try:
            cursor.execute("SELECT pg_export_snapshot()")
            snapshot = cursor.fetchone()[0]
            migrations, counts = _read_state(cursor)
            with open(dump_path, "wb") as out:
                result = subprocess.run(
                    ["pg_dump", "--format=plain", "--no-owner", "--no-privileges", f"--snapshot={snapshot}"],
                    stdout=out,
                    stderr=subprocess.PIPE,
                    env=_pg_environment(),
                    check=False,
                )
        finally:
            cursor.execute("ROLLBACK")
    if result.returncode != 0:
        raise RuntimeError(f"pg_dump failed: {result.stderr.decode(errors='replace').strip()}")
    return migrations, counts


def _count_check_sql(counts):
    """A statement that aborts the restore's transaction unless every counted table has its manifest's rows."""
    checks = []
    for label, sql in counted_tables().items():
        if label in counts:
            expected = int(counts[label])
            checks.append(
                f"  IF ({sql}) <> {expected} THEN\n"
                f"    RAISE EXCEPTION 'restored {label}: % rows, the backup has {expected}', ({sql});\n"
                f"  END IF;"
            )
    checks = "\n".join(checks)
    return f"DO $hotpath$\nBEGIN\n{checks}\nEND\n$hotpath$;\n"


def _restore_postgresql(dump_path, counts):
    _require_tool("psql")
    connection.close()  # nothing of ours holds a lock on the tables the restore drops
    with tempfile.TemporaryFile() as script:
        script.write(b"SET client_min_messages = warning;\nDROP SCHEMA public CASCADE;\nCREATE SCHEMA public;\n")
        with open(dump_path, "rb") as dump:
            shutil.copyfileobj(dump, script)
        # The dump empties search_path; the check names its tables unqualified.
        script.write(b"\nSET search_path = public;\n" + _count_check_sql(counts).encode())
        script.seek(0)
        result = subprocess.run(
            ["psql", "--no-psqlrc", "--quiet", "--single-transaction", "--set=ON_ERROR_STOP=1", "--output=/dev/null"],
            stdin=script,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=_pg_environment(),
            check=False,
        )
    if result.returncode != 0:
        raise RestoreFailed(f"psql stopped and rolled back: {result.stderr.decode(errors='replace').strip()}")


# --- SQLite ----------------------------------------------------------------------------------------------------


def _raw_sqlite_connection():
    connection.ensure_connection()
    return connection.connection


def _dump_sqlite(dump_path):
    copy = sqlite3.connect(dump_path)
    try:
        _raw_sqlite_connection().backup(copy)
        migrations, counts = _read_state(copy.cursor())
    finally:
        copy.close()
    return migrations, counts


def _restore_sqlite(dump_path, counts):
    """The copy is checked (integrity, counts) before it replaces the database in one step of the backup API."""
    source = sqlite3.connect(f"file:{dump_path}?mode=ro", uri=True)
    try:
        try:
            problems = [row[0] for row in source.execute("PRAGMA integrity_check")]
            _, found = _read_state(source.cursor())
        except sqlite3.DatabaseError as exc:
            raise BackupRefused(f"the backup's database cannot be read: {exc}") from None
        if problems != ["ok"]:
            raise BackupRefused(f"the backup's database is damaged: {'; '.join(problems[:5])}")
        if found != counts:
            raise BackupRefused(f"the backup's database's counts {found} differ from its manifest's {counts}")
        source.backup(_raw_sqlite_connection())
    finally:
        source.close()


# --- The file --------------------------------------------------------------------------------------------------


def write_backup(out):
    """Write a backup of the database to the binary file object `out`; returns its manifest."""
    kind = engine()
    with tempfile.TemporaryDirectory(prefix="hotpath-backup-") as folder:
        dump_path = Path(folder) / DUMP_NAMES[kind]
        created_at = datetime.now(timezone.utc).isoformat(timespec="seconds")
        migrations, counts = (_dump_postgresql if kind == "postgresql" else _dump_sqlite)(dump_path)
        manifest = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "engine": kind,
            "created_at": created_at,
            "hotpath_version": hotpath_version(),
            "migrations": migrations,
            "counts": counts,
            "dump": {"name": dump_path.name, "sha256": _sha256(dump_path), "bytes": dump_path.stat().st_size},
        }
        encoded = json.dumps(manifest, indent=2, sort_keys=True).encode()
        with tarfile.open(fileobj=out, mode="w|gz") as archive:
            info = tarfile.TarInfo(MANIFEST)
            info.size, info.mtime = len(encoded), int(datetime.now().timestamp())
            archive.addfile(_private_member(info), io.BytesIO(encoded))
            archive.add(dump_path, arcname=dump_path.name, recursive=False, filter=_private_member)
    return manifest


def _private_member(info):
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    info.mode = 0o600
    return info


@dataclass
class Backup:
    manifest: dict
    dump_path: Path


def _unknown_migrations(migrations):
    known = set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)
    return sorted(f"{app}.{name}" for app, names in migrations.items() for name in names if (app, name) not in known)


def read_backup(path, folder):
    """Check the backup at `path` and unpack its dump into `folder`; BackupRefused says what is wrong with it
    ('it is damaged: ...': the caller names the file)."""
    try:
        with tarfile.open(path, mode="r:gz") as archive:
            names = archive.getnames()
            if MANIFEST not in names:
                raise BackupRefused(f"it is not a Hotpath backup: it has no {MANIFEST}")
            manifest = json.load(archive.extractfile(MANIFEST))
            if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
                raise BackupRefused(f"it is not a Hotpath backup: its manifest is not of the {FORMAT} format")
            if manifest.get("format_version") != FORMAT_VERSION:
                raise BackupRefused(
                    f"it is backup format {manifest.get('format_version')!r}; "
                    f"this Hotpath reads format {FORMAT_VERSION}"
                )
            expected_name = DUMP_NAMES.get(manifest.get("engine"))
            if manifest["engine"] != engine():
                raise BackupRefused(f"it holds a {manifest['engine']} database; this Hotpath uses {engine()}")
            member = archive.getmember(expected_name) if expected_name in names else None
            if member is None or not member.isfile():
                raise BackupRefused(f"it is incomplete: it has no {expected_name}")
            dump_path = Path(folder) / expected_name
            with archive.extractfile(member) as source, open(dump_path, "wb") as target:
                shutil.copyfileobj(source, target)
    except (tarfile.TarError, gzip.BadGzipFile, EOFError, zlib.error, ValueError, KeyError) as exc:
        raise BackupRefused(f"it is not a readable Hotpath backup ({type(exc).__name__}: {exc})") from None
    dump_info = manifest.get("dump")
    if not isinstance(dump_info, dict) or _sha256(dump_path) != dump_info.get("sha256"):
        raise BackupRefused(f"it is damaged: its {expected_name} does not match the manifest's checksum")
    unknown = _unknown_migrations(manifest.get("migrations") or {})
    if unknown:
        raise BackupRefused(
            f"it comes from a newer Hotpath (version {manifest.get('hotpath_version')}): its schema has "
            f"migrations this code does not know ({', '.join(unknown)}). Restore it with that version or a later one."
        )
    return Backup(manifest, dump_path)


def restore_backup(path):
    """Replace the database with the backup at `path`; returns its manifest.

    Raises BackupRefused (nothing touched) or RestoreFailed (nothing changed)."""
    with tempfile.TemporaryDirectory(prefix="hotpath-restore-") as folder:
        backup = read_backup(path, folder)
        restore = _restore_postgresql if backup.manifest["engine"] == "postgresql" else _restore_sqlite
        restore(backup.dump_path, backup.manifest["counts"])
    return backup.manifest


def pending_migrations(manifest):
    """Migrations this code has that the restored database lacks ('app.name'), which `manage.py migrate` applies."""
    applied = {(app, name) for app, names in manifest["migrations"].items() for name in names}
    known = MigrationLoader(None, ignore_no_migrations=True).disk_migrations
    return sorted(f"{app}.{name}" for app, name in known if (app, name) not in applied)
