"""The filesystem Celery broker (`make run`'s default) never hands a worker a
half-written message. The race is made deterministic: a consumer polls the
queue at the moment the producer has just opened the message's file."""

import json
from queue import Empty

import pytest
from django.conf import settings
from kombu import Connection
from kombu.exceptions import ChannelError
from kombu.transport import filesystem as kombu_filesystem

from interview_platform import filesystem_broker
from interview_platform.celery import app

QUEUE = "cpu"
PAYLOAD = {"body": "grade submission 42", "headers": {"task": "grader.grade_submission"}}


@pytest.fixture
def connection(tmp_path):
    def connect(transport):
        folders = {name: tmp_path / name for name in ("queue", "processed", "control")}
        for folder in folders.values():
            folder.mkdir(exist_ok=True)
        options = {
            "data_folder_in": str(folders["queue"]),
            "data_folder_out": str(folders["queue"]),
            "processed_folder": str(folders["processed"]),
            "control_folder": str(folders["control"]),
            "store_processed": False,
        }
        opened = Connection("filesystem://", transport=transport, transport_options=options)
        connections.append(opened)
        return opened.channel()

    connections = []
    yield connect
    for opened in connections:
        opened.release()


def poll_when_opened(monkeypatch, module, consumer, seen):
    """Make `open` in `module` poll the queue right after the producer opens a file."""

    def opening(path, mode="r", *args, **kwargs):
        file = open(path, mode, *args, **kwargs)
        if "w" in mode:
            try:
                seen.append(consumer._get(QUEUE))
            except Exception as exc:  # what the worker would see
                seen.append(exc)
        return file

    monkeypatch.setattr(module, "open", opening, raising=False)


def test_a_message_is_invisible_until_complete_then_delivered_whole(connection, monkeypatch):
    producer = connection(filesystem_broker.Transport)
    consumer = connection(filesystem_broker.Transport)
    seen = []
    poll_when_opened(monkeypatch, filesystem_broker, consumer, seen)

    producer._put(QUEUE, PAYLOAD)

    assert len(seen) == 1 and isinstance(seen[0], Empty)
    assert consumer._get(QUEUE) == PAYLOAD
    with pytest.raises(Empty):
        consumer._get(QUEUE)


def test_kombus_own_transport_loses_a_message_read_while_written(connection, monkeypatch):
    """Why filesystem_broker exists: with kombu's Channel the poll reads an empty
    file (JSONDecodeError in the worker) and the message is gone. If a kombu
    upgrade makes this test fail, the subclass can go."""
    producer = connection(kombu_filesystem.Transport)
    consumer = connection(kombu_filesystem.Transport)
    seen = []
    poll_when_opened(monkeypatch, kombu_filesystem, consumer, seen)

    producer._put(QUEUE, PAYLOAD)

    assert len(seen) == 1 and isinstance(seen[0], json.JSONDecodeError)
    with pytest.raises(Empty):
        consumer._get(QUEUE)


def test_a_failed_write_leaves_no_partial_file(connection, tmp_path, monkeypatch):
    producer = connection(filesystem_broker.Transport)

    def disk_full(source, destination):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(filesystem_broker.os, "replace", disk_full)
    with pytest.raises(ChannelError, match="Cannot add file"):
        producer._put(QUEUE, PAYLOAD)
    assert list((tmp_path / "queue").iterdir()) == []


@pytest.mark.skipif(bool(settings.REDIS_URL), reason="REDIS_URL is set: the broker is Redis")
def test_the_app_uses_the_atomic_transport_without_redis():
    with app.connection_for_write() as opened:
        assert isinstance(opened.transport, filesystem_broker.Transport)
