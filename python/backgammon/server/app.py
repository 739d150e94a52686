"""The ASGI application: ``create_app(database)`` (FastAPI, OpenAPI at
``/openapi.json``, interactive docs at ``/docs``).

Every error is a JSON body ``{"error": NAME, "message": TEXT}`` (wildbg's
``message`` field; ``TEXT`` is our exception's own message, safe to show),
never a traceback.  Request bodies, uploads, query strings and WebSockets are
bounded (see the ``MAX_*`` constants), and what one client may take by
:class:`~backgammon.server.limits.Limits` (429 with ``Retry-After``, WebSocket
close 1013), keyed by the address :func:`~backgammon.server.limits.client_address`
gives (``X-Forwarded-For`` only from trusted proxies).

The app is put together here from the modules of ``backgammon.server``, one job
each: :mod:`~backgammon.server.middleware` (the ASGI layers: bounds, CORS, budgets),
:mod:`~backgammon.server.errors` (errors and their OpenAPI declaration),
:mod:`~backgammon.server.models` (the bodies), the route groups of
:mod:`backgammon.server.routes`, :mod:`~backgammon.server.jobs` (rollouts) and
:mod:`~backgammon.server.analysis_process` (analyses).  The ``MAX_*`` constants
are read from this module where they are used.
"""

import asyncio
import inspect
import logging
import os
import secrets
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, Optional

from backgammon.server.games import GameService
from backgammon.server.limits import Buckets, Limits
from backgammon.server.store import open_store

if TYPE_CHECKING:
    from backgammon.nn.evaluator import Evaluator

__all__ = ["create_app", "MAX_BODY", "MAX_UPLOAD", "MAX_QUERY", "MAX_SOCKETS",
           "MAX_SOCKETS_PER_GAME", "MAX_ROLLOUT_GAMES",
           "JOB_LEASE_SECONDS"]

log = logging.getLogger("backgammon.server")

MAX_BODY = 64 << 10          # bytes of a JSON request body
MAX_UPLOAD = 1 << 20         # bytes of an uploaded .mat/SGF (a long match is ~100 KB)
MAX_QUERY = 4096             # bytes of a query string
MAX_PATH = 1024              # bytes of a path
MAX_SOCKETS = 2000           # open WebSockets per process
MAX_SOCKETS_PER_GAME = 64    # players and spectators of one game, per process
MAX_ROLLOUT_GAMES = 1296 * 100
MAX_JOBS_QUEUED = 16         # rollouts waiting per process
MAX_ANALYSES = 2             # analyses running at once per process
POLL_SECONDS = 0.5           # how often a WebSocket looks for actions of other workers
HEARTBEAT_SECONDS = 10.0     # how often a process renews the lease of its rollout jobs
JOB_LEASE_SECONDS = 60.0     # a queued or running job not renewed for this long has lost its process
PURGE_SECONDS = 3600.0       # how often a process with keep_days deletes idle games and old jobs


def cors_origins(text: str | None) -> tuple[str, ...]:
    """The origins of ``BACKGAMMON_CORS_ORIGINS`` (comma-separated, ``*`` for any),
    each checked to be a bare origin (``https://example.org``, no path).

    >>> cors_origins("https://a.example, http://localhost:3000")
    ('https://a.example', 'http://localhost:3000')
    """
    out = []
    for item in (text or "").split(","):
        item = item.strip()
        if not item:
            continue
        scheme, _, rest = item.partition("://")
        if item != "*" and (scheme not in ("http", "https") or not rest or "/" in rest):
            raise ValueError(f"a CORS origin is * or scheme://host[:port], got {item[:80]!r}")
        out.append(item)
    return tuple(out)


DOCS_ASSETS = {"swagger-ui-bundle.js": "text/javascript", "swagger-ui.css": "text/css",
               "redoc.standalone.js": "text/javascript"}   # ReDoc's is optional
_SWAGGER_UI = ("swagger-ui-bundle.js", "swagger-ui.css")


def bundled_docs_assets() -> str | None:
    """The directory of the Swagger UI and ReDoc that the ``fastapi-offline``
    package (the ``server`` extra) installs, or None when it is not installed."""
    import importlib.util
    spec = importlib.util.find_spec("fastapi_offline")
    if spec is None or not spec.submodule_search_locations:
        return None
    static = os.path.join(list(spec.submodule_search_locations)[0], "static")
    return static if all(os.path.isfile(os.path.join(static, n)) for n in _SWAGGER_UI) else None


def docs_assets(path: str | None) -> str | None:
    """Where ``/docs`` takes Swagger UI from: the directory ``path``
    (``BACKGAMMON_DOCS_ASSETS``: Swagger UI 5's ``swagger-ui-bundle.js`` and
    ``swagger-ui.css``, e.g. the ``dist`` of npm's ``swagger-ui-dist``; with
    ``redoc.standalone.js``, ``/redoc`` too), checked; else the copy of the
    ``fastapi-offline`` package; None (neither): FastAPI's CDN.

    >>> docs_assets("/nowhere")
    Traceback (most recent call last):
    ...
    ValueError: BACKGAMMON_DOCS_ASSETS is a directory with swagger-ui-bundle.js and swagger-ui.css (Swagger UI 5); swagger-ui-bundle.js, swagger-ui.css missing in '/nowhere'
    """
    if not path:
        return bundled_docs_assets()
    missing = [n for n in _SWAGGER_UI if not os.path.isfile(os.path.join(path, n))]
    if missing:
        raise ValueError(f"BACKGAMMON_DOCS_ASSETS is a directory with {' and '.join(_SWAGGER_UI)}"
                         f" (Swagger UI 5); {', '.join(missing)} missing in {path[:100]!r}")
    return os.path.abspath(path)


# ---------------------------------------------------------------- the app

def create_app(database: str | None = None, *, evaluator: "Evaluator | None" = None,
               keep_days: float | None = None, limits: Limits | None = None,
               cors: Optional[tuple[str, ...]] = None) -> Any:
    """The service on ``database`` (default: ``$BACKGAMMON_DATABASE``, else SQLite
    in the user's data directory).  With ``keep_days``, games idle for longer
    (no action) and jobs as old are deleted at start and every hour
    (:meth:`Store.purge`); by default nothing is ever deleted.  ``limits``:
    what one client may take (default :meth:`Limits.from_env`, the
    ``BACKGAMMON_LIMIT_*`` variables, else :class:`Limits`' defaults).  ``cors``: the
    origins whose pages may call the engine routes (default
    ``$BACKGAMMON_CORS_ORIGINS``, else none; ``("*",)`` for any).

        >>> app = create_app("sqlite://:memory:", limits=Limits(sockets=4))  # doctest: +SKIP
    """
    idle = keep_seconds(keep_days)
    limits = Limits.from_env() if limits is None else limits
    cors = cors_origins(os.environ.get("BACKGAMMON_CORS_ORIGINS")) if cors is None \
        else cors_origins(",".join(cors))
    assets = docs_assets(os.environ.get("BACKGAMMON_DOCS_ASSETS"))
    try:
        from fastapi import FastAPI
        from fastapi.routing import APIRoute
    except ImportError:  # pragma: no cover - the extra is missing
        raise RuntimeError("the server needs its extra: pip install 'backgammon[server]'") from None
    from backgammon.server.errors import add_error_handlers, use_declared_errors
    from backgammon.server.jobs import JobQueue
    from backgammon.server.middleware import Cors, Guard, RequestBounds, metered
    from backgammon.server.routes import analysis, engine, events, games, health, page, rollouts

    store = open_store(database or os.environ.get("BACKGAMMON_DATABASE"))
    service = GameService(store, evaluator)
    jobs = ThreadPoolExecutor(max_workers=1, thread_name_prefix="backgammon-rollout")
    hub = events.GameEvents()   # this process's WebSockets
    cpu = Buckets(limits.cpu_seconds_per_minute)   # CPU seconds per client address
    queue = JobQueue(limits.jobs)
    owner = secrets.token_hex(8)    # this process, as the owner of its rollout jobs

    async def heartbeat() -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            try:
                await asyncio.to_thread(store.beat, owner)
                await asyncio.to_thread(store.forget_quotas)
                await asyncio.to_thread(queue.drop_cancelled, store)  # cancelled elsewhere
            except Exception:  # the database is away: the next beat tries again
                log.warning("could not renew the lease of this process's jobs", exc_info=True)

    async def purging(idle: float) -> None:
        while True:
            try:
                gone = await asyncio.to_thread(store.purge, idle)
                if any(gone.values()):
                    log.info("purged %(games)d idle games (%(actions)d actions) and %(jobs)d jobs",
                             gone)
            except Exception:  # the database is away: the next round tries again
                log.warning("could not purge idle games", exc_info=True)
            await asyncio.sleep(PURGE_SECONDS)

    @asynccontextmanager
    async def lifespan(app: Any) -> Any:
        hub.loop = asyncio.get_running_loop()
        tasks = [asyncio.ensure_future(heartbeat())]
        if idle is not None:
            tasks.append(asyncio.ensure_future(purging(idle)))
        yield
        for task in tasks:
            task.cancel()
        jobs.shutdown(wait=False, cancel_futures=True)
        store.close()

    app = FastAPI(title="backgammon", version=_version(), lifespan=lifespan,
                  description="Games with persisted journals, a wildbg-compatible engine API "
                              "(GET /move, GET /eval), cube decisions, rollouts as jobs and "
                              "match analysis, from the backgammon library.",
                  docs_url=None if assets else "/docs", redoc_url=None if assets else "/redoc")
    if assets is not None:   # Swagger UI from a local copy, not from a CDN
        page.add_docs_routes(app, assets)
    app.state.store, app.state.service, app.state.limits = store, service, limits

    class MeteredRoute(APIRoute):
        """A route whose sync handler's CPU time is charged to its client."""

        def __init__(self, path: str, endpoint: Any, **kwargs: Any) -> None:
            if not inspect.iscoroutinefunction(endpoint):
                endpoint = metered(endpoint)
            super().__init__(path, endpoint, **kwargs)

    app.router.route_class = MeteredRoute

    add_error_handlers(app)
    engine.add_routes(app, evaluator, limits)
    games.add_routes(app, store, service, hub.notify)
    events.add_routes(app, hub, store, service, limits)
    rollouts.add_routes(app, store, queue, jobs, owner, limits)
    analysis.add_routes(app, limits, cpu)
    page.add_routes(app)
    health.add_routes(app, store)
    use_declared_errors(app)
    return Guard(Cors(RequestBounds(app), cors), limits, cpu)


def keep_seconds(keep_days: float | None) -> float | None:
    """``keep_days`` in seconds, checked (None: keep everything)."""
    if keep_days is None:
        return None
    if isinstance(keep_days, bool) or not isinstance(keep_days, (int, float)) \
            or not 0 < keep_days <= 36_500:
        raise ValueError(f"keep_days is a number of days in (0, 36500], got {keep_days!r}")
    return float(keep_days) * 86400.0


def _version() -> str:
    from backgammon import __version__
    return __version__

