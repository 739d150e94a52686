"""The ASGI application: ``create_app(database)`` (FastAPI, OpenAPI at
``/openapi.json``, interactive docs at ``/docs``).

Every error is a JSON body ``{"error": NAME, "message": TEXT}`` (wildbg's
``message`` field; ``TEXT`` is our exception's own message, safe to show),
never a traceback.  Request bodies, uploads, query strings and WebSockets are
bounded (see the ``MAX_*`` constants), and what one client may take by
:class:`~backgammon.server.limits.Limits` (429 with ``Retry-After``, WebSocket
close 1013), keyed by the address :func:`~backgammon.server.limits.client_address`
gives (``X-Forwarded-For`` only from trusted proxies).
"""

import asyncio
import contextvars
import functools
import hashlib
import hmac
import inspect
import json
import logging
import os
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from importlib import resources
from typing import TYPE_CHECKING, Annotated, Any, Iterator, Literal, Optional

from backgammon.errors import BackgammonError, InvalidRecordError
from backgammon.server import engine
from backgammon.server.games import MAX_JOURNAL, Forbidden, GameService, NotFound, SeqMismatch
from backgammon.server.limits import Buckets, Counts, Limits, client_address, retry_after
from backgammon.server.store import open_store, unavailable_errors

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

    from backgammon.formats.mat import MatRecord
    from backgammon.formats.sgf import SgfRecord

__all__ = ["create_app", "MAX_BODY", "MAX_UPLOAD", "MAX_QUERY", "MAX_SOCKETS",
           "MAX_SOCKETS_PER_GAME", "MAX_ROLLOUT_GAMES", "MAX_GAMES_PER_MINUTE",
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
MAX_GAMES_PER_MINUTE = 60    # POST /games per client address (a burst of as many, then 1 a second)
HEARTBEAT_SECONDS = 10.0     # how often a process renews the lease of its rollout jobs
JOB_LEASE_SECONDS = 60.0     # a queued or running job not renewed for this long has lost its process
PURGE_SECONDS = 3600.0       # how often a process with keep_days deletes idle games and old jobs

# The page's own headers: its script, styles and WebSocket from this origin only (the
# board's SVG has inline style attributes), never framed by another site, no sniffing
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; "
                               "style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
                               "connect-src 'self'; object-src 'none'; base-uri 'none'; "
                               "form-action 'self'; frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


# ---------------------------------------------------------------- bounds (pure ASGI)

class _Limits:
    """Refuses an oversized query string (414) or body (413) before any handler runs."""

    def __init__(self, app: "ASGIApp") -> None:
        self.app = app

    async def __call__(self, scope: "Scope", receive: "Receive", send: "Send") -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        if len(scope.get("path", "")) > MAX_PATH:
            return await _refuse(scope, send, 414, "URITooLong",
                                 f"the path is limited to {MAX_PATH} bytes")
        if len(scope.get("query_string", b"")) > MAX_QUERY:
            return await _refuse(scope, send, 414, "URITooLong",
                                 f"the query string is limited to {MAX_QUERY} bytes")
        if scope["type"] == "websocket":
            return await self.app(scope, receive, send)
        limit = MAX_UPLOAD if scope.get("path") == "/analyse" else MAX_BODY
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    length = int(value)
                except ValueError:
                    return await _refuse(scope, send, 400, "BadRequest", "bad Content-Length")
                if length > limit:
                    return await _refuse(scope, send, 413, "PayloadTooLarge",
                                         f"the request body is limited to {limit:,} bytes")
        seen = 0

        async def bounded() -> "Message":
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise _TooLarge(limit)
            return message

        await _answer_body_errors(self.app, scope, bounded, send)


async def _answer_body_errors(app: "ASGIApp", scope: "Scope", receive: "Receive",
                              send: "Send") -> None:
    """Run ``app``; if reading the body raised :class:`_BodyError` (too large, too
    slow), answer its status whatever the app made of the exception (a body
    parser answers 400 "error parsing the body" to any exception)."""
    failed: list[_BodyError] = []
    started = False

    async def reading() -> "Message":
        try:
            return await receive()
        except _BodyError as exc:
            failed.append(exc)
            raise

    async def sending(message: "Message") -> None:
        nonlocal started
        if failed:
            return     # the app's answer to our exception: ours goes out below
        started = started or message["type"] == "http.response.start"
        await send(message)

    try:
        await app(scope, reading, sending)
    except _BodyError as exc:
        if not failed:
            failed.append(exc)
    if failed and not started:
        await _refuse(scope, send, failed[0].status, failed[0].name, failed[0].message)


class _Busy(Exception):
    """The server has no place for this work now (503 ``Busy``, ``Retry-After: 1``)."""


class _BodyError(Exception):
    """A request body refused while it arrives: ``status``, ``name``, ``message``."""

    def __init__(self, status: int, name: str, message: str) -> None:
        super().__init__(message)
        self.status, self.name, self.message = status, name, message


class _TooLarge(_BodyError):
    def __init__(self, limit: int) -> None:
        super().__init__(413, "PayloadTooLarge", f"the request body is limited to {limit:,} bytes")


class _SlowBody(_BodyError):
    def __init__(self, seconds: float) -> None:
        super().__init__(408, "RequestTimeout",
                         f"the request body did not arrive within {seconds:g} s")


async def _refuse(scope: "Scope", send: "Send", status: int, name: str, message: str,
                  retry: float | None = None) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})
        return
    body = json.dumps({"error": name, "message": message}).encode()
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode())]
    if retry is not None:
        headers.append((b"retry-after", retry_after(retry).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


# ---------------------------------------------------------------- CORS for the engine routes

ENGINE_PATHS = ("/move", "/eval", "/cube")


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


DOCS_ASSETS = {"swagger-ui-bundle.js": "text/javascript", "swagger-ui.css": "text/css"}


def docs_assets(path: str | None) -> str | None:
    """The directory of ``BACKGAMMON_DOCS_ASSETS`` (Swagger UI 5's
    ``swagger-ui-bundle.js`` and ``swagger-ui.css``, e.g. the ``dist`` of npm's
    ``swagger-ui-dist``), checked; None: ``/docs`` loads them from FastAPI's CDN.

    >>> docs_assets(None) is None
    True
    """
    if not path:
        return None
    missing = [n for n in DOCS_ASSETS if not os.path.isfile(os.path.join(path, n))]
    if missing:
        raise ValueError(f"BACKGAMMON_DOCS_ASSETS is a directory with {' and '.join(DOCS_ASSETS)}"
                         f" (Swagger UI 5); {', '.join(missing)} missing in {path[:100]!r}")
    return os.path.abspath(path)


class _Cors:
    """CORS on the engine routes (wildbg's ``/move`` and ``/eval``, and ``/cube``) for
    the configured origins only: a preflight ``OPTIONS`` is answered 204, a ``GET``
    carries ``Access-Control-Allow-Origin``.  The game routes never answer CORS (a
    page on another site cannot act with a player's token through its visitor)."""

    def __init__(self, app: "ASGIApp", origins: tuple[str, ...]) -> None:
        self.app, self.origins = app, origins

    async def __call__(self, scope: "Scope", receive: "Receive", send: "Send") -> None:
        if scope["type"] != "http" or not self.origins or scope.get("path") not in ENGINE_PATHS:
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers", []))
        origin = headers.get(b"origin")
        if origin is None or ("*" not in self.origins
                              and origin.decode("latin-1") not in self.origins):
            return await self.app(scope, receive, send)
        allow = [(b"access-control-allow-origin", b"*" if "*" in self.origins else origin),
                 (b"vary", b"Origin")]
        if scope.get("method") == "OPTIONS" and b"access-control-request-method" in headers:
            asked = headers.get(b"access-control-request-headers", b"")
            safe = bytes(c for c in asked if chr(c).isalnum() or chr(c) in "-_, ")[:200]
            await send({"type": "http.response.start", "status": 204, "headers": allow + [
                (b"access-control-allow-methods", b"GET, OPTIONS"),
                (b"access-control-allow-headers", safe or b"*"),
                (b"access-control-max-age", b"600")]})
            await send({"type": "http.response.body", "body": b""})
            return

        async def sending(message: "Message") -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": list(message.get("headers", [])) + allow}
            await send(message)

        await self.app(scope, receive, sending)


# ---------------------------------------------------------------- per-client budgets (pure ASGI)

_METER: "contextvars.ContextVar[list[float]]" = contextvars.ContextVar("backgammon_cpu_meter")
FREE_PATHS = ("/health", "/ready")   # probes: never counted against a client


def _metered(fn: Any) -> Any:
    """``fn`` (a sync route handler, run in a worker thread) adding the CPU time
    of its thread to the request's meter, which :class:`_Guard` charges to the
    client's CPU budget."""
    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        start = time.thread_time()
        try:
            return fn(*args, **kwargs)
        finally:
            meter = _METER.get(None)
            if meter is not None:
                meter[0] += time.thread_time() - start
    return run


_noted: dict[tuple[str, str], float] = {}
_noted_lock = threading.Lock()


def _note_refusal(who: str, budget: str) -> None:
    """Log (a warning) that ``who`` went over ``budget``: once a minute per client and
    budget, so that an operator sees who is refused without a line per request."""
    now = time.monotonic()
    with _noted_lock:
        if now - _noted.get((who, budget), -1e9) < 60.0:
            return
        _noted[(who, budget)] = now
        if len(_noted) > 10_000:
            for key in [k for k, t in _noted.items() if now - t >= 60.0]:
                del _noted[key]
    log.warning("client %s is over its budget of %s: refused (429) for now", who, budget)


class _Guard:
    """Each request's client address (:func:`~backgammon.server.limits.client_address`,
    kept in ``scope["state"]["client"]``) and its budgets: requests a minute,
    requests at once and CPU seconds a minute (429 with ``Retry-After``), and a
    body that must arrive within ``Limits.body_timeout`` (408)."""

    def __init__(self, app: "ASGIApp", limits: Limits, cpu: Buckets) -> None:
        self.app, self.limits, self.cpu = app, limits, cpu
        self.proxies = limits.proxies
        self.requests = Buckets(limits.requests_per_minute)
        self.inflight = Counts()

    async def __call__(self, scope: "Scope", receive: "Receive", send: "Send") -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        who = client_address(scope.get("client"), scope.get("headers", []), self.proxies)
        scope.setdefault("state", {})["client"] = who
        if scope.get("path") in FREE_PATHS and scope["type"] == "http":
            return await self.app(scope, receive, send)
        wait = self.requests.acquire(who)   # a WebSocket's handshake counts as a request
        if wait and scope["type"] == "websocket":
            _note_refusal(who, "requests a minute")
            message = await receive()
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.accept"})
                await send({"type": "websocket.close", "code": 1013,
                            "reason": f"too many requests (retry after {retry_after(wait)} s)"})
            return
        if scope["type"] == "websocket":
            return await self.app(scope, receive, send)
        if wait:
            _note_refusal(who, "requests a minute")
            return await _refuse(scope, send, 429, "TooManyRequests",
                                 f"{self.limits.requests_per_minute} requests a minute per client: "
                                 f"try again in {retry_after(wait)} s", retry=wait)
        wait = self.cpu.wait(who, 0.0)   # any budget left: the request runs, then pays
        if wait:
            _note_refusal(who, "CPU seconds a minute")
            return await _refuse(scope, send, 429, "TooManyRequests",
                                 f"this client used its {self.limits.cpu_seconds_per_minute:g} "
                                 f"CPU seconds a minute: try again in {retry_after(wait)} s",
                                 retry=wait)
        if not self.inflight.enter(who, self.limits.concurrent_requests):
            _note_refusal(who, "requests at once")
            return await _refuse(scope, send, 429, "TooManyRequests",
                                 f"{self.limits.concurrent_requests} requests at once per client: "
                                 "wait for an answer", retry=1.0)
        meter = [0.0]
        token = _METER.set(meter)
        timeout = self.limits.body_timeout

        body_done = False

        async def timed() -> "Message":   # the body's parts each within the timeout
            nonlocal body_done
            if body_done:   # e.g. waiting for a disconnect: no limit
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), timeout)
            except asyncio.TimeoutError:
                raise _SlowBody(timeout) from None
            body_done = message["type"] != "http.request" or not message.get("more_body")
            return message

        try:
            await _answer_body_errors(self.app, scope, timed, send)
        finally:
            _METER.reset(token)
            self.inflight.leave(who)
            if meter[0] > 0:
                self.cpu.take(who, meter[0])



# ---------------------------------------------------------------- the app

def create_app(database: str | None = None, *, evaluator: Any = None,
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
        from fastapi import FastAPI, File, Header, Query, Request, UploadFile, WebSocket
        from fastapi.exceptions import RequestValidationError
        from fastapi.responses import HTMLResponse, JSONResponse, Response
        from fastapi.routing import APIRoute
        from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictBool
        from starlette.exceptions import HTTPException
        from starlette.websockets import WebSocketDisconnect
    except ImportError:  # pragma: no cover - the extra is missing
        raise RuntimeError("the server needs its extra: pip install 'backgammon[server]'") from None

    store = open_store(database or os.environ.get("BACKGAMMON_DATABASE"))
    service = GameService(store, evaluator)
    jobs = ThreadPoolExecutor(max_workers=1, thread_name_prefix="backgammon-rollout")
    analyses = threading.BoundedSemaphore(MAX_ANALYSES)
    sockets: dict[str, set[asyncio.Event]] = {}
    counters = {"sockets": 0}
    client_sockets = Counts()   # open WebSockets per client address
    deep = threading.BoundedSemaphore(limits.deep_searches)   # ply >= 1 engine work at once

    @contextmanager
    def searching(ply: int) -> Iterator[None]:
        """A place for an engine request at ``ply`` (ply 0 needs none): else 503 Busy."""
        if ply == 0:
            yield
            return
        if not deep.acquire(blocking=False):
            raise _Busy(f"{limits.deep_searches} searches at ply 1 or 2 are running: "
                        "try again in a second, or ask at ply 0")
        try:
            yield
        finally:
            deep.release()
    cpu = Buckets(limits.cpu_seconds_per_minute)   # CPU seconds per client address
    queue = _JobQueue(limits.jobs)
    loop_box: dict[str, asyncio.AbstractEventLoop] = {}
    owner = secrets.token_hex(8)    # this process, as the owner of its rollout jobs

    from contextlib import asynccontextmanager

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
        loop_box["loop"] = asyncio.get_running_loop()
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
    if assets is not None:   # Swagger UI from the operator's copy, not from a CDN
        from fastapi.openapi.docs import get_swagger_ui_html

        @app.get("/docs", include_in_schema=False)
        def docs() -> Any:
            return get_swagger_ui_html(openapi_url="/openapi.json", title="backgammon: API",
                                       swagger_js_url="/docs-assets/swagger-ui-bundle.js",
                                       swagger_css_url="/docs-assets/swagger-ui.css",
                                       swagger_favicon_url="/favicon.svg")

        @app.get("/docs-assets/{name}", include_in_schema=False)
        def docs_asset(name: str) -> Any:
            if name not in DOCS_ASSETS:
                raise NotFound(f"no asset {name[:40]!r}")
            with open(os.path.join(assets, name), "rb") as f:
                return Response(f.read(), media_type=DOCS_ASSETS[name],
                                headers={"Cache-Control": "public, max-age=86400"})
    app.state.store, app.state.service, app.state.limits = store, service, limits

    class MeteredRoute(APIRoute):
        """A route whose sync handler's CPU time is charged to its client."""

        def __init__(self, path: str, endpoint: Any, **kwargs: Any) -> None:
            if not inspect.iscoroutinefunction(endpoint):
                endpoint = _metered(endpoint)
            super().__init__(path, endpoint, **kwargs)

    app.router.route_class = MeteredRoute

    def notify(game_id: str) -> None:
        """Wake this process's WebSockets of a game (called from worker threads)."""
        loop = loop_box.get("loop")
        if loop is not None:
            loop.call_soon_threadsafe(wake, game_id)

    def wake(game_id: str) -> None:  # in the event loop's thread, which owns ``sockets``
        for event in sockets.get(game_id, ()):
            event.set()

    # ------------------------------------------------------------ errors

    def error(status: int, name: str, message: str, **extra: Any) -> JSONResponse:
        return JSONResponse({"error": name, "message": message, **extra}, status_code=status)

    @app.exception_handler(BackgammonError)
    async def _ours(request: Request, exc: BackgammonError) -> JSONResponse:
        status = (404 if isinstance(exc, NotFound) else 403 if isinstance(exc, Forbidden)
                  else 409 if isinstance(exc, SeqMismatch) else 400)
        extra = {"seq": exc.seq} if isinstance(exc, SeqMismatch) else {}
        return error(status, type(exc).__name__, str(exc), **extra)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for e in exc.errors()[:5]:
            where = ".".join(str(x) for x in e.get("loc", ()) if x != "body")
            parts.append(f"{where}: {e.get('msg')}" if where else str(e.get("msg")))
        return error(400, "RequestValidationError", "; ".join(parts)[:500] or "invalid request")

    @app.exception_handler(HTTPException)
    async def _http(request: Request, exc: HTTPException) -> JSONResponse:
        response = error(exc.status_code, "HTTPError", str(exc.detail))
        for name, value in (exc.headers or {}).items():
            response.headers[name] = value
        if exc.status_code == 405:   # every method of the path, not only the first route's
            from starlette.routing import Match
            methods: set[str] = set()
            for route in app.routes:
                if route.matches(request.scope)[0] is not Match.NONE:
                    methods |= set(getattr(route, "methods", None) or ())
            if methods:
                response.headers["Allow"] = ", ".join(sorted(methods))
        return response

    async def _store_down(request: Request, exc: Exception) -> JSONResponse:
        log.warning("the database refused %s %s: %s", request.method, request.url.path,
                    str(exc)[:200])
        response = error(503, "StoreUnavailable", "the database cannot be reached or refuses "
                         "writes (logged on the server): try again later")
        response.headers["Retry-After"] = "5"
        return response

    for cls in unavailable_errors():
        app.add_exception_handler(cls, _store_down)

    @app.exception_handler(_Busy)
    async def _busy(request: Request, exc: _Busy) -> JSONResponse:
        response = error(503, "Busy", str(exc))
        response.headers["Retry-After"] = "1"
        return response

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error on %s %s", request.method, request.url.path)
        return error(500, "InternalError", "internal server error (logged on the server)")

    # ------------------------------------------------------------ models

    # an integer as JSON Schema has it: 3 or 3.0, never true or "3"
    JsonInt = Annotated[int, BeforeValidator(_json_int)]

    class Strict(BaseModel):
        model_config = ConfigDict(extra="forbid")

    class RulesModel(Strict):
        cube: StrictBool = True
        max_cube: JsonInt = 64
        jacoby: StrictBool = False
        beaver: StrictBool = False
        automatic_doubles: JsonInt = 0
        backgammon_value: JsonInt = 3
        opening: Literal["opening_dice", "roll_again"] = "opening_dice"

    class BotModel(Strict):
        seat: JsonInt = Field(1, ge=0, le=1)
        ply: JsonInt = Field(0, ge=0, le=2)

    class GameCreate(Strict):
        match_length: JsonInt = Field(0, ge=0, le=64,
                                        description="0: a money game; N: a match to N")
        rules: Optional[RulesModel] = None
        bot: Optional[BotModel] = Field(None, description="a seat played by the server's bot")
        over_the_board: StrictBool = Field(False,
                                           description="the players enter the dice they roll")
        crawford: StrictBool = True

    class Created(BaseModel):
        id: str
        tokens: dict[str, str]

    class ActionModel(Strict):
        action: Literal["roll", "play", "double", "take", "drop", "beaver", "resign",
                        "accept", "reject"]
        seq: JsonInt = Field(..., ge=0, description="the game's seq this action follows")
        play: Optional[str] = Field(None, max_length=200,
                                    description='gnubg notation, e.g. "8/5 6/5"; "" for no move')
        moves: Optional[list[tuple[JsonInt, JsonInt]]] = Field(None, max_length=8)
        points: Optional[JsonInt] = Field(None, ge=1, le=3,
                                      description="resign: 1 single, 2 gammon, 3 backgammon")
        dice: Optional[tuple[JsonInt, JsonInt]] = Field(
            None, description="over the board: the roll")

    class RolloutRequest(Strict):
        position: str = Field("4HPwATDgc/ABMA", max_length=100,
                              description="a Position ID, GNUbgID or XGID")
        games: JsonInt = Field(1296, ge=1, le=MAX_ROLLOUT_GAMES)
        seed: Optional[JsonInt] = Field(None, ge=0, le=2**53,
                                       description="up to 2**53 (exact in every JSON reader)")
        policy: Literal["net", "pubeval", "random"] = "net"
        cube: StrictBool = False
        variance_reduction: StrictBool = False
        truncate: Optional[JsonInt] = Field(None, ge=1, le=1000)

    class MoveDetail(BaseModel):
        model_config = ConfigDict(populate_by_name=True)
        from_: int = Field(..., alias="from", ge=1, le=25, description="25 is the bar")
        to: int = Field(..., ge=0, le=24, description="0 is off")

    class Probabilities(BaseModel):
        win: float
        winG: float
        winBg: float
        loseG: float
        loseBg: float

    class MoveInfo(BaseModel):
        play: list[MoveDetail]
        probabilities: Probabilities

    class MoveResponse(BaseModel):
        moves: list[MoveInfo]

    class CubeInfo(BaseModel):
        double: bool
        accept: bool

    class EvalResponse(BaseModel):
        cube: CubeInfo
        probabilities: Probabilities

    class ErrorMessage(BaseModel):
        error: str
        message: str

    errors: dict[int | str, dict[str, Any]] = {400: {"model": ErrorMessage}}

    # ------------------------------------------------------------ wildbg routes

    def points_dependency() -> Any:
        """p0..p25 as 26 documented query parameters (wildbg's PipParams)."""
        params = [inspect.Parameter(f"p{i}", inspect.Parameter.KEYWORD_ONLY,
                                    default=Query(None, ge=-15 if i < 25 else 0,
                                                  le=0 if i == 0 else 15,
                                                  description=("the opponent's bar (<= 0)" if i == 0
                                                               else "your bar" if i == 25 else None)),
                                    annotation=Optional[int]) for i in range(26)]

        def points(**kw: Any) -> dict[str, Optional[int]]:
            return kw

        points.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
        return points

    from fastapi import Depends
    Points = Depends(points_dependency())
    ply_q = Query(0, ge=0, le=2, description="evaluation depth (ours: 0, 1 or 2)")
    pos_q = Query(None, max_length=100, description="ours: a Position ID, GNUbgID or XGID "
                                                    "instead of p0..p25")

    @app.get("/move", response_model=MoveResponse, responses=errors, tags=["engine (wildbg)"])
    def get_move(die1: Optional[int] = Query(None, ge=1, le=6, examples=[3]),
                 die2: Optional[int] = Query(None, ge=1, le=6, examples=[1]),
                 x_away: int = Query(0, ge=0, description="points you need (0: money play)"),
                 o_away: int = Query(0, ge=0, description="points the opponent needs"),
                 ply: int = ply_q, position: Optional[str] = pos_q,
                 points: dict[str, Optional[int]] = Points) -> Any:
        """Every legal play of the dice, best first, each with the five chances
        after it (wildbg's ``/move``); at a match score ranked by match winning
        chance from the match equity table."""
        pos, carried = engine.position_from_query(points, position)
        dice = engine.dice_from_query(die1, die2, carried)
        score = engine.score_from_query(x_away, o_away)
        game = engine.game_from_id(position)
        if game is not None and score is None:
            score = engine.id_score(game)   # an XGID or GNUbgID brings its match score
        with searching(ply):
            return engine.move_response(pos, dice, score, ply, evaluator)

    @app.get("/eval", response_model=EvalResponse, responses=errors, tags=["engine (wildbg)"])
    def get_eval(x_away: int = Query(0, ge=0), o_away: int = Query(0, ge=0),
                 ply: int = ply_q, position: Optional[str] = pos_q,
                 cube: int = Query(1, ge=1, le=64, description="ours: the cube's value"),
                 owner: Literal["centred", "own", "opponent"] = Query("centred"),
                 post_crawford: bool = Query(False), points: dict[str, Optional[int]] = Points) -> Any:
        """The five chances of the player on roll and the cube advice (wildbg's ``/eval``).
        An XGID or GNUbgID as ``position`` brings its cube, owner and match score."""
        with searching(ply):
            decision = _decision(points, position, x_away, o_away, ply, cube, owner,
                                 post_crawford)
        double = decision.available and decision.action.startswith(("Double", "Redouble"))
        return {"cube": {"double": bool(double), "accept": bool(decision.take)},
                "probabilities": dict(zip(("win", "winG", "winBg", "loseG", "loseBg"),
                                          decision.probabilities))}

    def _decision(points: dict[str, Optional[int]], position: Optional[str], x_away: int, o_away: int, ply: int,
                  cube: int, owner: str, post_crawford: bool) -> Any:
        pos, _ = engine.position_from_query(points, position)
        score = engine.score_from_query(x_away, o_away)
        game = engine.game_from_id(position)
        if game is None:
            return engine.cube_advice(pos, score, ply, cube=cube, owner=owner,
                                      post_crawford=post_crawford, evaluator=evaluator)
        if score is not None or cube != 1 or owner != "centred" or post_crawford:
            raise BackgammonError("an XGID or GNUbgID gives the cube and the score: "
                                  "leave out x_away, o_away, cube, owner and post_crawford")
        from backgammon.cube import cube_decision
        return cube_decision(game, ply, evaluator)

    @app.get("/cube", responses=errors, tags=["engine"])
    def get_cube(x_away: int = Query(0, ge=0), o_away: int = Query(0, ge=0),
                 ply: int = ply_q, position: Optional[str] = pos_q,
                 cube: int = Query(1, ge=1, le=64),
                 owner: Literal["centred", "own", "opponent"] = Query("centred"),
                 post_crawford: bool = Query(False), points: dict[str, Optional[int]] = Points) -> Any:
        """The full cube decision: the equities of no double, double/take and
        double/pass, the proper action and each action's error
        (:meth:`CubeDecision.to_dict`); an XGID or GNUbgID brings its cube and score."""
        with searching(ply):
            return _decision(points, position, x_away, o_away, ply, cube, owner,
                             post_crawford).to_dict()

    # ------------------------------------------------------------ games

    @app.post("/games", response_model=Created, status_code=201, tags=["games"],
              responses={429: {"model": ErrorMessage}})
    def create_game(body: GameCreate, request: Request) -> Any:
        """A new game: two seats with secret tokens (no token for a bot's seat).
        A client address may create ``MAX_GAMES_PER_MINUTE`` games at once, then
        one a second (429 with ``Retry-After`` beyond), counted in the database
        across every worker."""
        address = request.state.client   # the proxy's client only from a trusted proxy
        wait = store.take_token("games:" + address[:100], MAX_GAMES_PER_MINUTE)
        if wait:
            seconds = max(1, int(wait + 0.999))
            response = error(429, "TooManyRequests",
                             f"{MAX_GAMES_PER_MINUTE} new games a minute per client: "
                             f"try again in {seconds} s")
            response.headers["Retry-After"] = str(seconds)
            return response
        return service.create(body.model_dump())

    @app.get("/games/{game_id}", tags=["games"])
    def get_game(game_id: str) -> Any:
        """The full state: seq, phase, the player to act and their legal actions,
        dice, cube, score, IDs and ``board`` (26 integers seen by the player to act)."""
        return service.state(_game_id(game_id))

    @app.post("/games/{game_id}/actions", tags=["games"],
              responses={403: {"model": ErrorMessage}, 409: {"model": ErrorMessage}})
    def post_action(game_id: str, body: ActionModel,
                    authorization: Optional[str] = Header(None),
                    idempotency_key: Optional[str] = Header(None, max_length=100)) -> Any:
        """One action of the seat whose token is given (``Authorization: Bearer
        TOKEN``), applied only when ``seq`` is the game's; then the bot's
        answers.  Committed before the reply.  A retry of an applied request
        with the same ``Idempotency-Key`` returns the state again."""
        token = None
        if authorization and authorization.startswith("Bearer "):
            token = authorization[len("Bearer "):].strip()
        request = body.model_dump()
        if request["moves"] is not None:
            request["play"] = request.pop("moves")
        state = service.act(_game_id(game_id), token, request, idempotency_key)
        notify(game_id)
        return state

    @app.get("/games/{game_id}/actions", tags=["games"])
    def get_actions(game_id: str, start: int = Query(0, ge=0, le=MAX_JOURNAL)) -> Any:
        """The journal from ``start`` on: ``{"start", "seq", "entries": [{game, player,
        kind, value}]}``; ``seq`` is the game's (a ``start`` beyond it gives no entries)."""
        gid = _game_id(game_id)
        seq = store.seq(gid)
        if seq is None:
            raise NotFound(f"no game {gid!r}")
        entries = service.entries(gid, start) if start < seq else []
        return {"start": start, "seq": start + len(entries) if entries else seq,
                "entries": entries}

    @app.get("/games/{game_id}/export", tags=["games"])
    def export(game_id: str, format: Literal["mat", "sgf", "json"] = Query("json")) -> Any:
        text = service.export(_game_id(game_id), format)
        media = {"json": "application/json", "mat": "text/plain", "sgf": "application/x-go-sgf"}
        return Response(text, media_type=media[format] + ("; charset=utf-8" if format != "json"
                                                           else ""),
                        headers={"Content-Disposition":
                                 f'attachment; filename="{game_id}.{format}"'})

    @app.get("/games/{game_id}/turn", tags=["games"])
    def get_turn(game_id: str, seat: int = Query(..., ge=0, le=1),
                 steps: str = Query("", max_length=200,
                                    description="steps made so far, e.g. 8/5 or 8/5 6/5")) -> Any:
        """For click-to-move: the board of ``seat`` after ``steps`` (SVG), the
        legal next steps, and whether the play is complete."""
        return _turn(service, _game_id(game_id), seat, steps)

    @app.get("/games/{game_id}/board.svg", tags=["games"])
    def board_svg(game_id: str, seat: int = Query(0, ge=0, le=1),
                  size: int = Query(540, ge=100, le=2000)) -> Any:
        """The board seen by ``seat`` (from :mod:`backgammon.display.svg`)."""
        return Response(_turn(service, _game_id(game_id), seat, "", size)["svg"],
                        media_type="image/svg+xml")

    @app.websocket("/games/{game_id}/events")
    async def events(websocket: WebSocket, game_id: str) -> None:
        """Every change of the game: first ``{"type": "state", "state"}``, then for
        each committed request ``{"type": "actions", "entries", "state"}``."""
        gid = game_id[:64]
        who = websocket.scope.get("state", {}).get("client", "-")
        if not client_sockets.enter(who, limits.sockets):
            _note_refusal(who, "WebSockets")
            await _ws_busy(websocket, f"{limits.sockets} WebSockets per client: close one "
                                      "and try again")
            return
        try:
            await _ws_game(websocket, gid, who)
        finally:
            client_sockets.leave(who)

    async def _ws_game(websocket: WebSocket, gid: str, who: str) -> None:
        seq = None if not _valid_id(gid) else await asyncio.to_thread(store.seq, gid)
        if seq is None:
            await websocket.close(code=4404)
            return
        mine = sockets.get(gid, set())
        if counters["sockets"] >= MAX_SOCKETS or len(mine) >= MAX_SOCKETS_PER_GAME:
            await _ws_busy(websocket, "this server (or game) has as many WebSockets as it "
                                      "takes: try again later")
            return
        sockets[gid] = mine
        event = asyncio.Event()
        mine.add(event)
        counters["sockets"] += 1
        try:
            await websocket.accept()
            state = await asyncio.to_thread(service.state, gid)
            last = state["seq"]
            await websocket.send_json({"type": "state", "state": state})
            reader = asyncio.ensure_future(_drain(websocket))
            while not reader.done():
                event.clear()
                waiter = asyncio.ensure_future(event.wait())
                await asyncio.wait({reader, waiter}, timeout=POLL_SECONDS,
                                   return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
                if reader.done():
                    break
                now = await asyncio.to_thread(store.seq, gid)
                if now is not None and now > last:
                    entries = await asyncio.to_thread(service.entries, gid, last)
                    state = await asyncio.to_thread(service.state, gid)
                    await websocket.send_json({"type": "actions", "start": last,
                                               "entries": entries, "state": state})
                    last = state["seq"]
            reader.cancel()
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            mine.discard(event)
            if not mine:
                sockets.pop(gid, None)
            counters["sockets"] -= 1

    # ------------------------------------------------------------ rollouts

    @app.post("/rollouts", status_code=202, tags=["rollouts"],
              responses={400: {"model": ErrorMessage}, 429: {"model": ErrorMessage},
                         503: {"model": ErrorMessage}})
    def create_rollout(body: RolloutRequest, request: Request) -> Any:
        """Starts a rollout (a job): poll ``GET /rollouts/{id}`` for its progress
        and result, ``DELETE`` it to cancel (with ``Authorization: Bearer TOKEN``,
        the ``token`` of this answer, or from the same client address).  A client may have ``Limits.jobs``
        jobs queued or running (429 beyond); a process queues ``MAX_JOBS_QUEUED``
        (503 beyond); a cancelled job frees its place at once."""
        from backgammon.rollout import read_position
        read_position(body.position)  # a bad position is refused now, not in the job
        who = request.state.client
        job_id, cancel_token = secrets.token_urlsafe(12), secrets.token_urlsafe(24)
        refused = queue.admit(job_id, who)
        if refused == "client":
            _note_refusal(who, "rollout jobs")
            response = error(429, "TooManyRequests", f"{limits.jobs} rollouts per client at "
                             "once: wait for one to finish, or cancel one")
            response.headers["Retry-After"] = "10"
            return response
        if refused:
            response = error(503, "Busy", f"{MAX_JOBS_QUEUED} rollouts are waiting: try later")
            response.headers["Retry-After"] = "30"
            return response
        try:
            job = body.model_dump()
            store.create_job(job_id, "rollout", job, body.games, owner=owner, client=who,
                             token=hashlib.sha256(cancel_token.encode()).hexdigest())
            queue.attach(job_id, jobs.submit(queue.run, job_id, _run_rollout, store, job_id, job))
        except BaseException:
            queue.release(job_id)
            raise
        return {"id": job_id, "status": "queued", "done": 0, "total": body.games,
                "token": cancel_token}

    @app.get("/rollouts/{job_id}", tags=["rollouts"], responses={404: {"model": ErrorMessage}})
    def get_rollout(job_id: str) -> Any:
        """The job: ``status`` (queued, running, done, failed, cancelled),
        ``done`` of ``total`` games, and ``result`` once done.  A job whose
        process stopped (no heartbeat for ``JOB_LEASE_SECONDS``) is failed."""
        job = None
        if _valid_id(job_id):
            store.expire_job(job_id, JOB_LEASE_SECONDS)
            job = store.job(job_id)
        if job is None or job["kind"] != "rollout":
            raise NotFound(f"no rollout {job_id[:64]!r}")
        job.pop("cancel")
        job.pop("heartbeat")
        return job

    @app.delete("/rollouts/{job_id}", tags=["rollouts"],
                responses={403: {"model": ErrorMessage}, 404: {"model": ErrorMessage}})
    def cancel_rollout(job_id: str, request: Request,
                       authorization: Optional[str] = Header(None)) -> Any:
        """Cancels the job: a queued one at once (its place is free), a running
        one within a quarter of a second.  Only its holder may: the ``token``
        given when it was created (``Authorization: Bearer TOKEN``), or the
        client address that created it (403 for anyone else)."""
        holder = store.job_holder(job_id) if _valid_id(job_id) else None
        if holder is None:
            raise NotFound(f"no rollout {job_id[:64]!r}")
        client, token_hash = holder
        given = authorization[len("Bearer "):].strip() if authorization and \
            authorization.startswith("Bearer ") else None
        by_token = token_hash is not None and given is not None and hmac.compare_digest(
            token_hash, hashlib.sha256(given.encode()).hexdigest())
        if not by_token and client is not None and client != request.state.client:
            raise Forbidden("only the client that started this job, or its token "
                            "(Authorization: Bearer TOKEN), may cancel it")
        store.cancel_job(job_id)
        queue.cancel(job_id)
        return get_rollout(job_id)

    # ------------------------------------------------------------ analysis

    @app.post("/analyse", tags=["analysis"],
              responses={**errors, 413: {"model": ErrorMessage}, 429: {"model": ErrorMessage},
                         503: {"model": ErrorMessage}, 504: {"model": ErrorMessage}})
    async def analyse_upload(request: Request,
                             file: UploadFile = File(..., description="a .mat or .sgf record"),
                             ply: int = Query(0, ge=0, le=1),
                             format: Literal["json", "html"] = Query("json"),
                             x_requested_with: Optional[str] = Header(
                                 None, max_length=100,
                                 description="required, any value: an upload must not be a "
                                             "CORS-simple request")) -> Any:
        """The analysis of an uploaded match (:class:`~backgammon.Analysis`), as
        JSON or as the self-contained HTML report.  The request needs an
        ``X-Requested-With`` header (any value), so that other sites' pages
        cannot make their visitors' browsers upload.  It runs in a child
        process, stopped after ``Limits.analysis_seconds`` (504) or as soon as
        the client goes; its wall time counts against the client's CPU budget."""
        if not x_requested_with:
            return error(400, "BadRequest", "an upload needs the header X-Requested-With "
                                            "(any value), e.g. X-Requested-With: backgammon")
        data = await file.read(MAX_UPLOAD + 1)
        if len(data) > MAX_UPLOAD:
            return error(413, "PayloadTooLarge", f"an upload is limited to {MAX_UPLOAD:,} bytes")
        if not analyses.acquire(blocking=False):
            response = error(503, "Busy", f"{MAX_ANALYSES} analyses are running: try later")
            response.headers["Retry-After"] = "10"
            return response
        began = time.monotonic()
        try:
            outcome = await _analyse_in_child(request, data, file.filename or "", ply, format,
                                              limits.analysis_seconds)
        finally:
            analyses.release()
            cpu.take(request.state.client, time.monotonic() - began)
        if outcome is None:   # the client went away: nobody to answer
            return Response(status_code=499)
        if outcome[0] == "timeout":
            return error(504, "AnalysisTimeout", f"the analysis took more than "
                         f"{limits.analysis_seconds:g} s and was stopped: upload a shorter match "
                         "or analyse at ply 0")
        if outcome[0] == "error":
            return error(400, outcome[1], outcome[2])
        if outcome[0] != "ok":
            log.error("an analysis failed: %s", outcome[1])
            return error(500, "InternalError", "internal server error (logged on the server)")
        if format == "html":
            return HTMLResponse(outcome[1])
        return JSONResponse(outcome[1])

    # ------------------------------------------------------------ the page

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def page() -> Any:
        return HTMLResponse(_static("index.html"), headers=PAGE_HEADERS)

    @app.get("/client.js", include_in_schema=False)
    def client_js() -> Any:
        return Response(_static("client.js"), media_type="text/javascript",
                        headers=PAGE_HEADERS)

    @app.get("/favicon.svg", include_in_schema=False)
    def favicon_svg() -> Any:
        return Response(_static("favicon.svg"), media_type="image/svg+xml",
                        headers={**PAGE_HEADERS, "Cache-Control": "public, max-age=86400"})

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon_ico() -> Any:   # browsers ask for it: the page links the SVG
        return Response(status_code=204, headers={"Cache-Control": "public, max-age=86400"})

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
        return {"status": "ok" if db["writes"] else "degraded", "version": _version(),
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

    def openapi() -> dict[str, Any]:
        """FastAPI's schema, with the errors this server really sends: every
        error is ``ErrorMessage`` (never FastAPI's 422 ``HTTPValidationError``)."""
        if app.openapi_schema is None:
            from fastapi.openapi.utils import get_openapi
            schema = get_openapi(title=app.title, version=app.version,
                                 description=app.description, routes=app.routes)
            _declare_errors(schema)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return _Guard(_Cors(_Limits(app), cors), limits, cpu)


# ---------------------------------------------------------------- helpers

_ERRORS = {
    400: "a bad request: a parameter, the body or an action refused (`error` names why)",
    403: "the token does not hold the seat that must act",
    404: "no such game, job or route",
    405: "the method is not one of the route's (see the Allow header)",
    408: "the request body did not arrive in time",
    409: "the game moved on (the body's `seq` is the game's now)",
    413: "the request body is too large",
    414: "the path or the query string is too long",
    429: "this client is over a budget: try again after Retry-After seconds",
    500: "a bug (logged on the server); the message says no more",
    503: "busy, or the database is away: try again after Retry-After seconds",
    504: "the work took longer than its limit and was stopped",
}


def _declare_errors(schema: dict[str, Any]) -> None:
    """Replace FastAPI's 422 in every operation of ``schema`` by the errors the
    server sends, each an ``ErrorMessage`` (``Retry-After`` on 429 and 503)."""
    ref = {"$ref": "#/components/schemas/ErrorMessage"}
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components.pop("HTTPValidationError", None)
    components.pop("ValidationError", None)
    components["ErrorMessage"] = {
        "title": "ErrorMessage", "type": "object", "required": ["error", "message"],
        "properties": {"error": {"type": "string", "title": "Error"},
                       "message": {"type": "string", "title": "Message"}}}
    retry = {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}}
    for path, operations in schema.get("paths", {}).items():
        for method, op in operations.items():
            responses = op.setdefault("responses", {})
            responses.pop("422", None)
            codes = {405, 414, 500, 503}
            if path not in FREE_PATHS:
                codes.add(429)
            if op.get("parameters") or op.get("requestBody"):
                codes.add(400)
            if op.get("requestBody"):
                codes |= {408, 413}
            if "{" in path:
                codes.add(404)
            codes |= {int(c) for c in responses if c.isdigit() and int(c) >= 400}
            for code in sorted(codes):
                entry = responses.setdefault(str(code), {})
                entry["description"] = entry.get("description") if entry.get(
                    "description") not in (None, "", "Error") else _ERRORS.get(code, "an error")
                entry["content"] = {"application/json": {"schema": ref}}
                if code in (429, 503):
                    entry["headers"] = retry
                if code == 405:
                    entry["headers"] = {"Allow": {"description": "the route's methods",
                                                  "schema": {"type": "string"}}}


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


_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def _json_int(value: Any) -> Any:
    """An integer of a JSON body: an int, or a float with no fraction (JSON Schema's
    ``integer``); a boolean or a string is refused."""
    if isinstance(value, bool) or isinstance(value, str):
        raise ValueError("Input should be a valid integer")
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**63:
        return int(value)
    return value


def _valid_id(text: str) -> bool:
    """Whether ``text`` may be an id of ours (up to 64 URL-safe characters): anything
    else (a NUL byte, say, which PostgreSQL refuses) is no game or job at all."""
    return 0 < len(text) <= 64 and _ID_CHARS.issuperset(text)


def _game_id(text: str) -> str:
    if not _valid_id(text):
        raise NotFound(f"no game {text[:20]!r}" + ("..." if len(text) > 20 else ""))
    return text


async def _ws_busy(websocket: Any, reason: str, seconds: int = 5) -> None:
    """Accept and close at once with 1013 ("try again later"): refused before the
    handshake, a browser would see only an HTTP 403.  The reason carries
    the seconds to wait, as ``Retry-After`` would."""
    await websocket.accept()
    await websocket.close(code=1013, reason=f"{reason} (retry after {seconds} s)"[:120])


class _JobQueue:
    """This process's rollout jobs, queued or running, and whose they are: at most
    ``per_client`` per client address and ``MAX_JOBS_QUEUED`` waiting; a job
    cancelled while it waits leaves at once.

    >>> q = _JobQueue(1)
    >>> q.admit("j1", "10.0.0.1"), q.admit("j2", "10.0.0.1"), q.admit("j3", "10.0.0.2")
    (None, 'client', None)
    """

    def __init__(self, per_client: int) -> None:
        self.per_client = per_client
        self._jobs: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()

    def admit(self, job_id: str, client: str) -> str | None:
        """None (a place is held for ``job_id``), or why not: "client" or "full"."""
        with self._lock:
            if sum(j["client"] == client for j in self._jobs.values()) >= self.per_client:
                return "client"
            if sum(not j["started"] for j in self._jobs.values()) >= MAX_JOBS_QUEUED:
                return "full"
            self._jobs[job_id] = {"client": client, "started": False, "future": None}
            return None

    def attach(self, job_id: str, future: Any) -> None:
        with self._lock:
            if job_id in self._jobs:
                self._jobs[job_id]["future"] = future

    def release(self, job_id: str) -> None:
        with self._lock:
            self._jobs.pop(job_id, None)

    def cancel(self, job_id: str) -> bool:
        """Drop a job of this process that has not started; whether it did."""
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None or job["started"] or job["future"] is None \
                    or not job["future"].cancel():
                return False
            del self._jobs[job_id]
            return True

    def drop_cancelled(self, store: Any) -> int:
        """Drop the waiting jobs cancelled through another process; how many."""
        with self._lock:
            waiting = [j for j, job in self._jobs.items() if not job["started"]]
        gone = 0
        for job_id in waiting:
            job = store.job(job_id)
            if (job is None or job["cancel"]) and self.cancel(job_id):
                gone += 1
        return gone

    def run(self, job_id: str, fn: Any, *args: Any) -> None:
        """``fn(*args)`` as the job (in the jobs' thread), its place freed at the end."""
        try:
            with self._lock:
                if job_id not in self._jobs:
                    return
                self._jobs[job_id]["started"] = True
            fn(*args)
        finally:
            self.release(job_id)


async def _drain(websocket: Any) -> None:
    """Reads (and ignores) what a client sends, until it goes away."""
    from starlette.websockets import WebSocketDisconnect
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
    except (WebSocketDisconnect, RuntimeError):
        return


def _static(name: str) -> str:
    return resources.files("backgammon.server").joinpath("static").joinpath(name).read_text("utf-8")


def _turn(service: GameService, game_id: str, seat: int, steps_text: str,
          size: int = 540) -> dict[str, Any]:
    from backgammon.errors import IllegalPlayError
    from backgammon.game import Phase
    from backgammon.position import Position
    from backgammon.display.svg import board
    state = service.state(game_id)
    live, _ = service._live(game_id)
    with live.lock:
        game = live.game
        pos = game.board(seat)
        mine = game.turn == seat and game.phase is Phase.MOVE
        steps: list[tuple[int, int]] = []
        if steps_text.strip():
            if not mine:
                raise IllegalPlayError(f"player {seat} has no dice to move")
            assert game.dice is not None  # the move phase always has its dice
            for token in steps_text.split()[:8]:
                src, _, dst = token.partition("/")
                if not (src.isascii() and src.isdigit() and dst.isascii() and dst.isdigit()
                        and len(src) <= 2 and len(dst) <= 2):
                    raise IllegalPlayError(f"a step is FROM/TO in numbers (25 bar, 0 off), "
                                           f"got {token[:20]!r}")
                step = (int(src), int(dst))
                if list(step) not in [list(m) for m in pos.legal_moves(game.dice, steps)]:
                    raise IllegalPlayError(f"{token} is not a legal step now")
                steps.append(step)
        legal: list[list[int]] = []
        if mine:
            assert game.dice is not None  # the move phase always has its dice
            legal = [list(s) for s in pos.legal_moves(game.dice, steps)]
        current = _after_steps(pos, steps)
        cube = (game.cube, None if game.cube_owner is None else (0 if game.cube_owner == seat else 1))
        dice = game.dice if game.dice is not None and game.turn == seat else None
        svg = board(current, dice=dice, cube=cube, size=size,
                    orientation="right").svg
        return {"seq": state["seq"], "seat": seat, "steps": [list(s) for s in steps],
                "legal_moves": legal, "complete": mine and not legal, "svg": svg,
                "position_id": Position.position_id(current)}


def _after_steps(pos: Any, steps: list[tuple[int, int]]) -> Any:
    """The board after some single steps (each checked by ``legal_moves``)."""
    from backgammon.position import Position
    board = pos.tolist()
    for src, dst in steps:
        board[src] -= 1
        if dst:
            if board[dst] == -1:
                board[dst] = 0
                board[0] -= 1
            board[dst] += 1
    return Position(board)


class _Cancelled(Exception):
    pass


def _run_rollout(store: Any, job_id: str, request: dict[str, Any]) -> None:
    from backgammon.rollout import rollout
    job = store.job(job_id)
    if job is None or job["cancel"]:
        return
    store.update_job(job_id, status="running")
    last = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] >= 0.25 or done >= total:
            last[0] = now
            store.update_job(job_id, done=done, heartbeat=time.time())
            if store.job(job_id)["cancel"]:
                raise _Cancelled

    try:
        result = rollout(request["position"], games=request["games"], seed=request["seed"],
                         policy=request["policy"], cube=request["cube"],
                         variance_reduction=request["variance_reduction"],
                         truncate=request["truncate"], progress=progress)
        store.update_job(job_id, status="done", done=result.games, result=result.to_dict())
    except _Cancelled:
        store.update_job(job_id, status="cancelled")
    except BackgammonError as exc:
        store.update_job(job_id, status="failed", message=str(exc)[:500])
    except Exception:  # a bug: logged, the job says so
        log.exception("rollout %s failed", job_id)
        store.update_job(job_id, status="failed", message="internal error (logged on the server)")


def _analyse(data: bytes, filename: str, ply: int) -> Any:
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


def _analysis_child(conn: Any, data: bytes, filename: str, ply: int, fmt: str,
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


async def _analyse_in_child(request: Any, data: bytes, filename: str, ply: int, fmt: str,
                            seconds: float) -> tuple[Any, ...] | None:
    """Run :func:`_analysis_child` in a new process; its outcome, ``("timeout",)``
    after ``seconds``, or None as soon as the client has gone (the child is killed
    in both cases: no work goes on for nobody)."""
    import multiprocessing
    context = multiprocessing.get_context("spawn")
    mine, theirs = context.Pipe(duplex=False)
    child = context.Process(target=_analysis_child, args=(theirs, data, filename, ply, fmt, os.getpid()),
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
