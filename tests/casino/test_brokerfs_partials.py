"""The filesystem broker removes the ``.partial`` a killed publisher left behind, and only that:
never a fresh one another process may still be writing, never a message."""

import os
import time
from contextlib import contextmanager

import pytest
from kombu import Connection

from casino import brokerfs

HOUR = 60 * 60


@pytest.fixture
def queue(tmp_path):
    folder = tmp_path / "queue"
    folder.mkdir()
    return folder


@contextmanager
def channel_on(queue):
    options = {
        "data_folder_in": str(queue),
        "data_folder_out": str(queue),
        "processed_folder": str(queue.parent),
        "store_processed": False,
    }
    with Connection(
        "filesystem://localhost/", transport=brokerfs.Transport, transport_options=options
    ) as connection:
        yield connection.default_channel


def leftover(queue, name, age):
    """A file in the queue folder last written ``age`` seconds ago."""
    path = queue / name
    path.write_bytes(b'{"body": "cut')
    then = time.time() - age
    os.utime(path, (then, then))
    return path


def test_a_channel_starting_removes_an_old_partial_and_keeps_a_fresh_one(queue):
    # either side of brokerfs.PARTIAL_MAX_AGE (an hour)
    old = leftover(queue, "1_a.casino.msg.partial", HOUR + 60)
    older = leftover(queue, "2_b.other.msg.partial", 30 * 24 * HOUR)
    young = leftover(queue, "3_c.casino.msg.partial", HOUR - 60)
    fresh = leftover(queue, "4_d.casino.msg.partial", 0)
    with channel_on(queue):
        assert not old.exists() and not older.exists()
        assert young.exists() and fresh.exists()


def test_messages_are_untouched_whatever_their_age(queue):
    with channel_on(queue) as channel:
        channel._put("casino", {"body": "first"})
        channel._put("casino", {"body": "second"})
    for path in queue.iterdir():  # both messages written long ago, as a backlog would be
        os.utime(path, (time.time() - 2 * HOUR,) * 2)
    leftover(queue, "0_x.casino.msg.partial", 2 * HOUR)
    with channel_on(queue) as channel:
        assert sorted(p.suffix for p in queue.iterdir()) == [".msg", ".msg"]
        assert channel._size("casino") == 2
        # (two messages put in the same millisecond come in either order: kombu's names)
        got = [channel._get("casino")["body"] for _ in range(2)]
        assert sorted(got) == ["first", "second"]


def test_a_purge_removes_old_partials_and_counts_only_messages(queue):
    with channel_on(queue) as channel:
        old = leftover(queue, "1_a.casino.msg.partial", 2 * HOUR)
        fresh = leftover(queue, "2_b.casino.msg.partial", 5)
        channel._put("casino", {"body": "queued"})
        channel._put("other", {"body": "elsewhere"})
        assert channel._purge("casino") == 1
        assert not old.exists() and fresh.exists()
        assert channel._size("casino") == 0
        assert channel._get("other") == {"body": "elsewhere"}


def test_a_fresh_partial_being_written_still_becomes_its_message(queue, monkeypatch):
    """A channel starting while another process writes its message leaves the .partial to be
    renamed: the message arrives whole."""
    rename = brokerfs.os.replace

    def start_another_channel_then_rename(source, target):
        with channel_on(queue):
            assert os.path.exists(source)
        rename(source, target)

    with channel_on(queue) as channel:
        monkeypatch.setattr(brokerfs.os, "replace", start_another_channel_then_rename)
        channel._put("casino", {"body": "whole"})
        monkeypatch.undo()
        assert channel._get("casino") == {"body": "whole"}
