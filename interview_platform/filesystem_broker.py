"""kombu's filesystem transport with messages written atomically.

kombu 5.7's filesystem Channel._put opens `<time>_<uuid>.<queue>.msg` in the
queue folder and only then writes the message into it, while a consumer's _get
takes any file of that name it lists: it moves the file away, reads it, deletes
it and decodes the bytes. A consumer that polls between the producer's open and
write reads an empty file: json.loads raises JSONDecodeError in the worker, and
the message is gone (the producer's write lands in the moved, deleted file).
That is the failure seen once in tests/e2e/test_practice_flow.py, and what
`make run` would do to a submission now and then.

Here the message is written to a name no consumer picks up (`.part` after
`.msg`: kombu matches the text after the first dot exactly) and renamed into
place when complete; a rename within one folder is atomic, so a consumer sees
the whole message or nothing.
"""

import os
import uuid
from contextlib import suppress
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

#: Appended to a message's name while it is written (see the module docstring).
PARTIAL_SUFFIX = ".part"


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        """Put `payload` onto `queue`, visible to consumers only once complete."""
        # The same name as kombu's: consumers take messages in name order, so by time.
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = final + PARTIAL_SUFFIX
        data = str_to_bytes(dumps(payload))
        try:
            with open(partial, "wb") as file:
                file.write(data)
            os.replace(partial, final)
        except OSError as exc:
            with suppress(FileNotFoundError):
                os.remove(partial)
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel
