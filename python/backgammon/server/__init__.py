"""``backgammon serve``: games over HTTP and WebSocket, a wildbg-compatible
engine API and a page to play on (the optional ``server`` extra: FastAPI,
uvicorn, pydantic; psycopg for PostgreSQL).

    >>> from backgammon.server import create_app          # doctest: +SKIP
    >>> app = create_app("sqlite:///games.sqlite3")       # doctest: +SKIP

Run it with ``backgammon serve [--host 127.0.0.1] [--port 8080]
[--database sqlite:///FILE | postgresql://...] [--workers N]
[--keep-days DAYS]``; the routes
are listed at ``/docs`` (interactive) and ``/openapi.json``.  What one client
may take is set by ``BACKGAMMON_LIMIT_*`` variables
(:class:`backgammon.server.limits.Limits`; docs/server.md), CORS for the engine
routes by ``BACKGAMMON_CORS_ORIGINS``, offline docs by ``BACKGAMMON_DOCS_ASSETS``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from backgammon.errors import BackgammonError

if TYPE_CHECKING:
    from backgammon.nn.evaluator import Evaluator

__all__ = ["StartupError", "create_app", "serve"]


class StartupError(BackgammonError):
    """The server cannot start (its extra is missing, the database is down or
    refuses writes, ...): one line that says why, before anything is served."""


def create_app(database: str | None = None, *, evaluator: Evaluator | None = None,
               keep_days: float | None = None, limits: Any = None,
               cors: tuple[str, ...] | None = None) -> Any:
    """The ASGI application on ``database`` (see :mod:`backgammon.server.app`)."""
    from backgammon.server.app import create_app as _create
    return _create(database, evaluator=evaluator, keep_days=keep_days, limits=limits,
                   cors=cors)


def _factory() -> Any:
    """uvicorn's factory for each worker: the settings come from the environment.
    A worker of ``--workers N`` dies with its master (:func:`die_with_parent`)."""
    master = os.environ.get("BACKGAMMON_MASTER_PID")
    if master and int(master) != os.getpid():
        from backgammon.server.process import die_with_parent
        die_with_parent(int(master))
    keep = os.environ.get("BACKGAMMON_KEEP_DAYS")
    return create_app(os.environ.get("BACKGAMMON_DATABASE"),
                      keep_days=float(keep) if keep else None)


def check_startup(database: str) -> None:
    """Raise :class:`StartupError` (one line) unless the server can start on
    ``database``: the ``server`` extra is installed, the database opens (its
    tables are created) and takes a write.

    >>> check_startup("sqlite:///games.sqlite3")     # doctest: +SKIP
    """
    missing = []
    for module in ("fastapi", "uvicorn", "pydantic", "python_multipart"):
        try:
            __import__(module)
        except ImportError:
            missing.append(module.replace("_", "-"))
    if database.startswith(("postgresql://", "postgres://")):
        for module in ("psycopg", "psycopg_pool"):
            try:
                __import__(module)
            except ImportError:
                missing.append(module)
    if missing:
        raise StartupError(f"the server needs its extra ({', '.join(missing)} missing): "
                           "pip install 'backgammon[server]'")
    from backgammon.server.store import open_store
    where = database.split("@")[-1][:120]   # never print a password
    try:
        store = open_store(database)
    except ValueError as exc:
        raise StartupError(str(exc)) from None
    except Exception as exc:  # OSError, sqlite3.Error, psycopg.Error: say it in one line
        reason = " ".join(str(exc).split())[:200] or type(exc).__name__
        raise StartupError(f"cannot open the database {where}: {reason}") from None
    try:
        if not store.probe()["writes"]:
            raise StartupError(f"the database {where} does not accept writes "
                               "(read-only file or directory, full disk, or a read-only server)")
    finally:
        store.close()


def serve(host: str = "127.0.0.1", port: int = 8080, database: str | None = None,
          workers: int = 1, keep_days: float | None = None, limits: Any = None) -> None:
    """Serve until interrupted; ``workers`` processes share the database
    (use PostgreSQL, or SQLite on a local disk, for more than one).  With
    ``keep_days``, games with no action for that many days, and jobs as old,
    are deleted (at start, then every hour).  ``limits``: a
    :class:`~backgammon.server.limits.Limits` (default: from the
    ``BACKGAMMON_LIMIT_*`` variables).  Checks first (:func:`check_startup`),
    raising :class:`StartupError`; prints "serving on ..." only then.  Workers
    die with the master, even on ``kill -9``."""
    from backgammon.server.app import keep_seconds
    from backgammon.server.limits import Limits
    from backgammon.server.store import default_database
    from backgammon.server.app import cors_origins, docs_assets
    keep_seconds(keep_days)  # refuse a bad value before any worker starts
    database = database or default_database()
    try:  # the settings the workers read from the environment, checked once here
        limits = Limits.from_env() if limits is None else limits
        cors_origins(os.environ.get("BACKGAMMON_CORS_ORIGINS"))
        docs_assets(os.environ.get("BACKGAMMON_DOCS_ASSETS"))
    except ValueError as exc:
        raise StartupError(str(exc)) from None
    check_startup(database)
    import uvicorn
    os.environ.update(limits.to_env())   # the workers and the connection guard read them
    os.environ["BACKGAMMON_DATABASE"] = database
    os.environ["BACKGAMMON_MASTER_PID"] = str(os.getpid())
    if keep_days is None:
        os.environ.pop("BACKGAMMON_KEEP_DAYS", None)
    else:
        os.environ["BACKGAMMON_KEEP_DAYS"] = repr(float(keep_days))
    config = uvicorn.Config("backgammon.server:_factory", factory=True, host=host, port=port,
                            workers=workers, ws_max_size=1 << 16, limit_concurrency=4096,
                            timeout_keep_alive=5, log_level="warning", proxy_headers=False,
                            http="backgammon.server._protocol:GuardedHTTPProtocol")
    server = uvicorn.Server(config)
    if workers == 1:
        config.load_app()
    try:
        sock = config.bind_socket()
    except SystemExit:  # uvicorn logged why (e.g. the address is in use)
        raise StartupError(f"cannot listen on {host}:{port} (in use, or not an address "
                           "of this machine)") from None
    print(f"serving on http://{host}:{port}/ (docs at /docs)", flush=True)
    try:
        if workers > 1:
            from uvicorn.supervisors import Multiprocess
            Multiprocess(config, sockets=[sock]).run()
        else:
            server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    except Exception as exc:   # e.g. the database went away between the check and the start
        if workers > 1 or server.started:
            raise
        reason = " ".join(str(exc).split())[:200] or type(exc).__name__
        raise StartupError(f"the server could not start: {reason}") from None
    if workers == 1 and not server.started:
        raise StartupError("the server stopped while starting (see the log above)")
