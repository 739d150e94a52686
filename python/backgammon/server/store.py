"""The game store: one journal of actions per game, in SQLite or PostgreSQL.

Tables (the same in both):

- ``games``: ``id``, ``spec`` (the JSON the game was created with), ``seq``
  (how many journal entries it has), ``tokens`` (JSON: seat -> SHA-256 of the
  seat's token), ``created``, ``updated`` (the last action's time: what
  :meth:`Store.purge` ages games by);
- ``actions``: ``game_id``, ``seq``, ``entry`` (JSON: game index, player,
  kind, value), ``request_key`` (the idempotency key of the request that
  wrote it), primary key ``(game_id, seq)``;
- ``jobs``: rollouts and other long work: ``id``, ``kind``, ``status``,
  ``done``, ``total``, ``request`` and ``result`` (JSON), ``cancel``, and the
  lease: ``owner`` (the server process running it) and ``heartbeat`` (when
  that process last said it is alive).  A queued or running job whose
  heartbeat is older than the lease is failed by whoever reads it
  (:meth:`Store.expire_job`): its process died, and nothing will finish it;
- ``quotas``: a token bucket per client (``key``, ``tokens``, ``stamp``), shared
  by every worker on the database (:meth:`Store.take_token`).

:meth:`Store.append` writes a request's entries and moves ``seq`` on in one
transaction, only if ``seq`` is still what the request read
(``UPDATE ... WHERE seq = ?``): of two requests racing on one game, one
commits and the other gets :class:`Conflict`, so no update is lost, whether
the requests run in one process or in several sharing the database.  The
transaction is committed before the caller acknowledges the request.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterable, Iterator
from urllib.parse import unquote, urlparse

__all__ = ["Conflict", "STALE_MESSAGE", "Store", "default_database", "open_store",
           "unavailable_errors"]

_SCHEMA = [
    """CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY, spec TEXT NOT NULL, seq INTEGER NOT NULL,
        tokens TEXT NOT NULL, created DOUBLE PRECISION NOT NULL, updated DOUBLE PRECISION)""",
    """CREATE TABLE IF NOT EXISTS actions (
        game_id TEXT NOT NULL, seq INTEGER NOT NULL, entry TEXT NOT NULL,
        request_key TEXT, PRIMARY KEY (game_id, seq))""",
    """CREATE TABLE IF NOT EXISTS jobs (
        id TEXT PRIMARY KEY, kind TEXT NOT NULL, status TEXT NOT NULL,
        done BIGINT NOT NULL, total BIGINT NOT NULL, request TEXT NOT NULL,
        result TEXT, message TEXT, cancel INTEGER NOT NULL, created DOUBLE PRECISION NOT NULL,
        owner TEXT, heartbeat DOUBLE PRECISION, client TEXT, token TEXT)""",
    """CREATE TABLE IF NOT EXISTS quotas (
        key TEXT PRIMARY KEY, tokens DOUBLE PRECISION NOT NULL,
        stamp DOUBLE PRECISION NOT NULL)""",
]

# Columns added after the first release: (table, column, type), added to older databases.
_ADDED_COLUMNS = [("jobs", "owner", "TEXT"), ("jobs", "heartbeat", "DOUBLE PRECISION"),
                  ("games", "updated", "DOUBLE PRECISION"), ("jobs", "client", "TEXT"),
                  ("jobs", "token", "TEXT")]

STALE_MESSAGE = "the server process running this job stopped: start the job again"


class Conflict(Exception):
    """Another request changed the game first (its ``seq`` moved on)."""

    def __init__(self, seq: int) -> None:
        super().__init__(f"the game moved on to seq {seq}")
        self.seq = seq


def unavailable_errors() -> tuple[type[Exception], ...]:
    """The exceptions that mean "the database is away or refuses writes" (not a
    bug): SQLite's OperationalError (read-only file, full disk, locked too
    long), psycopg's OperationalError (connection lost or refused, disk full) and
    ReadOnlySqlTransaction (a read-only server), and the pool's timeout.  The server answers them 503 with ``Retry-After``.

    >>> sqlite3.OperationalError in unavailable_errors()
    True
    """
    found: list[type[Exception]] = [sqlite3.OperationalError]
    try:
        import psycopg
        import psycopg.errors
        # a read-only server (a hot standby, default_transaction_read_only) refuses
        # writes with ReadOnlySqlTransaction, an InternalError
        found += [psycopg.OperationalError, psycopg.errors.ReadOnlySqlTransaction]
    except ImportError:
        pass
    try:
        import psycopg_pool
        found.append(psycopg_pool.PoolTimeout)
    except ImportError:
        pass
    return tuple(found)


def default_database() -> str:
    """SQLite in the user's data directory (``$XDG_DATA_HOME/backgammon``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return "sqlite:///" + os.path.join(base, "backgammon", "games.sqlite3")


def open_store(url: str | None = None) -> Store:
    """The store of a database URL: ``sqlite:///PATH``, ``sqlite://:memory:``
    (tests) or ``postgresql://...``."""
    url = url or default_database()
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStore(url)
    if url.startswith("sqlite://"):
        path = unquote(urlparse(url).path) if url.startswith("sqlite:///") else url[len("sqlite://"):]
        return SqliteStore(path or ":memory:")
    raise ValueError(f"the database is sqlite:///FILE or postgresql://..., got {url[:80]!r}")


class Store:
    """What the server needs of a database; a connection per thread."""

    placeholder = "?"
    _for_update = ""   # how a SELECT locks its rows to the end of the transaction (Postgres)

    def __init__(self) -> None:
        self._local = threading.local()
        self._all: list[Any] = []
        self._lock = threading.Lock()

    # ------------------------------------------------------------ connections

    def _connect(self) -> Any:
        raise NotImplementedError

    def _conn(self) -> Any:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._connect()
            with self._lock:
                self._all.append(conn)
        return conn

    @contextmanager
    def _connection(self) -> Iterator[Any]:
        """A connection for one transaction (this thread's; a pooled one for PostgreSQL)."""
        yield self._conn()

    def _sql(self, sql: str) -> str:
        return sql if self.placeholder == "?" else sql.replace("?", self.placeholder)

    @contextmanager
    def _transaction(self) -> Iterator[Any]:
        """A cursor in one write transaction: committed when the block ends,
        rolled back if it raises."""
        with self._connection() as conn:
            try:
                cur = conn.cursor()
                self._begin(cur)
                yield cur
                conn.commit()
            except BaseException:
                _rollback(conn)
                raise

    def _count(self, sql: str, args: Iterable[Any] = ()) -> int:
        """Run one writing statement in its own transaction; the rows it touched."""
        with self._transaction() as cur:
            cur.execute(self._sql(sql), tuple(args))
            return int(cur.rowcount)

    def _run(self, sql: str, args: Iterable[Any] = (), *, write: bool = False) -> list[tuple[Any, ...]]:
        with self._connection() as conn:
            try:
                cur = conn.cursor()
                cur.execute(self._sql(sql), tuple(args))
                rows = cur.fetchall() if cur.description else []
                conn.commit()
                return rows
            except BaseException:
                _rollback(conn)
                raise

    def probe(self) -> dict[str, bool]:
        """Whether the database answers a read and takes a write (a real one: a
        row of ``quotas`` that :meth:`forget_quotas` deletes a minute later).

        >>> store.probe()                              # doctest: +SKIP
        {'reads': True, 'writes': True}
        """
        try:
            self._run("SELECT 1 FROM games WHERE id = ?", ("-",))
        except Exception:
            return {"reads": False, "writes": False}
        try:
            self._count("INSERT INTO quotas (key, tokens, stamp) VALUES ('probe:', 0, ?) "
                        "ON CONFLICT (key) DO UPDATE SET stamp = excluded.stamp", (time.time(),))
        except Exception:
            return {"reads": True, "writes": False}
        return {"reads": True, "writes": True}

    def create_schema(self) -> None:
        for sql in _SCHEMA:
            self._run(sql, write=True)
        have = {(t, c) for t, c in self._columns()}
        for table, column, kind in _ADDED_COLUMNS:
            if (table, column) not in have:
                try:
                    self._run(f"ALTER TABLE {table} ADD COLUMN {column} {kind}", write=True)
                except sqlite3.OperationalError as exc:  # another worker added it first
                    if "duplicate column" not in str(exc):
                        raise

    def _columns(self) -> list[tuple[str, str]]:
        """``(table, column)`` of every column of the tables the store keeps."""
        raise NotImplementedError

    def _close_pool(self) -> None:
        pass

    def close(self) -> None:
        self._close_pool()
        with self._lock:
            conns, self._all = self._all, []
        for conn in conns:
            try:
                conn.close()
            except Exception:  # closing from another thread may be refused: nothing to keep
                pass
        self._local = threading.local()

    # ------------------------------------------------------------ games

    def create_game(self, game_id: str, spec: dict[str, Any], tokens: dict[str, str]) -> None:
        now = time.time()
        self._run("INSERT INTO games (id, spec, seq, tokens, created, updated) "
                  "VALUES (?, ?, 0, ?, ?, ?)",
                  (game_id, json.dumps(spec), json.dumps(tokens), now, now), write=True)

    def game(self, game_id: str) -> tuple[dict[str, Any], int, dict[str, str]] | None:
        """``(spec, seq, token hashes)`` of a game, or None."""
        rows = self._run("SELECT spec, seq, tokens FROM games WHERE id = ?", (game_id,))
        if not rows:
            return None
        spec, seq, tokens = rows[0]
        return json.loads(spec), int(seq), json.loads(tokens)

    def seq(self, game_id: str) -> int | None:
        rows = self._run("SELECT seq FROM games WHERE id = ?", (game_id,))
        return int(rows[0][0]) if rows else None

    def entries(self, game_id: str, start: int = 0) -> list[dict[str, Any]]:
        """The journal from ``start`` on, in order."""
        rows = self._run("SELECT seq, entry FROM actions WHERE game_id = ? AND seq >= ? "
                         "ORDER BY seq", (game_id, start))
        out = []
        for i, (seq, entry) in enumerate(rows):
            if int(seq) != start + i:  # never happens: appends are whole transactions
                raise RuntimeError(f"journal of {game_id} has a gap at {start + i}")
            out.append(json.loads(entry))
        return out

    def request_key(self, game_id: str, seq: int) -> str | None:
        rows = self._run("SELECT request_key FROM actions WHERE game_id = ? AND seq = ?",
                         (game_id, seq))
        return rows[0][0] if rows else None

    def append(self, game_id: str, seq: int, entries: list[dict[str, Any]],
               key: str | None = None) -> int:
        """Write ``entries`` after entry ``seq - 1`` and return the new seq, in one
        transaction; :class:`Conflict` if the game's seq is no longer ``seq``."""
        new = seq + len(entries)
        with self._transaction() as cur:
            cur.execute(self._sql("UPDATE games SET seq = ?, updated = ? WHERE id = ? AND seq = ?"),
                        (new, time.time(), game_id, seq))
            moved = cur.rowcount == 1
            for i, entry in enumerate(entries if moved else ()):  # else nothing is written
                cur.execute(self._sql("INSERT INTO actions (game_id, seq, entry, request_key) "
                                      "VALUES (?, ?, ?, ?)"),
                            (game_id, seq + i, json.dumps(entry), key if i == 0 else None))
        if not moved:
            now = self.seq(game_id)
            raise Conflict(-1 if now is None else now)
        return new

    def _begin(self, cur: Any) -> None:
        pass

    def purge(self, idle: float, now: float | None = None) -> dict[str, int]:
        """Delete what has been idle for more than ``idle`` seconds: games whose
        last action (or creation) is older, with their journals, and jobs
        created before then that are finished or whose process stopped
        renewing them as long.  Returns how many games, actions and jobs went.

        One transaction: the games go first, then every journal entry whose
        game is gone, so an action racing with the purge either lands before
        it (and its game is no longer idle) or finds no game (a conflict).

        >>> store.purge(30 * 86400)                    # doctest: +SKIP
        {'games': 12, 'actions': 3410, 'jobs': 2}
        """
        if not idle > 0:  # also refuses NaN
            raise ValueError(f"idle is a positive number of seconds, got {idle!r}")
        cutoff = (time.time() if now is None else now) - idle
        with self._transaction() as cur:
            cur.execute(self._sql("DELETE FROM games WHERE COALESCE(updated, created) < ?"),
                        (cutoff,))
            games = cur.rowcount
            cur.execute("DELETE FROM actions WHERE NOT EXISTS "
                        "(SELECT 1 FROM games WHERE games.id = actions.game_id)")
            actions = cur.rowcount
            cur.execute(self._sql("DELETE FROM jobs WHERE created < ? AND (status NOT IN "
                                  "('queued', 'running') OR COALESCE(heartbeat, created) < ?)"),
                        (cutoff, cutoff))
            jobs = cur.rowcount
        return {"games": int(games), "actions": int(actions), "jobs": int(jobs)}

    # ------------------------------------------------------------ quotas

    def take_token(self, key: str, per_minute: int, now: float | None = None) -> float:
        """A token bucket per ``key`` (a client address), shared by every process
        on the database: ``per_minute`` at once, then one every ``60 /
        per_minute`` seconds.  Returns 0.0 if ``key`` may go on now (a token is
        taken), else the seconds until it may.  A bucket untouched for a minute
        is full again, the same as none: :meth:`forget_quotas` deletes those.

        >>> store.take_token("10.0.0.2", 60)           # doctest: +SKIP
        0.0
        """
        if per_minute < 1:
            raise ValueError(f"per_minute is at least 1, got {per_minute!r}")
        now = time.time() if now is None else now
        capacity, rate = float(per_minute), per_minute / 60.0
        with self._transaction() as cur:
            cur.execute(self._sql("INSERT INTO quotas (key, tokens, stamp) VALUES (?, ?, ?) "
                                  "ON CONFLICT (key) DO NOTHING"), (key, capacity, now))
            cur.execute(self._sql("SELECT tokens, stamp FROM quotas WHERE key = ?"
                                  + self._for_update), (key,))
            tokens, stamp = cur.fetchone()
            # a clock that went back refills nothing
            tokens = min(capacity, float(tokens) + max(0.0, now - float(stamp)) * rate)
            wait = 0.0 if tokens >= 1.0 else (1.0 - tokens) / rate
            cur.execute(self._sql("UPDATE quotas SET tokens = ?, stamp = ? WHERE key = ?"),
                        (tokens - 1.0 if wait == 0.0 else tokens, max(now, float(stamp)), key))
        return wait

    def forget_quotas(self, now: float | None = None) -> int:
        """Delete the buckets untouched for a minute (full again); how many.
        The server does it with every heartbeat, so the table holds only the
        clients of the last minute or so."""
        now = time.time() if now is None else now
        return self._count("DELETE FROM quotas WHERE stamp < ?", (now - 60.0,))

    # ------------------------------------------------------------ jobs

    def create_job(self, job_id: str, kind: str, request: dict[str, Any], total: int,
                   owner: str | None = None, client: str | None = None,
                   token: str | None = None) -> None:
        """A queued job; ``owner``: the process running it, ``client``: the address
        that asked for it, ``token``: the SHA-256 of the secret that cancels it."""
        now = time.time()
        self._run("INSERT INTO jobs (id, kind, status, done, total, request, result, message, "
                  "cancel, created, owner, heartbeat, client, token) "
                  "VALUES (?, ?, 'queued', 0, ?, ?, NULL, NULL, 0, ?, ?, ?, ?, ?)",
                  (job_id, kind, total, json.dumps(request), now, owner, now, client, token),
                  write=True)

    def job_holder(self, job_id: str) -> tuple[str | None, str | None] | None:
        """``(client, token hash)`` of a job (None for a job of an older version), or
        None when there is no such job."""
        rows = self._run("SELECT client, token FROM jobs WHERE id = ?", (job_id,))
        return (rows[0][0], rows[0][1]) if rows else None

    def job(self, job_id: str) -> dict[str, Any] | None:
        """The job as a dict (``heartbeat``: the owner's last sign of life,
        else the job's creation), or None."""
        rows = self._run("SELECT kind, status, done, total, request, result, message, cancel, "
                         "COALESCE(heartbeat, created) FROM jobs WHERE id = ?", (job_id,))
        if not rows:
            return None
        kind, status, done, total, request, result, message, cancel, heartbeat = rows[0]
        return {"id": job_id, "kind": kind, "status": status, "done": int(done),
                "total": int(total), "request": json.loads(request),
                "result": None if result is None else json.loads(result),
                "message": message, "cancel": bool(cancel), "heartbeat": float(heartbeat)}

    def beat(self, owner: str) -> int:
        """Renew the lease of ``owner``'s queued and running jobs; how many."""
        return self._count("UPDATE jobs SET heartbeat = ? WHERE owner = ? "
                           "AND status IN ('queued', 'running')", (time.time(), owner))

    def expire_job(self, job_id: str, lease: float) -> bool:
        """Fail the job if it is queued or running and its heartbeat is older
        than ``lease`` seconds (its process is gone); whether it did.  One
        statement, so of several workers reading it at once one expires it."""
        return self._count("UPDATE jobs SET status = 'failed', message = ? WHERE id = ? "
                           "AND status IN ('queued', 'running') "
                           "AND COALESCE(heartbeat, created) < ?",
                           (STALE_MESSAGE, job_id, time.time() - lease)) == 1

    def update_job(self, job_id: str, **fields: Any) -> None:
        if "result" in fields and fields["result"] is not None:
            fields["result"] = json.dumps(fields["result"])
        names = sorted(fields)
        self._run(f"UPDATE jobs SET {', '.join(f'{n} = ?' for n in names)} WHERE id = ?",
                  [fields[n] for n in names] + [job_id], write=True)

    def cancel_job(self, job_id: str) -> None:
        self._run("UPDATE jobs SET cancel = 1, status = CASE WHEN status = 'queued' "
                  "THEN 'cancelled' ELSE status END WHERE id = ?", (job_id,), write=True)

    def count_jobs(self, status: str) -> int:
        return int(self._run("SELECT COUNT(*) FROM jobs WHERE status = ?", (status,))[0][0])


def _rollback(conn: Any) -> None:
    """Roll back, unless the connection is already broken (the error that broke it
    is the one to report, not the rollback's)."""
    try:
        conn.rollback()
    except Exception:
        pass


class SqliteStore(Store):
    """SQLite in WAL mode with ``synchronous=FULL``: a committed action survives
    a crash of the process (and of the machine)."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path
        if path != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self._memory = None
        if path == ":memory:":  # one shared connection: every thread sees the same database
            self._memory = sqlite3.connect(":memory:", check_same_thread=False)
            self._memory_lock = threading.RLock()
        self.create_schema()

    def _connect(self) -> Any:
        if self._memory is not None:
            return _Locked(self._memory, self._memory_lock)
        conn = sqlite3.connect(self.path, timeout=30.0, isolation_level=None,
                               check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA busy_timeout=30000")
        return _Autocommit(conn)

    def _begin(self, cur: Any) -> None:
        cur.execute("BEGIN IMMEDIATE")  # take the write lock now: no upgrade deadlock

    def _columns(self) -> list[tuple[str, str]]:
        return [(table, str(row[1])) for table in ("games", "actions", "jobs", "quotas")
                for row in self._run(f"PRAGMA table_info({table})")]


class _Autocommit:
    """A sqlite3 connection in autocommit mode with explicit transactions:
    statements outside ``BEGIN`` commit at once, ``commit``/``rollback``
    end a transaction if one is open."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._c = conn

    def cursor(self) -> Any:
        return self._c.cursor()

    def commit(self) -> None:
        if self._c.in_transaction:
            self._c.execute("COMMIT")

    def rollback(self) -> None:
        if self._c.in_transaction:
            self._c.execute("ROLLBACK")

    def close(self) -> None:
        self._c.close()


class _Locked:
    """The shared in-memory connection, one statement sequence at a time."""

    def __init__(self, conn: sqlite3.Connection, lock: threading.RLock) -> None:
        self._c, self._lock = conn, lock
        self._held = 0

    def cursor(self) -> Any:
        self._lock.acquire()
        self._held += 1
        return self._c.cursor()

    def _release(self) -> None:
        while self._held:
            self._held -= 1
            self._lock.release()

    def commit(self) -> None:
        try:
            self._c.commit()
        finally:
            self._release()

    def rollback(self) -> None:
        try:
            self._c.rollback()
        finally:
            self._release()

    def close(self) -> None:
        pass


class PostgresStore(Store):
    """PostgreSQL through psycopg 3 and its pool (the ``server`` extra): each
    transaction borrows a connection that the pool checked first, so a
    connection broken by a restart of PostgreSQL is replaced, not reused; while
    PostgreSQL is away a request waits up to ``POOL_TIMEOUT`` seconds for one
    (then 503), and the pool reconnects in the background.

    ``POOL_SIZE`` connections at most per process (``BACKGAMMON_POOL_SIZE``).
    """

    placeholder = "%s"
    _for_update = " FOR UPDATE"   # the bucket's row is locked until the transaction ends
    POOL_TIMEOUT = 5.0

    def __init__(self, url: str) -> None:
        super().__init__()
        try:
            import psycopg  # noqa: F401
            from psycopg_pool import ConnectionPool
        except ImportError:
            raise RuntimeError("PostgreSQL needs psycopg 3 and its pool: "
                               "pip install 'backgammon[server]'") from None
        self.url = url
        self.create_schema()   # a plain connection first: a database that is down fails here
        size = int(os.environ.get("BACKGAMMON_POOL_SIZE", "20"))
        self._pool = ConnectionPool(url, min_size=1, max_size=max(1, size), open=True,
                                    timeout=self.POOL_TIMEOUT, check=ConnectionPool.check_connection,
                                    kwargs={"connect_timeout": 5}, reconnect_timeout=3600.0,
                                    name="backgammon")

    @contextmanager
    def _connection(self) -> Iterator[Any]:
        with self._pool.connection() as conn:
            yield conn

    def _close_pool(self) -> None:
        pool = getattr(self, "_pool", None)
        if pool is not None:
            pool.close(timeout=5.0)

    def _connect(self) -> Any:
        import psycopg
        return psycopg.connect(self.url, connect_timeout=10)

    def create_schema(self) -> None:
        # several workers start at once: one creates the tables, the others wait; a
        # database that has them all is not written to (it may be a read-only standby)
        import psycopg
        with psycopg.connect(self.url, connect_timeout=10) as conn:
            with conn.cursor() as cur:
                cur.execute("SELECT table_name, column_name FROM information_schema.columns "
                            "WHERE table_schema = current_schema()")
                have = {(str(t), str(c)) for t, c in cur.fetchall()}
                tables = {t for t, _ in have}
                if {"games", "actions", "jobs", "quotas"} <= tables and all(
                        (t, c) in have for t, c, _ in _ADDED_COLUMNS):
                    return
                cur.execute("SELECT pg_advisory_xact_lock(4242)")
                for sql in _SCHEMA:
                    cur.execute(sql)
                for table, column, kind in _ADDED_COLUMNS:
                    cur.execute(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {kind}")
            conn.commit()
