"""``backgammon serve``: games over HTTP and WebSocket, a wildbg-compatible
engine API and a page to play on (the optional ``server`` extra: FastAPI,
uvicorn, pydantic; psycopg for PostgreSQL).

    >>> from backgammon.server import create_app          # doctest: +SKIP
    >>> app = create_app("sqlite:///games.sqlite3")       # doctest: +SKIP

Run it with ``backgammon serve [--host 127.0.0.1] [--port 8080]
[--database sqlite:///FILE | postgresql://...] [--workers N]``; the routes
are listed at ``/docs`` (interactive) and ``/openapi.json``.
"""

from __future__ import annotations

import os
from typing import Any

__all__ = ["create_app", "serve"]


def create_app(database: str | None = None, *, evaluator: Any = None) -> Any:
    """The ASGI application on ``database`` (see :mod:`backgammon.server.app`)."""
    from backgammon.server.app import create_app as _create
    return _create(database, evaluator=evaluator)


def _factory() -> Any:
    """uvicorn's factory for each worker: the database comes from the environment."""
    return create_app(os.environ.get("BACKGAMMON_DATABASE"))


def serve(host: str = "127.0.0.1", port: int = 8080, database: str | None = None,
          workers: int = 1) -> None:
    """Serve until interrupted; ``workers`` processes share the database
    (use PostgreSQL, or SQLite on a local disk, for more than one)."""
    try:
        import uvicorn
    except ImportError:
        raise RuntimeError("the server needs its extra: pip install 'backgammon[server]'") from None
    from backgammon.server.store import default_database, open_store
    database = database or default_database()
    open_store(database).close()  # create the tables once, and fail here on a bad URL
    os.environ["BACKGAMMON_DATABASE"] = database
    uvicorn.run("backgammon.server:_factory", factory=True, host=host, port=port,
                workers=workers, ws_max_size=1 << 16, limit_concurrency=4096,
                timeout_keep_alive=30, log_level="warning")
