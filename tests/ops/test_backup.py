"""`manage.py backup` and `manage.py restore` (ops.backup) on the database the suite runs on: PostgreSQL in the
PostgreSQL run (pg_dump, psql), SQLite in the SQLite run (the online backup API). The tests commit their rows
(transactional_db): pg_dump reads the database from its own connection."""

import io
import json
import tarfile
from datetime import timedelta

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.utils import timezone

from leaderboards.models import LeaderboardEntry
from ops import backup
from questions.models import ExerciseVersion, Kind, Question
from submissions.models import Submission
from teams.models import Assessment, CandidateInvitation, CandidateSession, Organisation

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def populated(make_user):
    """Accounts, a graded submission with its report, its leaderboard entry, and a candidate's sitting."""
    learner, manager, candidate = make_user("learner"), make_user("manager"), make_user("candidate")
    question = Question.objects.create(
        slug="backup-scale",
        title="Scale an array",
        topic="Algorithmic Complexity & Code-Level Optimization",
        difficulty="easy",
        kind=Kind.CODING,
        prompt="Return `x * 3 + 1`.",
    )
    exercise = ExerciseVersion.objects.create(
        question=question,
        number=1,
        spec={"target": "cpu", "entry_point": "scale"},
        reference_code="",
        starter_code="",
        inputs_code="",
        solution_code="",
        content_hash="backup",
    )
    submission = Submission.objects.create(
        user=learner,
        exercise=exercise,
        code="def scale(x):\n    return x * 3 + 1\n",
        status="done",
        verdict="accepted",
        speedup=4.5,
        hardware="cpu",
        report={"verdict": "accepted", "speedup": 4.5, "sizes": [{"n": 1000, "calls": 12}], "note": "naïve → 4.5×"},
    )
    Submission.objects.create(user=learner, exercise=exercise, code="def scale(x):\n    return x\n")
    LeaderboardEntry.objects.update_or_create(
        user=learner,
        question=question,
        hardware="cpu",
        defaults={"submission": submission, "speedup": 4.5, "achieved_at": submission.created_at},
    )
    now = timezone.now()
    organisation = Organisation.objects.create(name="Acme", slug="acme")
    assessment = Assessment.objects.create(
        organisation=organisation,
        title="Screen",
        time_limit_minutes=60,
        opens_at=now - timedelta(hours=1),
        closes_at=now + timedelta(days=1),
        created_by=manager,
        published_at=now,
    )
    invitation = CandidateInvitation.objects.create(
        assessment=assessment,
        email=candidate.email,
        token_hash="f" * 64,
        expires_at=now + timedelta(days=1),
        invited_by=manager,
        used_at=now,
    )
    CandidateSession.objects.create(invitation=invitation, assessment=assessment, candidate=candidate, started_at=now)


def every_row():
    """{model label: its rows in primary-key order}, for every model whose table the database has."""
    tables = set(connection.introspection.table_names())
    return {
        model._meta.label: list(model._base_manager.order_by("pk").values())
        for model in apps.get_models()
        if model._meta.db_table in tables
    }


def test_a_backup_restores_every_row_of_a_wiped_database(populated, tmp_path):
    before = every_row()
    path = tmp_path / "hotpath.tar.gz"
    call_command("backup", str(path), stdout=io.StringIO())

    manifest = read_manifest(path)
    assert manifest["counts"] == {
        "users": 3,
        "submissions": 2,
        "submission_reports": 1,
        "leaderboard_entries": 1,
        "sittings": 1,
    }
    assert manifest["migrations"]["grader"] and manifest["engine"] in ("postgresql", "sqlite")
    assert path.stat().st_mode & 0o077 == 0, "the backup holds password hashes: its owner's only"

    call_command("flush", interactive=False, verbosity=0)
    assert not Submission.objects.exists()
    out = io.StringIO()
    call_command("restore", str(path), stdout=out)

    assert every_row() == before
    assert '"sittings": 1' in out.getvalue()


def test_restore_refuses_a_file_that_is_not_a_backup_and_changes_nothing(populated, tmp_path):
    not_a_backup = tmp_path / "notes.tar.gz"
    not_a_backup.write_text("just some text")
    before = every_row()
    with pytest.raises(CommandError, match="not a readable Hotpath backup"):
        call_command("restore", str(not_a_backup))
    assert every_row() == before


def test_restore_refuses_a_backup_of_a_newer_schema(populated, tmp_path):
    path = tmp_path / "hotpath.tar.gz"
    call_command("backup", str(path), stdout=io.StringIO())
    rewrite_manifest(path, lambda manifest: manifest["migrations"]["grader"].append("9999_from_the_future"))
    Submission.objects.all().delete()
    before = every_row()

    with pytest.raises(CommandError, match=r"newer Hotpath .*grader\.9999_from_the_future"):
        call_command("restore", str(path))
    assert every_row() == before


def test_a_restore_whose_rows_do_not_match_the_manifest_changes_nothing(populated, tmp_path):
    """PostgreSQL's restore checks the counts inside its transaction and rolls back; SQLite's checks the copy first."""
    path = tmp_path / "hotpath.tar.gz"
    call_command("backup", str(path), stdout=io.StringIO())
    rewrite_manifest(path, lambda manifest: manifest["counts"].update(sittings=2))
    Submission.objects.all().delete()
    before = every_row()

    with pytest.raises(CommandError, match="sittings"):
        call_command("restore", str(path))
    assert every_row() == before


def read_manifest(path):
    with tarfile.open(path, "r:gz") as archive:
        return json.load(archive.extractfile(backup.MANIFEST))


def rewrite_manifest(path, change):
    """The same backup with its manifest changed by change(manifest); the dump and its checksum are kept."""
    with tarfile.open(path, "r:gz") as archive:
        members = {member.name: (member, archive.extractfile(member).read()) for member in archive.getmembers()}
    manifest = json.loads(members[backup.MANIFEST][1])
    change(manifest)
    members[backup.MANIFEST] = (members[backup.MANIFEST][0], json.dumps(manifest).encode())
    with tarfile.open(path, "w:gz") as archive:
        for member, data in members.values():
            member.size = len(data)
            archive.addfile(member, io.BytesIO(data))
