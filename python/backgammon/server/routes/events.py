"""The WebSocket of a game's events (``/games/{id}/events``) and this process's
sockets (:class:`GameEvents`): woken at once by an action committed here, polled
for those of other workers; bounded per client, per game and per process."""

import asyncio
from typing import Any, Optional

from fastapi import FastAPI, WebSocket
from starlette.websockets import WebSocketDisconnect

from backgammon.server import app as bounds   # the MAX_* bounds, read at each connection
from backgammon.server.games import GameService
from backgammon.server.limits import Counts, Limits
from backgammon.server.middleware import note_refusal
from backgammon.server.routes import valid_id
from backgammon.server.store import Store

__all__ = ["GameEvents", "add_routes"]


class GameEvents:
    """This process's WebSockets of games: an event for each, by game, to wake it
    when an action is committed (:meth:`notify`); their number, and per client."""

    def __init__(self) -> None:
        self.sockets: dict[str, set[asyncio.Event]] = {}   # owned by the event loop's thread
        self.count = 0
        self.per_client = Counts()   # open WebSockets per client address
        self.loop: Optional[asyncio.AbstractEventLoop] = None   # the app's, once it runs

    def notify(self, game_id: str) -> None:
        """Wake this process's WebSockets of a game (called from worker threads)."""
        loop = self.loop
        if loop is not None:
            loop.call_soon_threadsafe(self._wake, game_id)

    def _wake(self, game_id: str) -> None:  # in the event loop's thread, which owns ``sockets``
        for event in self.sockets.get(game_id, ()):
            event.set()


def add_routes(app: FastAPI, hub: GameEvents, store: Store, service: GameService,
               limits: Limits) -> None:
    """The WebSocket route ``/games/{game_id}/events`` on ``app``."""
    sockets = hub.sockets

    @app.websocket("/games/{game_id}/events")
    async def events(websocket: WebSocket, game_id: str) -> None:
        """Every change of the game: first ``{"type": "state", "state"}``, then for
        each committed request ``{"type": "actions", "entries", "state"}``."""
        gid = game_id[:64]
        who = websocket.scope.get("state", {}).get("client", "-")
        if not hub.per_client.enter(who, limits.sockets):
            note_refusal(who, "WebSockets")
            await _ws_busy(websocket, f"{limits.sockets} WebSockets per client: close one "
                                      "and try again")
            return
        try:
            await _ws_game(websocket, gid, who)
        finally:
            hub.per_client.leave(who)

    async def _ws_game(websocket: WebSocket, gid: str, who: str) -> None:
        seq = None if not valid_id(gid) else await asyncio.to_thread(store.seq, gid)
        if seq is None:
            await websocket.close(code=4404)
            return
        mine = sockets.get(gid, set())
        if hub.count >= bounds.MAX_SOCKETS or len(mine) >= bounds.MAX_SOCKETS_PER_GAME:
            await _ws_busy(websocket, "this server (or game) has as many WebSockets as it "
                                      "takes: try again later")
            return
        sockets[gid] = mine
        event = asyncio.Event()
        mine.add(event)
        hub.count += 1
        try:
            await websocket.accept()
            state = await asyncio.to_thread(service.state, gid)
            last = state["seq"]
            await websocket.send_json({"type": "state", "state": state})
            reader = asyncio.ensure_future(_drain(websocket))
            while not reader.done():
                event.clear()
                waiter = asyncio.ensure_future(event.wait())
                await asyncio.wait({reader, waiter}, timeout=bounds.POLL_SECONDS,
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
            hub.count -= 1


async def _ws_busy(websocket: Any, reason: str, seconds: int = 5) -> None:
    """Accept and close at once with 1013 ("try again later"): refused before the
    handshake, a browser would see only an HTTP 403.  The reason carries
    the seconds to wait, as ``Retry-After`` would."""
    await websocket.accept()
    await websocket.close(code=1013, reason=f"{reason} (retry after {seconds} s)"[:120])


async def _drain(websocket: Any) -> None:
    """Reads (and ignores) what a client sends, until it goes away."""
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
    except (WebSocketDisconnect, RuntimeError):
        return
