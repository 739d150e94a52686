"""The probes: ``/health`` (liveness, and what the database allows) and ``/ready``
(for a load balancer); each asks the store at most once a second."""

import threading
import time
from typing import Any

from fastapi import FastAPI

from backgammon import __version__
from backgammon.server.errors import error
from backgammon.server.models import ErrorMessage
from backgammon.server.store import Store

__all__ = ["add_routes"]


def add_routes(app: FastAPI, store: Store) -> None:
    """``/health`` and ``/ready`` on ``app``, probing ``store``."""
    probed: dict[str, Any] = {"at": -1e9, "result": None}
    probe_lock = threading.Lock()

    def probe() -> dict[str, bool]:
        """Whether the store reads and writes (a real write), at most once a second."""
        with probe_lock:
            if time.monotonic() - probed["at"] >= 1.0:
                probed["result"], probed["at"] = store.probe(), time.monotonic()
            return dict(probed["result"])

    @app.get("/health", tags=["service"])
    def health() -> Any:
        """Liveness and what the database allows: ``{"status": "ok" | "degraded",
        "version", "database": {"reads", "writes"}}`` (200 while the process
        serves; "degraded" when the database refuses reads or writes)."""
        db = probe()
        return {"status": "ok" if db["writes"] else "degraded", "version": __version__,
                "database": db}

    @app.get("/ready", tags=["service"], responses={503: {"model": ErrorMessage}})
    def ready() -> Any:
        """Readiness for a load balancer: 200 when the database takes writes,
        else 503 with ``Retry-After`` (send players elsewhere)."""
        db = probe()
        if not db["writes"]:
            response = error(503, "NotReady", "the database " + (
                "does not accept writes" if db["reads"] else "cannot be reached"),
                database=db)
            response.headers["Retry-After"] = "5"
            return response
        return {"status": "ready", "database": db}
