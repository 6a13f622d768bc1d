"""kombu's filesystem transport (the broker of a machine without one), with every message
written whole before a consumer can see it.

kombu 5.7's ``_put`` creates the message file under its final name, then writes it under an
advisory lock that ``_get`` never takes: a worker polling in between moves and reads an empty
or partial file, dies on the JSON error ("Unrecoverable error: JSONDecodeError") and the
message is gone (kombu removes the file before parsing it; celery/kombu#1551). ``make demo``
stopped after about a quarter of an hour of load this way. Here a message is written under a
name no queue reads and renamed to its queue's name once complete: a rename within one
directory is atomic, so a consumer sees a message whole or not at all.
"""

from __future__ import annotations

import os
import uuid
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        # The name kombu gives it (consumers take messages in name order), written first as
        # "<name>.partial": ``_get`` only reads names ending in ".<queue>.msg".
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = f"{final}.partial"
        try:
            with open(partial, "wb") as file:
                file.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel
