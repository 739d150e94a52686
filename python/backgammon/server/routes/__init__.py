"""The app's routes, a module for each group; each module's ``add_routes(app, ...)``
registers its group.  Here: the ids in their paths, checked."""

from backgammon.server.games import NotFound

__all__ = ["checked_game_id", "valid_id"]

_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def valid_id(text: str) -> bool:
    """Whether ``text`` may be an id of ours (up to 64 URL-safe characters): anything
    else (a NUL byte, say, which PostgreSQL refuses) is no game or job at all."""
    return 0 < len(text) <= 64 and _ID_CHARS.issuperset(text)


def checked_game_id(text: str) -> str:
    """``text``, a game id that may exist; else :class:`NotFound`."""
    if not valid_id(text):
        raise NotFound(f"no game {text[:20]!r}" + ("..." if len(text) > 20 else ""))
    return text
