"""The analysis of an uploaded match in a child process of its own, stopped when
it takes too long or its client goes: :func:`analyse_in_child`."""

import asyncio
import os
import time
from typing import TYPE_CHECKING, Any

from backgammon.errors import BackgammonError, InvalidRecordError

if TYPE_CHECKING:
    from backgammon.formats.mat import MatRecord
    from backgammon.formats.sgf import SgfRecord

__all__ = ["analyse_in_child", "analysis_child"]


def _analyse(data: bytes, filename: str, ply: int) -> Any:
    """The :class:`~backgammon.Analysis` of an uploaded ``.mat`` or SGF record."""
    from backgammon.analysis import analyse
    text = data.decode("utf-8", errors="replace")
    lower = filename.lower()
    if lower.endswith(".sgf") or text.lstrip("\ufeff \t\r\n").startswith("("):
        from backgammon.formats.sgf import read_sgf
        record: "SgfRecord | MatRecord" = read_sgf(text)
    elif lower.endswith(".mat") or lower.endswith(".txt") or not text.lstrip().startswith("{"):
        from backgammon.formats.mat import read_mat
        record = read_mat(text)
    else:
        raise InvalidRecordError("upload a .mat or .sgf record")
    import dataclasses
    source = record.match if record.match is not None else record.games
    return dataclasses.replace(analyse(source, ply=ply, workers=1), names=record.names)


def analysis_child(conn: Any, data: bytes, filename: str, ply: int, fmt: str,
                    parent: int) -> None:
    """The child process of an analysis: sends ``("ok", dict or HTML)``,
    ``("error", NAME, MESSAGE)`` for a bad record, or ``("crash", TEXT)``."""
    from backgammon.server.process import die_with_parent
    die_with_parent(parent)
    try:
        result = _analyse(data, filename, ply)
        conn.send(("ok", result.to_html() if fmt == "html" else result.to_dict()))
    except BackgammonError as exc:
        conn.send(("error", type(exc).__name__, str(exc)[:500]))
    except BaseException:  # a bug: the parent logs it
        import traceback
        conn.send(("crash", traceback.format_exc()[-4000:]))
    finally:
        conn.close()


async def analyse_in_child(request: Any, data: bytes, filename: str, ply: int, fmt: str,
                            seconds: float) -> tuple[Any, ...] | None:
    """Run :func:`analysis_child` in a new process; its outcome, ``("timeout",)``
    after ``seconds``, or None as soon as the client has gone (the child is killed
    in both cases: no work goes on for nobody)."""
    import multiprocessing
    context = multiprocessing.get_context("spawn")
    mine, theirs = context.Pipe(duplex=False)
    child = context.Process(target=analysis_child, args=(theirs, data, filename, ply, fmt, os.getpid()),
                            daemon=True, name="backgammon-analysis")
    await asyncio.to_thread(child.start)
    theirs.close()
    deadline = time.monotonic() + seconds
    try:
        while True:
            if mine.poll():
                try:
                    return tuple(await asyncio.to_thread(mine.recv))
                except EOFError:
                    return ("crash", f"the analysis process ended with {child.exitcode}")
            if not child.is_alive() and not mine.poll():
                return ("crash", f"the analysis process ended with {child.exitcode}")
            if await request.is_disconnected():
                return None
            if time.monotonic() > deadline:
                return ("timeout",)
            await asyncio.sleep(0.05)
    finally:
        if child.is_alive():
            child.kill()
        await asyncio.to_thread(child.join, 10)
        mine.close()
