"""Reading a record file whose format is told from its name and its content.

:func:`read_record` opens a gnubg SGF, a Jellyfish/gnubg ``.mat`` or the
library's JSON record (what ``backgammon analyse FILE`` reads) and replays it:

    >>> import backgammon as bg, pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp(), "match.txt")   # the content tells: JSON
    >>> _ = path.write_text(bg.Match(3, rng=1).to_json())
    >>> record = read_record(path)
    >>> record.match_length, record.names
    (3, ('Player 0', 'Player 1'))
"""

from __future__ import annotations

import os
from typing import Union

from backgammon.errors import InvalidRecordError
from backgammon.formats.mat import MatRecord, read_mat
from backgammon.formats.record import Record, read_json
from backgammon.formats.sgf import SgfRecord, read_sgf

__all__ = ["MAX_RECORD_BYTES", "read_record"]

MAX_RECORD_BYTES = 16 << 20  # a long match record is a few hundred KB

AnyRecord = Union[MatRecord, SgfRecord, Record]


def read_record(path: str | os.PathLike[str]) -> AnyRecord:
    """The replayed record of a ``.sgf``, ``.json`` or ``.mat`` file.

    The format is the name's suffix (``.sgf``, ``.json``), else the content's
    first character (``(`` an SGF game tree, ``{`` a JSON object), else a
    ``.mat`` match file.  Each record has ``names``, ``match_length``,
    ``games`` and ``match`` (``None`` for money games).  A file that cannot be
    read or is larger than :data:`MAX_RECORD_BYTES` (16 MiB), and any record
    that does not replay, raise :class:`~backgammon.errors.InvalidRecordError`.
    """
    name = os.fspath(path)
    try:
        with open(name, "rb") as f:
            data = f.read(MAX_RECORD_BYTES + 1)   # bounded: never more than the limit
    except OSError as exc:
        raise InvalidRecordError(f"cannot read {name!r}: {exc.strerror}") from None
    if len(data) > MAX_RECORD_BYTES:
        raise InvalidRecordError(f"{name!r} is larger than {MAX_RECORD_BYTES >> 20} MiB")
    text = data.decode("utf-8", errors="replace")
    lower = name.lower()
    if lower.endswith(".sgf") or text.lstrip("\ufeff \t\r\n").startswith("("):
        return read_sgf(text)
    if lower.endswith(".json") or text.lstrip().startswith("{"):
        return read_json(text)
    return read_mat(text)
