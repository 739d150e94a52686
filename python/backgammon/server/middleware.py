"""The pure ASGI layers around the app: the bounds of a request (path, query
string, body size), CORS on the engine routes, and each client's budgets
(:class:`Guard`).  They answer before any handler runs, each refusal a JSON
``{"error", "message"}`` body like the app's own."""

import asyncio
import contextvars
import functools
import json
import logging
import threading
import time
from typing import TYPE_CHECKING, Any

from backgammon.server import app as bounds   # the MAX_* bounds, read at each request
from backgammon.server.limits import Buckets, Counts, Limits, client_address, retry_after

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["ENGINE_PATHS", "FREE_PATHS", "Cors", "Guard", "RequestBounds", "metered",
           "note_refusal"]

log = logging.getLogger("backgammon.server")


# ---------------------------------------------------------------- bounds

class RequestBounds:
    """Refuses an oversized query string (414) or body (413) before any handler runs."""

    def __init__(self, app: "ASGIApp") -> None:
        self.app = app

    async def __call__(self, scope: "Scope", receive: "Receive", send: "Send") -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        if len(scope.get("path", "")) > bounds.MAX_PATH:
            return await _refuse(scope, send, 414, "URITooLong",
                                 f"the path is limited to {bounds.MAX_PATH} bytes")
        if len(scope.get("query_string", b"")) > bounds.MAX_QUERY:
            return await _refuse(scope, send, 414, "URITooLong",
                                 f"the query string is limited to {bounds.MAX_QUERY} bytes")
        if scope["type"] == "websocket":
            return await self.app(scope, receive, send)
        limit = bounds.MAX_UPLOAD if scope.get("path") == "/analyse" else bounds.MAX_BODY
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


class Cors:
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


def metered(fn: Any) -> Any:
    """``fn`` (a sync route handler, run in a worker thread) adding the CPU time
    of its thread to the request's meter, which :class:`Guard` charges to the
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


def note_refusal(who: str, budget: str) -> None:
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


class Guard:
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
            note_refusal(who, "requests a minute")
            message = await receive()
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.accept"})
                await send({"type": "websocket.close", "code": 1013,
                            "reason": f"too many requests (retry after {retry_after(wait)} s)"})
            return
        if scope["type"] == "websocket":
            return await self.app(scope, receive, send)
        if wait:
            note_refusal(who, "requests a minute")
            return await _refuse(scope, send, 429, "TooManyRequests",
                                 f"{self.limits.requests_per_minute} requests a minute per client: "
                                 f"try again in {retry_after(wait)} s", retry=wait)
        wait = self.cpu.wait(who, 0.0)   # any budget left: the request runs, then pays
        if wait:
            note_refusal(who, "CPU seconds a minute")
            return await _refuse(scope, send, 429, "TooManyRequests",
                                 f"this client used its {self.limits.cpu_seconds_per_minute:g} "
                                 f"CPU seconds a minute: try again in {retry_after(wait)} s",
                                 retry=wait)
        if not self.inflight.enter(who, self.limits.concurrent_requests):
            note_refusal(who, "requests at once")
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
