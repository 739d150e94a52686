"""uvicorn's HTTP protocol with the connection guard of
:func:`backgammon.server.limits.guarded_protocol` (uvicorn imports protocols
by name in each worker: ``http="backgammon.server._protocol:GuardedHTTPProtocol"``).

    >>> from backgammon.server._protocol import GuardedHTTPProtocol   # doctest: +SKIP
"""

from uvicorn.protocols.http.auto import AutoHTTPProtocol

from backgammon.server.limits import guarded_protocol

__all__ = ["GuardedHTTPProtocol"]

GuardedHTTPProtocol = guarded_protocol(AutoHTTPProtocol)
