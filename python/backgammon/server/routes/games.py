"""The game routes: create a game, read its state and journal, act in it, export
it, and the board of a seat (SVG, and click-to-move's next steps)."""

from typing import Any, Callable, Literal, Optional

from fastapi import FastAPI, Header, Query, Request
from fastapi.responses import Response

from backgammon.server.errors import error
from backgammon.server.games import MAX_JOURNAL, GameService, NotFound
from backgammon.server.models import ActionModel, Created, ErrorMessage, GameCreate
from backgammon.server.routes import checked_game_id
from backgammon.server.store import Store

__all__ = ["add_routes"]


def add_routes(app: FastAPI, store: Store, service: GameService,
               notify: Callable[[str], None]) -> None:
    """The ``/games`` routes on ``app``; ``notify(game_id)`` after each action."""

    @app.post("/games", response_model=Created, status_code=201, tags=["games"],
              responses={429: {"model": ErrorMessage}})
    def create_game(body: GameCreate, request: Request) -> Any:
        """A new game: two seats with secret tokens (no token for a bot's seat).
        A client address may create ``Limits.games_per_minute`` games at once,
        then evenly (429 with ``Retry-After`` beyond), counted in the database
        across every worker."""
        address = request.state.client   # the proxy's client only from a trusted proxy
        per_minute = request.app.state.limits.games_per_minute
        wait = store.take_token("games:" + address[:100], per_minute)
        if wait:
            seconds = max(1, int(wait + 0.999))
            response = error(429, "TooManyRequests",
                             f"{per_minute} new games a minute per client: "
                             f"try again in {seconds} s")
            response.headers["Retry-After"] = str(seconds)
            return response
        return service.create(body.model_dump())

    @app.get("/games/{game_id}", tags=["games"])
    def get_game(game_id: str) -> Any:
        """The full state: seq, phase, the player to act and their legal actions,
        dice, cube, score, IDs and ``board`` (26 integers seen by the player to act)."""
        return service.state(checked_game_id(game_id))

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
        state = service.act(checked_game_id(game_id), token, request, idempotency_key)
        notify(game_id)
        return state

    @app.get("/games/{game_id}/actions", tags=["games"])
    def get_actions(game_id: str, start: int = Query(0, ge=0, le=MAX_JOURNAL)) -> Any:
        """The journal from ``start`` on: ``{"start", "seq", "entries": [{game, player,
        kind, value}]}``; ``seq`` is the game's (a ``start`` beyond it gives no entries)."""
        gid = checked_game_id(game_id)
        seq = store.seq(gid)
        if seq is None:
            raise NotFound(f"no game {gid!r}")
        entries = service.entries(gid, start) if start < seq else []
        return {"start": start, "seq": start + len(entries) if entries else seq,
                "entries": entries}

    @app.get("/games/{game_id}/export", tags=["games"])
    def export(game_id: str, format: Literal["mat", "sgf", "json"] = Query("json")) -> Any:
        text = service.export(checked_game_id(game_id), format)
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
        return service.turn(checked_game_id(game_id), seat, steps)

    @app.get("/games/{game_id}/board.svg", tags=["games"])
    def board_svg(game_id: str, seat: int = Query(0, ge=0, le=1),
                  size: int = Query(540, ge=100, le=2000)) -> Any:
        """The board seen by ``seat`` (from :mod:`backgammon.display.svg`)."""
        return Response(service.turn(checked_game_id(game_id), seat, "", size)["svg"],
                        media_type="image/svg+xml")
