"""AuthoringEvent and the author permission moved from teams to authoring: on a database
that still has teams' table and teams.author_questions, migrating forward keeps every
row and every grant (and migrating back restores the old names)."""

import importlib

import pytest
from django.contrib.auth.models import Group, Permission
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from authoring.models import AuthoringEvent
from questions.models import Kind, Question

BEFORE = [("teams", "0003_item_target_speedup"), ("authoring", None)]
#: teams 0002 made the Authors group and its grant; run again on the old state, because a
#: transactional test before this one flushes every row, migrations' rows included.
AUTHORS_GROUP_MIGRATION = importlib.import_module("teams.migrations.0002_authors_group")


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


def migrate_back_to_the_old_tables():
    """The database as it was before the move, with the grant teams 0002 made; its models."""
    migrate(BEFORE)
    old_apps = MigrationExecutor(connection).loader.project_state(BEFORE[0]).apps
    AUTHORS_GROUP_MIGRATION.create_authors_group(old_apps, None)
    return old_apps


def latest():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


@pytest.mark.django_db(transaction=True)
def test_events_and_the_author_grant_survive_the_move(make_user):
    question = Question.objects.create(
        slug="square-fast",
        title="Square fast",
        topic="Algorithmic Complexity & Code-Level Optimization",
        difficulty="easy",
        kind=Kind.CODING,
        prompt="Square it.",
    )
    author = make_user("author", is_staff=True)
    try:
        old_apps = migrate_back_to_the_old_tables()
        OldEvent = old_apps.get_model("teams", "AuthoringEvent")
        OldEvent.objects.create(user_id=author.pk, question_id=question.pk, action="validated", detail="ok")
        old_grant = Permission.objects.get(codename="author_questions")
        assert old_grant.content_type.app_label == "teams"
        Group.objects.get(name="Authors").user_set.add(author)
    finally:
        migrate(latest())

    event = AuthoringEvent.objects.get()
    assert (event.user, event.question, event.action, event.detail) == (author, question, "validated", "ok")
    grant = Permission.objects.get(codename="author_questions")
    assert grant.pk == old_grant.pk and grant.content_type.app_label == "authoring"
    assert Group.objects.get(name="Authors").permissions.filter(pk=grant.pk).exists()
    author = type(author).objects.get(pk=author.pk)
    assert author.has_perm("authoring.author_questions")
    assert not author.has_perm("teams.author_questions")


@pytest.mark.django_db(transaction=True)
def test_migrating_back_gives_teams_its_permission_again():
    try:
        migrate_back_to_the_old_tables()
        assert Permission.objects.get(codename="author_questions").content_type.app_label == "teams"
    finally:
        migrate(latest())
    assert Permission.objects.get(codename="author_questions").content_type.app_label == "authoring"
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)
