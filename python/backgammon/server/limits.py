"""What one client may take of the server: per-client budgets keyed by the
client's address, and the connection guard that bounds half-sent requests.

:class:`Limits` holds every knob (defaults for a public game site on a small
machine); ``Limits.from_env()`` reads ``BACKGAMMON_LIMIT_<NAME>`` variables
(``backgammon serve`` passes them to its workers), and ``create_app(...,
limits=Limits(...))`` takes them from Python.  A client over a budget gets
429 ``TooManyRequests`` with ``Retry-After`` (a WebSocket: close code 1013,
"try again later", with the seconds in the close reason).

    >>> Limits(requests_per_minute=120).requests_per_minute
    120
    >>> client_address(("10.0.0.9", 5000), [(b"x-forwarded-for", b"1.2.3.4")], ())
    '10.0.0.9'
    >>> client_address(("10.0.0.9", 5000), [(b"x-forwarded-for", b"1.2.3.4")],
    ...                parse_networks("10.0.0.0/8"))
    '1.2.3.4'
"""

from __future__ import annotations

import dataclasses
import ipaddress
import math
import os
import threading
import time
from collections import defaultdict
from typing import Any, Iterable, Mapping, Sequence

__all__ = ["Limits", "Buckets", "client_address", "parse_networks", "guarded_protocol"]

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclasses.dataclass(frozen=True)
class Limits:
    """Per-client budgets (a client is an address: see :func:`client_address`).

    Each is per server process (``--workers N`` gives a client N times as
    much), except ``games_per_minute``, which is counted in the database.

    >>> Limits.from_env({"BACKGAMMON_LIMIT_SOCKETS": "4"}).sockets
    4
    """

    #: new games a minute (a burst of as many, then evenly), counted in the database
    #: across every worker
    games_per_minute: int = 60
    #: HTTP requests a minute (a burst of as many, then evenly); /health and /ready are free
    requests_per_minute: int = 600
    #: HTTP requests of one client being answered at once
    concurrent_requests: int = 8
    #: open TCP connections of one client (a browser opens 6 or so)
    connections: int = 32
    #: seconds a connection may take to send a request's headers (and may stay idle between)
    header_timeout: float = 10.0
    #: seconds a request may take to send its body
    body_timeout: float = 30.0
    #: open WebSockets of one client
    sockets: int = 16
    #: rollout jobs of one client queued or running at once
    jobs: int = 2
    #: CPU seconds of request handling (engine work above all) a client may use a
    #: minute, as a burst of as many; an analysis counts its wall time
    cpu_seconds_per_minute: float = 30.0
    #: seconds an analysis may run before it is stopped (504)
    analysis_seconds: float = 120.0
    #: engine requests at ply 1 or 2 computed at once by a process, all clients together
    #: (503 ``Busy`` beyond): deep searches never take every thread from games and probes
    deep_searches: int = 2
    #: addresses or networks of reverse proxies whose X-Forwarded-For is believed
    trusted_proxies: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "trusted_proxies":
                parse_networks(value)   # refuses a bad address now
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not (value > 0 and math.isfinite(value)):
                raise ValueError(f"Limits.{f.name} is a positive number, got {value!r}")

    @property
    def proxies(self) -> tuple[Network, ...]:
        return parse_networks(self.trusted_proxies)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> "Limits":
        """The defaults, changed by ``BACKGAMMON_LIMIT_<FIELD>`` variables
        (``BACKGAMMON_LIMIT_TRUSTED_PROXIES``: comma-separated addresses or networks).

        >>> Limits.from_env({"BACKGAMMON_LIMIT_TRUSTED_PROXIES": "127.0.0.1, ::1"}).trusted_proxies
        ('127.0.0.1', '::1')
        """
        environ = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            text = environ.get("BACKGAMMON_LIMIT_" + f.name.upper())
            if text is None:
                continue
            if f.name == "trusted_proxies":
                values[f.name] = tuple(p.strip() for p in text.split(",") if p.strip())
                continue
            kind = int if isinstance(f.default, int) else float
            try:
                values[f.name] = kind(text)
            except ValueError:
                raise ValueError(f"BACKGAMMON_LIMIT_{f.name.upper()} is a number, "
                                 f"got {text[:40]!r}") from None
        return cls(**values)

    def to_env(self) -> dict[str, str]:
        """The variables :meth:`from_env` reads back into these limits."""
        out = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out["BACKGAMMON_LIMIT_" + f.name.upper()] = (",".join(value) if isinstance(value, tuple)
                                                         else repr(value))
        return out


def parse_networks(items: str | Iterable[str]) -> tuple[Network, ...]:
    """Addresses or networks (``10.0.0.0/8``, ``::1``), checked.

    >>> parse_networks("127.0.0.1")
    (IPv4Network('127.0.0.1/32'),)
    """
    if isinstance(items, str):
        items = [p for p in items.split(",")]
    out = []
    for item in items:
        item = item.strip()
        if not item:
            continue
        try:
            out.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ValueError(f"a trusted proxy is an IP address or network, got {item[:60]!r}") \
                from None
    return tuple(out)


def _trusted(host: str, proxies: Sequence[Network]) -> bool:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(address in net for net in proxies)


def client_address(peer: tuple[str, int] | Sequence[Any] | None,
                   headers: Iterable[tuple[bytes, bytes]], proxies: Sequence[Network]) -> str:
    """The address a request is counted against: the connection's peer, or,
    when the peer is a trusted proxy, the last address in ``X-Forwarded-For``
    that is not itself a trusted proxy (what a proxy appends cannot be forged
    by the client; what the client sent comes before it)."""
    host = str(peer[0]) if peer else "-"
    if not proxies or not _trusted(host, proxies):
        return host[:100]
    hops: list[str] = []
    for name, value in headers:
        if name == b"x-forwarded-for":
            hops.extend(h.strip() for h in value.decode("latin-1").split(","))
    for hop in reversed(hops):
        if not hop:
            continue
        if not _trusted(hop, proxies):
            try:
                return str(ipaddress.ip_address(hop))
            except ValueError:  # garbage from a client behind the proxy: count it as the proxy
                return host[:100]
        host = hop
    return host[:100]


class Buckets:
    """Token buckets per key in this process: ``capacity`` at once, refilled at
    ``capacity`` a minute.  :meth:`take` takes ``cost`` (possibly more than is
    left: the balance goes negative and the key waits for it to refill).

    >>> b = Buckets(60.0)
    >>> b.wait("a", now=0.0), b.take("a", 61.0, now=0.0), b.wait("a", now=0.0)
    (0.0, None, 2.0)
    """

    def __init__(self, capacity: float) -> None:
        self.capacity = float(capacity)
        self.rate = self.capacity / 60.0
        self._state: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def _level(self, key: str, now: float) -> float:
        tokens, stamp = self._state.get(key, (self.capacity, now))
        return min(self.capacity, tokens + max(0.0, now - stamp) * self.rate)

    def wait(self, key: str, need: float = 1.0, now: float | None = None) -> float:
        """Seconds until ``key`` has ``need`` tokens (0.0: now); takes nothing."""
        now = time.monotonic() if now is None else now
        with self._lock:
            level = self._level(key, now)
        return 0.0 if level >= need else (need - level) / self.rate

    def take(self, key: str, cost: float = 1.0, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        with self._lock:
            self._state[key] = (self._level(key, now) - cost, now)
            if len(self._state) > 4096:  # forget the full ones (the same as absent)
                for k in [k for k, (t, s) in self._state.items()
                          if t + (now - s) * self.rate >= self.capacity]:
                    del self._state[k]

    def acquire(self, key: str, cost: float = 1.0, now: float | None = None) -> float:
        """Take ``cost`` if there is as much: 0.0; else the seconds to wait (nothing taken)."""
        now = time.monotonic() if now is None else now
        with self._lock:
            level = self._level(key, now)
            if level < cost:
                return (cost - level) / self.rate
            self._state[key] = (level - cost, now)
            return 0.0


class Counts:
    """How many of something each key holds now (requests in flight, sockets, jobs).

    >>> c = Counts()
    >>> c.enter("a", 1), c.enter("a", 1), c.held("a")
    (True, False, 1)
    """

    def __init__(self) -> None:
        self._n: dict[str, int] = defaultdict(int)
        self._lock = threading.Lock()

    def enter(self, key: str, limit: int) -> bool:
        with self._lock:
            if self._n[key] >= limit:
                return False
            self._n[key] += 1
            return True

    def leave(self, key: str) -> None:
        with self._lock:
            self._n[key] -= 1
            if self._n[key] <= 0:
                del self._n[key]

    def held(self, key: str) -> int:
        with self._lock:
            return self._n.get(key, 0)


def retry_after(seconds: float) -> str:
    """``Retry-After`` in whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)))


# ---------------------------------------------------------------- the connection guard

_connections = Counts()   # open connections per peer address, in this process


def guarded_protocol(base: type) -> type:
    """``base`` (one of uvicorn's HTTP protocols) with two bounds uvicorn lacks:
    a connection must send each request's headers within
    ``Limits.header_timeout`` seconds of opening or of its last response (else
    it is closed: a half-sent request holds nothing for long), and a peer may
    hold ``Limits.connections`` connections (more are answered 429 and closed).
    The limits come from the environment (:meth:`Limits.from_env`), as uvicorn
    builds protocols by name in each worker."""

    limits = Limits.from_env()

    class Guarded(base):  # type: ignore[misc]
        _guard_timer: Any = None
        _guard_peer: str | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            peer = self.client[0] if getattr(self, "client", None) else "-"
            if not _connections.enter(peer, limits.connections):
                body = (b'{"error": "TooManyRequests", "message": "too many connections from '
                        b'this address: close some and try again"}')
                transport.write(b"HTTP/1.1 429 Too Many Requests\r\nretry-after: 5\r\n"
                                b"content-type: application/json\r\nconnection: close\r\n"
                                b"content-length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
                transport.close()
                return
            self._guard_peer = peer
            self._guard_arm()

        def _guard_arm(self) -> None:
            if self._guard_timer is not None:
                self._guard_timer.cancel()
            self._guard_timer = self.loop.call_later(limits.header_timeout, self._guard_expire)

        def _guard_expire(self) -> None:
            self._guard_timer = None
            if self.transport.is_closing() or self.transport.get_protocol() is not self:
                return   # closed, or upgraded to a WebSocket (its own pings keep it)
            cycle = getattr(self, "cycle", None)
            if cycle is None or cycle.response_complete:  # no request being answered
                self.transport.close()

        def send_400_response(self, msg: str) -> None:
            """uvicorn's answer to a request it cannot parse, as our JSON error."""
            import json
            body = json.dumps({"error": "BadRequest",
                               "message": f"malformed HTTP request: {msg}"[:200]}).encode()
            self.transport.write(b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n"
                                 b"connection: close\r\ncontent-length: "
                                 + str(len(body)).encode() + b"\r\n\r\n" + body)
            self.transport.close()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._guard_arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._guard_timer is not None:
                self._guard_timer.cancel()
                self._guard_timer = None
            if self._guard_peer is not None:
                _connections.leave(self._guard_peer)
                self._guard_peer = None
            super().connection_lost(exc)

    Guarded.__name__ = Guarded.__qualname__ = "Guarded" + base.__name__
    return Guarded
