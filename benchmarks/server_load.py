"""Load and fault test of ``backgammon serve`` on loopback (issue 19).

    python benchmarks/server_load.py [--games 200] [--kill-at 0.4] [--workers 1]
                                     [--database sqlite:///FILE | postgresql://...]
                                     [--slow-clients N] [--max-seconds 900]

Starts the server on 127.0.0.1 (a free port, a fresh SQLite file unless
``--database``), then plays ``--games`` games at once to the end, each by a bot
client holding both seats: it asks ``GET /move`` for the best play, sends it
with ``POST /games/{id}/actions`` (with ``seq`` and an ``Idempotency-Key``),
rolls, and takes doubles; a WebSocket per game counts the events pushed.

When a fraction ``--kill-at`` of the expected actions is acknowledged the
server gets ``kill -9`` and is started again on the same database; clients
retry what was in flight (same seq and key) until it answers.  At the end
every game's journal is checked against what its client was told:

- every acknowledged action is in the journal at the seq it was sent for,
  with the dice the reply showed (none lost, none applied twice: the journal
  has exactly one entry per distinct action of the client);
- after the restart each game was at its last acknowledged action or one
  further (the in-flight one, committed before its reply was lost), with the
  position the client last saw.

Each game's client has its own loopback address (127.1.1.1, 127.1.2.1, ...:
Linux routes all of 127.0.0.0/8 to loopback), as real players have theirs, so
the server's per-client budgets (issue 37) apply to each as to a player; a
429 is waited out (``Retry-After``) and counted.  ``--slow-clients N`` runs N
hostile connections beside the load, from 20 other loopback addresses
(127.0.200.x), each sending half a request's headers and nothing more (and
opening another when the server closes it: a second later, or 5 s later when
it was refused at once for too many connections from its address), while a probe from yet another
address asks ``/health`` every half second: its latency and failures say
whether the server stayed responsive for everyone else.

Prints requests/s, p50/p99 latency of ``/move`` and of actions, the server's
CPU time per request, and the count of 5xx replies (must be 0); exits 1 if any
check fails.  Self-stopping: every wait is bounded and the whole run stops
after ``--max-seconds``.  Needs the server and test extras (httpx, websockets).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

import httpx
import websockets

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, port: int, database: str, workers: int) -> None:
        self.port, self.database, self.workers = port, database, workers
        self.proc: subprocess.Popen | None = None
        self.cpu = 0.0  # CPU seconds of the processes killed or stopped so far

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "backgammon", "serve", "--host", HOST, "--port", str(self.port),
             "--database", self.database, "--workers", str(self.workers)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                httpx.get(f"http://{HOST}:{self.port}/health", timeout=1.0)
                return
            except httpx.HTTPError:
                if self.proc.poll() is not None:
                    raise SystemExit("the server did not start: " +
                                     self.proc.stderr.read().decode()[-2000:])
                time.sleep(0.05)
        raise SystemExit("the server did not answer within 60 s")

    def _pids(self) -> list[int]:
        assert self.proc is not None
        out = subprocess.run(["pgrep", "-s", str(self.proc.pid)], capture_output=True, text=True)
        return [int(p) for p in out.stdout.split()] or [self.proc.pid]

    def cpu_now(self) -> float:
        total = 0.0
        tick = os.sysconf("SC_CLK_TCK")
        for pid in self._pids():
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / tick
            except (OSError, IndexError):
                pass
        return total

    def kill9(self) -> None:
        assert self.proc is not None
        self.cpu += self.cpu_now()
        os.killpg(self.proc.pid, signal.SIGKILL)  # the server and its workers, at once
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.cpu += self.cpu_now()
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)


class Stats:
    def __init__(self) -> None:
        self.move: list[float] = []
        self.action: list[float] = []
        self.requests = 0
        self.status5xx = 0
        self.throttled = 0   # 429s waited out
        self.retries = 0
        self.events = 0
        self.acked = 0
        self.gate = asyncio.Event()  # cleared while the server is killed and restarted
        self.gate.set()


class Client:
    """Plays one game (both seats) and keeps what the server acknowledged."""

    def __init__(self, http: httpx.AsyncClient, stats: Stats, base: str,
                 address: str = HOST) -> None:
        self.http, self.stats, self.base, self.address = http, stats, base, address
        self.id = ""
        self.tokens: dict[str, str] = {}
        self.sent: dict[int, dict] = {}        # seq -> the action sent for it (distinct actions)
        self.acked: dict[int, dict] = {}       # seq -> the state the reply showed
        self.last: dict | None = None
        self.errors: list[str] = []
        self.resumed: list[tuple[int, int]] = []  # (last acked seq, seq found) after the restart

    async def request(self, method: str, path: str, gated: bool = True, **kw) -> httpx.Response:
        """One request, retried (bounded) while the server is down."""
        for attempt in range(600):
            if gated:
                await asyncio.wait_for(self.stats.gate.wait(), 120)
            try:
                start = time.perf_counter()
                r = await self.http.request(method, self.base + path, **kw)
                took = time.perf_counter() - start
                self.stats.requests += 1
                if r.status_code >= 500:
                    self.stats.status5xx += 1
                    raise AssertionError(f"{method} {path}: {r.status_code} {r.text[:200]}")
                if r.status_code == 429:   # over a budget: wait as told, then again
                    self.stats.throttled += 1
                    await asyncio.sleep(min(30.0, float(r.headers.get("Retry-After", "1"))))
                    continue
                if path.startswith("/move"):
                    self.stats.move.append(took)
                elif path.endswith("/actions") and method == "POST":
                    self.stats.action.append(took)
                return r
            except (httpx.TransportError, httpx.TimeoutException):
                self.stats.retries += 1
                await asyncio.sleep(0.1)
        raise AssertionError(f"{method} {path}: the server did not come back")

    async def create(self) -> None:
        r = await self.request("POST", "/games", json={})
        data = r.json()
        self.id, self.tokens = data["id"], data["tokens"]
        self.last = (await self.request("GET", f"/games/{self.id}")).json()

    async def act(self, body: dict, seat: int) -> None:
        assert self.last is not None
        seq = self.last["seq"]
        body = {**body, "seq": seq}
        self.sent[seq] = body
        key = f"{self.id}-{seq}"
        headers = {"Authorization": f"Bearer {self.tokens[str(seat)]}", "Idempotency-Key": key}
        r = await self.request("POST", f"/games/{self.id}/actions", json=body, headers=headers)
        if r.status_code != 200:
            raise AssertionError(f"game {self.id} seq {seq}: {r.status_code} {r.text[:300]}")
        state = r.json()
        if state["seq"] != seq + 1:
            raise AssertionError(f"game {self.id}: action at {seq} gave seq {state['seq']}")
        self.acked[seq] = state
        self.stats.acked += 1
        self.last = state

    async def turn(self) -> None:
        s = self.last
        assert s is not None
        seat = s["player_to_act"] if s["player_to_act"] is not None else 0
        acts = s["legal_actions"]
        if s["phase"] == "move":
            points = "&".join(f"p{i}={n}" for i, n in enumerate(s["board"]) if n)
            d1, d2 = s["dice"]
            r = await self.request("GET", f"/move?die1={d1}&die2={d2}&{points}")
            best = r.json()["moves"][0]["play"]
            await self.act({"action": "play", "moves": [[m["from"], m["to"]] for m in best]}, seat)
        elif "take" in acts:
            await self.act({"action": "take"}, seat)
        else:
            await self.act({"action": "roll"}, seat)

    async def play(self, max_actions: int = 600) -> None:
        await self.create()
        listener = asyncio.ensure_future(self.listen())
        try:
            for _ in range(max_actions):
                if self.last["over"]:  # type: ignore[index]
                    break
                await self.turn()
        finally:
            listener.cancel()

    async def listen(self) -> None:
        url = f"ws://{HOST}:{self.base.rsplit(':', 1)[1]}/games/{self.id}/events"
        while True:
            try:
                async with websockets.connect(url, open_timeout=5, max_size=1 << 20,
                                              local_addr=(self.address, 0)) as ws:
                    async for _ in ws:
                        self.stats.events += 1
            except (OSError, websockets.WebSocketException, asyncio.TimeoutError):
                await asyncio.sleep(0.2)

    async def resume_check(self) -> None:
        """Right after the restart: the game is at its last acknowledged seq or one on."""
        state = (await self.request("GET", f"/games/{self.id}", gated=False)).json()
        last = max(self.acked) + 1 if self.acked else 0
        self.resumed.append((last, state["seq"]))
        if state["seq"] not in (last, last + 1):
            self.errors.append(f"{self.id}: after the restart at seq {state['seq']}, "
                               f"last acknowledged {last}")
        elif state["seq"] == last and self.last is not None and self.last["seq"] == last:
            if (state["position_id"], state["match_id"]) != (self.last["position_id"],
                                                             self.last["match_id"]):
                self.errors.append(f"{self.id}: the position changed across the restart")

    async def verify(self) -> None:
        journal = (await self.request("GET", f"/games/{self.id}/actions")).json()
        entries = journal["entries"]
        if len(entries) != len(self.sent):
            self.errors.append(f"{self.id}: {len(entries)} journal entries for "
                               f"{len(self.sent)} distinct actions")
        for seq, state in self.acked.items():
            if seq >= len(entries):
                self.errors.append(f"{self.id}: acknowledged action {seq} is lost")
                continue
            e, sent = entries[seq], self.sent[seq]
            kind = {"roll": ("roll", "opening")}.get(sent["action"], (sent["action"],))
            if e["kind"] not in kind:
                self.errors.append(f"{self.id}: seq {seq} is {e['kind']}, sent {sent['action']}")
            if e["kind"] == "roll" and state["dice"] != e["value"]:
                self.errors.append(f"{self.id}: seq {seq} rolled {e['value']}, "
                                   f"the reply showed {state['dice']}")
            if e["kind"] == "opening" and state["dice"] is not None and \
                    sorted(state["dice"]) != sorted(e["value"]):
                self.errors.append(f"{self.id}: opening {e['value']} vs {state['dice']}")


def address(i: int, third: int = 1) -> str:
    """The ``i``-th loopback address of a block: 127.<third + i // 250>.<i % 250 + 1>."""
    return f"127.{third + i // 250}.{i % 250 + 1}.1"


class Slow:
    """Hostile connections beside the load: half-sent headers, reopened when
    closed; and a probe of ``/health`` from an address of its own."""

    def __init__(self, port: int, count: int, gate: asyncio.Event) -> None:
        self.port, self.count, self.gate = port, count, gate
        self.opened = self.closed_by_server = self.refused = 0
        self.probe: list[float] = []
        self.probe_failed = 0
        self.stop = asyncio.Event()

    async def one(self, i: int) -> None:
        while not self.stop.is_set():
            try:
                reader, writer = await asyncio.open_connection(
                    HOST, self.port, local_addr=(f"127.0.200.{i % 20 + 1}", 0))
            except OSError:
                await asyncio.sleep(0.5)
                continue
            self.opened += 1
            pause = 1.0   # a connection closed after a while: reopened a second later
            try:
                writer.write(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                await writer.drain()
                stop = asyncio.ensure_future(self.stop.wait())
                read = asyncio.ensure_future(reader.read(1000))
                await asyncio.wait({stop, read}, return_when=asyncio.FIRST_COMPLETED)
                if read.done():
                    self.closed_by_server += 1
                    if read.result().startswith(b"HTTP/1.1 429"):
                        self.refused += 1
                        pause = 5.0   # refused at once: tried again 5 s later
                stop.cancel()
                read.cancel()
            except OSError:
                self.closed_by_server += 1
            finally:
                writer.close()
            await asyncio.sleep(pause)

    async def probing(self) -> None:
        transport = httpx.AsyncHTTPTransport(local_address="127.0.201.1")
        async with httpx.AsyncClient(transport=transport, timeout=10.0) as http:
            while not self.stop.is_set():
                start = time.perf_counter()
                try:
                    r = await http.get(f"http://{HOST}:{self.port}/health")
                    if r.status_code != 200:
                        self.probe_failed += self.gate.is_set()
                    else:
                        self.probe.append(time.perf_counter() - start)
                except httpx.HTTPError:   # while the server is killed and restarted: expected
                    self.probe_failed += self.gate.is_set()
                await asyncio.sleep(0.5)

    def start(self) -> list[asyncio.Future]:
        return ([asyncio.ensure_future(self.one(i)) for i in range(self.count)]
                + [asyncio.ensure_future(self.probing())])


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return 1000 * xs[min(len(xs) - 1, int(q * len(xs)))]


async def run(args: argparse.Namespace) -> int:
    port = free_port()
    tmp = tempfile.mkdtemp(prefix="bg-load-")
    database = args.database or f"sqlite:///{tmp}/games.sqlite3"
    server = Server(port, database, args.workers)
    server.start()
    base = f"http://{HOST}:{port}"
    stats = Stats()
    expected = args.games * 100  # actions of a game played by the nets, roughly (measured)
    started = time.perf_counter()
    slow = Slow(port, args.slow_clients, stats.gate)
    hostile = slow.start() if args.slow_clients else []
    https = [httpx.AsyncClient(transport=httpx.AsyncHTTPTransport(local_address=address(i)),
                               timeout=httpx.Timeout(30.0)) for i in range(args.games)]
    try:
        clients = [Client(h, stats, base, address(i)) for i, h in enumerate(https)]
        tasks = [asyncio.ensure_future(c.play()) for c in clients]
        killed_at = None
        restart_seconds = None
        deadline = time.monotonic() + args.max_seconds
        while not all(t.done() for t in tasks):
            if time.monotonic() > deadline:
                for t in tasks:
                    t.cancel()
                print("stopped: --max-seconds reached", file=sys.stderr)
                break
            if killed_at is None and args.kill_at > 0 and stats.acked >= args.kill_at * expected:
                killed_at = stats.acked
                t0 = time.perf_counter()
                stats.gate.clear()
                server.kill9()
                await asyncio.sleep(0.5)        # clients find it down and retry
                await asyncio.to_thread(server.start)
                restart_seconds = time.perf_counter() - t0
                await asyncio.gather(*(c.resume_check() for c in clients if c.id))
                stats.gate.set()
            await asyncio.sleep(0.05)
        results = await asyncio.gather(*tasks, return_exceptions=True)
        seconds = time.perf_counter() - started
        slow.stop.set()
        await asyncio.gather(*hostile, return_exceptions=True)
        try:
            await asyncio.wait_for(asyncio.gather(*(c.verify() for c in clients if c.id)), 120)
        except asyncio.TimeoutError:
            print("stopped: the journals could not be read within 120 s", file=sys.stderr)
    finally:
        for h in https:
            await h.aclose()
    cpu = server.cpu + server.cpu_now()
    server.stop()
    failures = [r for r in results if isinstance(r, BaseException)]
    errors = [e for c in clients for e in c.errors]
    finished = sum(1 for c in clients if c.last and c.last["over"])
    resumed_same = sum(1 for c in clients for a, b in c.resumed if a == b)
    resumed_next = sum(1 for c in clients for a, b in c.resumed if b == a + 1)
    print(f"games {args.games}, finished {finished}; workers {args.workers}; database "
          f"{'postgresql' if database.startswith('postgres') else 'sqlite'}")
    print(f"requests {stats.requests} in {seconds:.1f} s: {stats.requests / seconds:.0f} requests/s; "
          f"acknowledged actions {stats.acked}")
    print(f"GET /move: p50 {pct(stats.move, 0.5):.1f} ms, p99 {pct(stats.move, 0.99):.1f} ms "
          f"({len(stats.move)} requests)")
    print(f"POST actions: p50 {pct(stats.action, 0.5):.1f} ms, p99 {pct(stats.action, 0.99):.1f} ms "
          f"({len(stats.action)} requests)")
    print(f"server CPU {cpu:.1f} s: {1000 * cpu / max(stats.requests, 1):.2f} ms per request")
    print(f"5xx replies {stats.status5xx}; retries while down {stats.retries}; "
          f"429s waited out {stats.throttled}; WebSocket events {stats.events}")
    if args.slow_clients:
        print(f"slow clients {args.slow_clients}: {slow.opened} half-sent connections opened, "
              f"{slow.closed_by_server} closed by the server ({slow.refused} refused at once); "
              f"/health beside them: p50 "
              f"{pct(slow.probe, 0.5):.1f} ms, p99 {pct(slow.probe, 0.99):.1f} ms, "
              f"{slow.probe_failed} failed of {len(slow.probe) + slow.probe_failed}")
    if killed_at is not None:
        print(f"kill -9 after {killed_at} acknowledged actions; restarted in {restart_seconds:.1f} s; "
              f"games at their last acknowledged action: {resumed_same}, one on (committed, "
              f"reply lost): {resumed_next}")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    for f in failures[:5]:
        print("client failed:", repr(f)[:300])
    for e in errors[:10]:
        print("check failed:", e)
    ok = (not failures and not errors and stats.status5xx == 0 and finished == args.games
          and slow.probe_failed == 0)
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--kill-at", type=float, default=0.4,
                        help="kill -9 the server when this fraction of the actions is "
                             "acknowledged (0: never)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--database", default=None)
    parser.add_argument("--slow-clients", type=int, default=0,
                        help="hostile half-sent connections beside the load")
    parser.add_argument("--max-seconds", type=float, default=900)
    args = parser.parse_args()
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
