"""The analysis route: ``POST /analyse``, a ``.mat`` or SGF upload analysed in a
child process (:mod:`backgammon.server.analysis_process`), as JSON or HTML."""

import logging
import threading
import time
from typing import Any, Literal, Optional

from fastapi import FastAPI, File, Header, Query, Request, UploadFile
from fastapi.responses import HTMLResponse, JSONResponse, Response

from backgammon.server import app as bounds   # the MAX_* bounds, read at each request
from backgammon.server.analysis_process import analyse_in_child
from backgammon.server.errors import error
from backgammon.server.limits import Buckets, Limits
from backgammon.server.models import ErrorMessage

__all__ = ["add_routes"]

log = logging.getLogger("backgammon.server")


def add_routes(app: FastAPI, limits: Limits, cpu: Buckets) -> None:
    """``/analyse`` on ``app``: ``MAX_ANALYSES`` at once, each one's wall time
    charged to its client's CPU budget ``cpu``."""
    analyses = threading.BoundedSemaphore(bounds.MAX_ANALYSES)
    errors: dict[int | str, dict[str, Any]] = {400: {"model": ErrorMessage}}

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
        data = await file.read(bounds.MAX_UPLOAD + 1)
        if len(data) > bounds.MAX_UPLOAD:
            return error(413, "PayloadTooLarge",
                         f"an upload is limited to {bounds.MAX_UPLOAD:,} bytes")
        if not analyses.acquire(blocking=False):
            response = error(503, "Busy",
                             f"{bounds.MAX_ANALYSES} analyses are running: try later")
            response.headers["Retry-After"] = "10"
            return response
        began = time.monotonic()
        try:
            outcome = await analyse_in_child(request, data, file.filename or "", ply, format,
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
