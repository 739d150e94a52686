"""The page to play on, its script and icons (with their security headers), and
``/docs`` from the operator's copy of Swagger UI (``BACKGAMMON_DOCS_ASSETS``)."""

import os
from importlib import resources
from typing import Any

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, Response

from backgammon.server.app import DOCS_ASSETS
from backgammon.server.games import NotFound

__all__ = ["PAGE_HEADERS", "add_docs_routes", "add_routes"]

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


def add_docs_routes(app: FastAPI, assets: str) -> None:
    """``/docs`` with Swagger UI from the directory ``assets``, not from a CDN;
    ``/redoc`` too where ``assets`` holds ReDoc."""
    from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
    present = {n for n in DOCS_ASSETS if os.path.isfile(os.path.join(assets, n))}

    @app.get("/docs", include_in_schema=False)
    def docs() -> Any:
        return get_swagger_ui_html(openapi_url="/openapi.json", title="backgammon: API",
                                   swagger_js_url="/docs-assets/swagger-ui-bundle.js",
                                   swagger_css_url="/docs-assets/swagger-ui.css",
                                   swagger_favicon_url="/favicon.svg")

    if "redoc.standalone.js" in present:
        @app.get("/redoc", include_in_schema=False)
        def redoc() -> Any:
            return get_redoc_html(openapi_url="/openapi.json", title="backgammon: API",
                                  redoc_js_url="/docs-assets/redoc.standalone.js",
                                  redoc_favicon_url="/favicon.svg", with_google_fonts=False)

    @app.get("/docs-assets/{name}", include_in_schema=False)
    def docs_asset(name: str) -> Any:
        if name not in present:
            raise NotFound(f"no asset {name[:40]!r}")
        with open(os.path.join(assets, name), "rb") as f:
            return Response(f.read(), media_type=DOCS_ASSETS[name],
                            headers={"Cache-Control": "public, max-age=86400"})


def add_routes(app: FastAPI) -> None:
    """The page (``/``), its script and its icons on ``app``."""

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


def _static(name: str) -> str:
    return resources.files("backgammon.server").joinpath("static").joinpath(name).read_text("utf-8")
