"""The server's errors: every one a JSON body ``{"error": NAME, "message": TEXT}``
(:func:`error`), the app's handlers that answer each exception so, and the
OpenAPI schema that declares them (never FastAPI's 422 ``HTTPValidationError``)."""

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from backgammon.errors import BackgammonError
from backgammon.server.games import Forbidden, NotFound, SeqMismatch
from backgammon.server.middleware import FREE_PATHS
from backgammon.server.store import unavailable_errors

__all__ = ["Busy", "add_error_handlers", "declare_errors", "error", "use_declared_errors"]

log = logging.getLogger("backgammon.server")


class Busy(Exception):
    """The server has no place for this work now (503 ``Busy``, ``Retry-After: 1``)."""


def error(status: int, name: str, message: str, **extra: Any) -> JSONResponse:
    """The JSON answer ``{"error": name, "message": message, **extra}`` with ``status``."""
    return JSONResponse({"error": name, "message": message, **extra}, status_code=status)


def add_error_handlers(app: FastAPI) -> None:
    """Answer every exception of ``app``'s handlers with :func:`error`: ours by their
    class, a refused request 400, the database away 503, a bug 500 (logged)."""

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

    @app.exception_handler(Busy)
    async def _busy(request: Request, exc: Busy) -> JSONResponse:
        response = error(503, "Busy", str(exc))
        response.headers["Retry-After"] = "1"
        return response

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error on %s %s", request.method, request.url.path)
        return error(500, "InternalError", "internal server error (logged on the server)")


def use_declared_errors(app: FastAPI) -> None:
    """Make ``app.openapi()`` FastAPI's schema with the errors this server really
    sends (:func:`declare_errors`)."""

    def openapi() -> dict[str, Any]:
        """FastAPI's schema, with the errors this server really sends: every
        error is ``ErrorMessage`` (never FastAPI's 422 ``HTTPValidationError``)."""
        if app.openapi_schema is None:
            from fastapi.openapi.utils import get_openapi
            schema = get_openapi(title=app.title, version=app.version,
                                 description=app.description, routes=app.routes)
            declare_errors(schema)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


ERRORS = {
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


def declare_errors(schema: dict[str, Any]) -> None:
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
                    "description") not in (None, "", "Error") else ERRORS.get(code, "an error")
                entry["content"] = {"application/json": {"schema": ref}}
                if code in (429, 503):
                    entry["headers"] = retry
                if code == 405:
                    entry["headers"] = {"Allow": {"description": "the route's methods",
                                                  "schema": {"type": "string"}}}

