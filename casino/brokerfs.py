"""kombu's filesystem transport (the broker of a machine without one), with every message
written whole before a consumer can see it.

kombu 5.7's ``_put`` creates the message file under its final name, then writes it under an
advisory lock that ``_get`` never takes: a worker polling in between moves and reads an empty
or partial file, dies on the JSON error ("Unrecoverable error: JSONDecodeError") and the
message is gone (kombu removes the file before parsing it; celery/kombu#1551). ``make demo``
stopped after about a quarter of an hour of load this way. Here a message is written under a
name no queue reads and renamed to its queue's name once complete: a rename within one
directory is atomic, so a consumer sees a message whole or not at all.

A process killed between the open and the rename leaves its ``.partial`` behind: no queue ever
reads it and nothing renames it. A channel removes such leftovers when it starts and when a
queue is purged, once they are older than ``PARTIAL_MAX_AGE``.
"""

from __future__ import annotations

import logging
import os
import time
import uuid
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

log = logging.getLogger(__name__)

PARTIAL_SUFFIX = ".partial"

# A live publisher holds its .partial for one write of one payload and a rename: milliseconds.
# An hour is far beyond any write, even on a stalled disk, so a .partial that old belongs to a
# process that died before its rename; a younger one may be another process's message still
# being written, and removing it would make that publisher's rename fail.
PARTIAL_MAX_AGE = 60 * 60  # seconds


def remove_stale_partials(folder, max_age=PARTIAL_MAX_AGE):
    """Remove the ``.partial`` files in ``folder`` last written more than ``max_age`` seconds
    ago; returns how many. Message files are never touched."""
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return 0  # nothing was ever published here; kombu reports the folder on first use
    except OSError as exc:
        log.warning("cannot list broker folder %s: %s", folder, exc)
        return 0
    # mtime is wall-clock time, so the cut-off is too (not the monotonic clock of the names)
    cutoff = time.time() - max_age
    removed = 0
    for name in names:
        if not name.endswith(PARTIAL_SUFFIX):
            continue
        path = os.path.join(folder, name)
        try:
            if os.stat(path).st_mtime >= cutoff:
                continue
            os.remove(path)
        except FileNotFoundError:
            continue  # another channel's sweep got there first
        except OSError as exc:
            # housekeeping: a leftover that cannot be removed must not stop a channel opening
            log.warning("cannot remove stale broker file %s: %s", path, exc)
            continue
        removed += 1
    if removed:
        log.info("removed %d stale %s file(s) from %s", removed, PARTIAL_SUFFIX, folder)
    return removed


class Channel(filesystem.Channel):
    def __init__(self, connection, **kwargs):
        super().__init__(connection, **kwargs)
        # every worker and publisher opens a channel, so leftovers of a killed process go at
        # the next start; _put writes .partials into data_folder_out
        remove_stale_partials(self.data_folder_out)

    def _purge(self, queue):
        # a purge empties the queue folder of messages; the leftovers go with them (they were
        # never messages, so they are not counted)
        remove_stale_partials(self.data_folder_out)
        return super()._purge(queue)

    def _put(self, queue, payload, **kwargs):
        # The name kombu gives it (consumers take messages in name order), written first as
        # "<name>.partial": ``_get`` only reads names ending in ".<queue>.msg".
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = f"{final}{PARTIAL_SUFFIX}"
        try:
            with open(partial, "wb") as file:
                file.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel
