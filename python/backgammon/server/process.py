"""Processes of the server that must not outlive their parent: uvicorn's
workers (``--workers N``) and analysis children.  A worker orphaned by a
``kill -9`` of its master would go on serving and hold the port, so a new
server could not start ("address already in use").

    >>> from backgammon.server.process import die_with_parent
    >>> die_with_parent()        # doctest: +SKIP
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

__all__ = ["die_with_parent"]

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int | None = None, poll_seconds: float = 1.0) -> None:
    """End this process when its parent dies: on Linux the kernel sends it
    SIGTERM (``prctl(PR_SET_PDEATHSIG)``); elsewhere, and as a second guard, a
    daemon thread checks every ``poll_seconds`` that the parent is still the
    one it started with, and sends this process SIGTERM (then SIGKILL after 10
    s) when it is not.  Call it first thing in the child; ``parent``: the pid
    the parent had (by default the parent now), so that a parent that died
    before the call is noticed too."""
    parent = os.getppid() if parent is None else parent
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        except (OSError, AttributeError):  # no prctl: the thread below does it
            pass
    if os.getppid() != parent:   # the parent died before prctl took effect
        os.kill(os.getpid(), signal.SIGTERM)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(poll_seconds)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(10.0)
        os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=watch, name="backgammon-parent-watch", daemon=True).start()
