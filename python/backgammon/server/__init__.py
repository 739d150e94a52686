"""``backgammon serve``: games over HTTP and WebSocket, a wildbg-compatible
engine API and a page to play on (the optional ``server`` extra: FastAPI,
uvicorn, pydantic; psycopg for PostgreSQL).

    >>> from backgammon.server import create_app          # doctest: +SKIP
    >>> app = create_app("sqlite:///games.sqlite3")       # doctest: +SKIP

Run it with ``backgammon serve [--host 127.0.0.1] [--port 8080]
[--database sqlite:///FILE | postgresql://...] [--workers N]
[--keep-days DAYS]``; the routes
are listed at ``/docs`` (interactive) and ``/openapi.json``.
"""

from __future__ import annotations

import os
from typing import Any

__all__ = ["create_app", "serve"]


def create_app(database: str | None = None, *, evaluator: Any = None,
               keep_days: float | None = None) -> Any:
    """The ASGI application on ``database`` (see :mod:`backgammon.server.app`)."""
    from backgammon.server.app import create_app as _create
    return _create(database, evaluator=evaluator, keep_days=keep_days)


def _factory() -> Any:
    """uvicorn's factory for each worker: the settings come from the environment."""
    keep = os.environ.get("BACKGAMMON_KEEP_DAYS")
    return create_app(os.environ.get("BACKGAMMON_DATABASE"),
                      keep_days=float(keep) if keep else None)


def serve(host: str = "127.0.0.1", port: int = 8080, database: str | None = None,
          workers: int = 1, keep_days: float | None = None) -> None:
    """Serve until interrupted; ``workers`` processes share the database
    (use PostgreSQL, or SQLite on a local disk, for more than one).  With
    ``keep_days``, games with no action for that many days, and jobs as old,
    are deleted (at start, then every hour)."""
    try:
        import uvicorn
    except ImportError:
        raise RuntimeError("the server needs its extra: pip install 'backgammon[server]'") from None
    from backgammon.server.app import keep_seconds
    from backgammon.server.store import default_database, open_store
    keep_seconds(keep_days)  # refuse a bad value before any worker starts
    database = database or default_database()
    open_store(database).close()  # create the tables once, and fail here on a bad URL
    os.environ["BACKGAMMON_DATABASE"] = database
    if keep_days is None:
        os.environ.pop("BACKGAMMON_KEEP_DAYS", None)
    else:
        os.environ["BACKGAMMON_KEEP_DAYS"] = repr(float(keep_days))
    uvicorn.run("backgammon.server:_factory", factory=True, host=host, port=port,
                workers=workers, ws_max_size=1 << 16, limit_concurrency=4096,
                timeout_keep_alive=30, log_level="warning")
