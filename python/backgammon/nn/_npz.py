"""Reading ``.npz`` files without trusting them: sizes checked before reading.

``np.load`` unpacks a member before anyone can look at its shape, so a small
file that declares a huge array (or many) costs its full size in memory.
:func:`read_npz` checks, before reading any array: that the path is a
regular file (a FIFO or a device would block or never end) of at most
``max_file`` bytes, that it is a zip archive (a plain ``.npy`` is refused),
and for every member its declared uncompressed size, its ``.npy`` header
(no pickled objects) and that the header's shape times the item size is
what the member holds, all within ``max_bytes`` in total.

    >>> import io, numpy as np, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "a.npz")
    >>> np.savez(path, x=np.arange(3))
    >>> read_npz(path, max_file=1 << 20, max_bytes=1 << 20, error=ValueError, what="test")["x"]
    array([0, 1, 2])
"""

from __future__ import annotations

import os
import stat
import zipfile
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["read_npz"]


def read_npz(path: str | os.PathLike[str], *, max_file: int, max_bytes: int,
             error: type[Exception], what: str, want: Callable[[str], bool] | None = None,
             max_read: int | None = None) -> dict[str, np.ndarray]:
    """The arrays of the ``.npz`` at ``path`` by name (``.npy`` stripped);
    raises ``error`` naming the file for anything that is not a bounded,
    pickle-free ``.npz``.  ``what`` names the kind of file in messages.

    ``want`` (a name -> bool test) reads only the members it accepts: the
    others are checked but never unpacked.  ``max_read`` bounds the bytes of
    the members read, checked on their headers before any is read, so what
    the process grows by is known before it grows."""
    where = os.fspath(path)
    try:
        st = os.stat(path)
    except (OSError, ValueError) as exc:
        raise error(f"cannot read {what} {where!r}: {exc}") from None
    if not stat.S_ISREG(st.st_mode):
        raise error(f"{where!r} is not a regular file")
    if st.st_size > max_file:
        raise error(f"{where!r} is {st.st_size} bytes: too large for {what} "
                    f"(at most {max_file})")
    try:
        with open(path, "rb") as f:
            head = f.read(6)
            if head == b"\x93NUMPY":
                raise error(f"{where!r} is a single .npy array, not an .npz of {what}")
            if head[:4] != b"PK\x03\x04":
                raise error(f"{where!r} is not an .npz file of {what}")
            f.seek(0)
            with zipfile.ZipFile(f) as z:
                return _members(z, where, max_bytes, error, want, max_read)
    except error:
        raise
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, NotImplementedError,
            RuntimeError, KeyError, TypeError, OverflowError) as exc:
        raise error(f"{where!r} is not a valid .npz of {what}: {exc}") from None


def _members(z: zipfile.ZipFile, where: str, max_bytes: int, error: type[Exception],
             want: Callable[[str], bool] | None, max_read: int | None) -> dict[str, np.ndarray]:
    infos = z.infolist()
    total = sum(i.file_size for i in infos)
    if total > max_bytes:
        raise error(f"{where!r} unpacks to {total} bytes, more than the {max_bytes} allowed")
    out: dict[str, np.ndarray] = {}
    seen: set[str] = set()
    read = 0
    for info in infos:
        name = info.filename
        if not name.endswith(".npy"):
            raise error(f"{where!r}: member {name!r} is not an .npy array")
        key = name[:-4]
        if key in seen:
            raise error(f"{where!r}: member {name!r} appears twice")
        seen.add(key)
        with z.open(info) as m:
            shape, dtype, offset = _header(m, where, name, error)
            nbytes = int(np.prod(shape, dtype=object)) * dtype.itemsize
            if offset + nbytes != info.file_size:
                raise error(f"{where!r}: member {name!r} declares shape {shape} of {dtype} "
                            f"({nbytes} bytes) but holds {info.file_size - offset}")
            if want is not None and not want(key):
                continue
            read += nbytes
            if max_read is not None and read > max_read:
                raise error(f"{where!r}: its arrays declare more than the {max_read} bytes "
                            f"allowed (at member {name!r}, shape {shape})")
            out[key] = _body(m, shape, dtype, nbytes, where, name, error)
    return out


def _header(m: Any, where: str, name: str, error: type[Exception]) -> tuple[tuple[int, ...], np.dtype, int]:
    fmt = np.lib.format
    version = fmt.read_magic(m)
    if version == (1, 0):
        shape, fortran, dtype = fmt.read_array_header_1_0(m)
    elif version in ((2, 0), (3, 0)):
        shape, fortran, dtype = fmt.read_array_header_2_0(m)
    else:
        raise error(f"{where!r}: member {name!r} has .npy version {version}")
    if dtype.hasobject:
        raise error(f"{where!r}: member {name!r} holds Python objects (refused: no pickles)")
    if fortran and len(shape) > 1:
        raise error(f"{where!r}: member {name!r} is in Fortran order")
    return tuple(int(x) for x in shape), dtype, m.tell()


def _body(m: Any, shape: tuple[int, ...], dtype: np.dtype, nbytes: int, where: str, name: str,
          error: type[Exception]) -> np.ndarray:
    data = m.read(nbytes)
    if len(data) != nbytes:
        raise error(f"{where!r}: member {name!r} is truncated")
    array: np.ndarray = np.frombuffer(data, dtype=dtype).reshape(shape).copy()
    return array
