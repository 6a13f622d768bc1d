"""The broker of a machine without one: a consumer never reads a message being written."""

import threading
from queue import Empty

import pytest
from kombu import Connection

from casino import brokerfs


@pytest.fixture
def channel(tmp_path):
    queue = tmp_path / "queue"
    queue.mkdir()
    options = {
        "data_folder_in": str(queue),
        "data_folder_out": str(queue),
        "processed_folder": str(tmp_path),
        "store_processed": False,
    }
    with Connection(
        "filesystem://localhost/", transport=brokerfs.Transport, transport_options=options
    ) as connection:
        yield connection.default_channel


def test_a_message_being_written_is_not_there_until_it_is_whole(channel, monkeypatch):
    """kombu's own transport named the file before writing it: a worker polling meanwhile
    read it empty and died on the JSON error, the message lost."""
    written, release = threading.Event(), threading.Event()
    rename = brokerfs.os.replace

    def held_rename(source, target):
        written.set()  # the payload is on disk, under a name no queue reads
        assert release.wait(10)
        rename(source, target)

    monkeypatch.setattr(brokerfs.os, "replace", held_rename)
    putter = threading.Thread(target=channel._put, args=("casino", {"body": "x" * 10_000}))
    putter.start()
    assert written.wait(10)
    with pytest.raises(Empty):
        channel._get("casino")
    assert channel._size("casino") == 0
    release.set()
    putter.join(10)
    assert channel._get("casino") == {"body": "x" * 10_000}
    assert channel._size("casino") == 0
