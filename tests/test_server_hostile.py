"""Issue 37: the server against hostile clients and faulty storage.

Per-client budgets (requests, requests at once, CPU, WebSockets, jobs) with 429
/ close 1013 and ``Retry-After``; X-Forwarded-For believed only from trusted
proxies; half-sent requests closed; a PostgreSQL restart recovered; a store
that refuses writes reported by /health and /ready and answered 503; start-up
failures as one line and a non-zero exit; workers that die with their master.
Every test is bounded and stops by itself, on loopback only.
"""

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import warnings

import pytest

fastapi = pytest.importorskip("fastapi", reason="the server extra is not installed")

from backgammon.server import StartupError, check_startup, create_app  # noqa: E402
from backgammon.server.limits import (Buckets, Limits, client_address,  # noqa: E402
                                      parse_networks)

import pgcluster  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

CI = os.environ.get("CI") == "true"
OPENING = "die1=3&die2=1&p24=2&p13=5&p8=3&p6=5&p1=-2&p12=-5&p17=-3&p19=-5"


@pytest.fixture(scope="module")
def postgres():
    cluster, why = pgcluster.start()
    if cluster is None:
        if CI:
            pytest.fail(f"CI needs PostgreSQL for the server tests: {why}")
        pytest.skip(why)
    yield cluster
    cluster.stop()


@pytest.fixture
def sqlite_url(tmp_path):
    return f"sqlite:///{tmp_path}/games.sqlite3"


def is_error(r, status, name=None):
    body = r.json()
    assert r.status_code == status, (r.status_code, body)
    assert set(body) >= {"error", "message"} and "Traceback" not in r.text
    if name:
        assert body["error"] == name, body
    return body


# ---------------------------------------------------------------- who the client is

def test_forwarded_for_is_believed_only_from_trusted_proxies():
    xff = [(b"x-forwarded-for", b"6.6.6.6, 203.0.113.7")]
    # no trusted proxy (the default): the peer, whatever the header says
    assert client_address(("127.0.0.1", 1), xff, ()) == "127.0.0.1"
    proxies = parse_networks("127.0.0.1, 10.0.0.0/8")
    # from a trusted proxy: the last address the proxy saw (what the client wrote
    # before it, 6.6.6.6, is the client's own claim and not believed)
    assert client_address(("127.0.0.1", 1), xff, proxies) == "203.0.113.7"
    # a chain of trusted proxies is walked back to the first untrusted hop
    chain = [(b"x-forwarded-for", b"203.0.113.7, 10.1.1.1")]
    assert client_address(("127.0.0.1", 1), chain, proxies) == "203.0.113.7"
    # a peer that is not a proxy, and garbage from a proxy's client
    assert client_address(("192.0.2.1", 1), xff, proxies) == "192.0.2.1"
    assert client_address(("127.0.0.1", 1), [(b"x-forwarded-for", b"nonsense")],
                          proxies) == "127.0.0.1"
    with pytest.raises(ValueError, match="trusted proxy"):
        Limits(trusted_proxies=("not-an-address",))


def test_limits_are_checked_and_read_from_the_environment():
    limits = Limits.from_env({"BACKGAMMON_LIMIT_SOCKETS": "3",
                              "BACKGAMMON_LIMIT_ANALYSIS_SECONDS": "2.5",
                              "BACKGAMMON_LIMIT_TRUSTED_PROXIES": "::1,127.0.0.1"})
    assert (limits.sockets, limits.analysis_seconds) == (3, 2.5)
    assert limits.trusted_proxies == ("::1", "127.0.0.1")
    assert Limits.from_env(limits.to_env()) == limits
    for bad in ({"sockets": 0}, {"header_timeout": float("nan")}, {"jobs": True}):
        with pytest.raises(ValueError, match="positive"):
            Limits(**bad)
    with pytest.raises(ValueError, match="BACKGAMMON_LIMIT_JOBS"):
        Limits.from_env({"BACKGAMMON_LIMIT_JOBS": "two"})


def test_bucket_hand_worked():
    b = Buckets(6.0)                     # 6 at once, then one every 10 s
    for _ in range(6):
        assert b.acquire("a", now=0.0) == 0.0
    assert b.acquire("a", now=0.0) == pytest.approx(10.0)
    assert b.acquire("a", now=5.0) == pytest.approx(5.0)
    assert b.acquire("b", now=5.0) == 0.0          # another client has its own
    b.take("c", 9.0, now=0.0)                      # a cost above what is left: in debt
    assert b.wait("c", 0.0, now=0.0) == pytest.approx(30.0)   # 3 tokens short, 10 s each


# ---------------------------------------------------------------- budgets over HTTP

def test_requests_a_minute_per_client(sqlite_url):
    app = create_app(sqlite_url, limits=Limits(requests_per_minute=4))
    with TestClient(app, client=("192.0.2.1", 1)) as one, \
            TestClient(app, client=("192.0.2.2", 1)) as two:
        for _ in range(4):
            assert one.get("/games/none").status_code == 404
        r = one.get("/games/none")
        is_error(r, 429, "TooManyRequests")
        assert r.headers["Retry-After"] == "15"       # 4 a minute: one every 15 s
        assert two.get("/games/none").status_code == 404   # others are served
        assert one.get("/health").status_code == 200      # probes are free
        assert one.get("/ready").status_code == 200


def test_requests_at_once_per_client(sqlite_url, monkeypatch):
    from backgammon.server import engine
    entered, release = threading.Event(), threading.Event()
    real = engine.move_response

    def slow(*args, **kwargs):
        entered.set()
        release.wait(20)
        return real(*args, **kwargs)

    monkeypatch.setattr(engine, "move_response", slow)
    app = create_app(sqlite_url, limits=Limits(concurrent_requests=1))
    with TestClient(app, client=("192.0.2.1", 1)) as one, \
            TestClient(app, client=("192.0.2.2", 1)) as two:
        first = []
        worker = threading.Thread(target=lambda: first.append(one.get("/move?" + OPENING)))
        worker.start()
        try:
            assert entered.wait(20)
            r = one.get("/games/none")
            is_error(r, 429, "TooManyRequests")
            assert r.headers["Retry-After"] == "1"
            assert two.get("/games/none").status_code == 404
        finally:
            release.set()
            worker.join(30)
        assert first[0].status_code == 200
        assert one.get("/games/none").status_code == 404   # its slot is back


def test_cpu_seconds_per_client(sqlite_url, monkeypatch):
    from backgammon.server import engine

    def burn(*args, **kwargs):               # 0.05 s of this thread's CPU
        start = time.thread_time()
        while time.thread_time() - start < 0.05:
            pass
        return {"moves": []}

    monkeypatch.setattr(engine, "move_response", burn)
    # 0.06 CPU seconds a minute: the first request runs (the budget is positive)
    # and spends 0.05; the second runs too (0.01 left) and leaves the client in
    # debt (-0.04); the third waits for the debt to be refilled, at 0.001 a second
    app = create_app(sqlite_url, limits=Limits(cpu_seconds_per_minute=0.06))
    with TestClient(app, client=("192.0.2.1", 1)) as one, \
            TestClient(app, client=("192.0.2.2", 1)) as two:
        assert one.get("/move?" + OPENING).status_code == 200
        assert one.get("/move?" + OPENING).status_code == 200
        r = one.get("/move?" + OPENING)
        is_error(r, 429, "TooManyRequests")
        assert "CPU" in r.json()["message"] and int(r.headers["Retry-After"]) >= 30
        assert two.get("/move?" + OPENING).status_code == 200


def test_websockets_per_client_are_closed_1013(sqlite_url):
    from starlette.websockets import WebSocketDisconnect
    app = create_app(sqlite_url, limits=Limits(sockets=1))
    with TestClient(app, client=("192.0.2.1", 1)) as one, \
            TestClient(app, client=("192.0.2.2", 1)) as two:
        gid = one.post("/games", json={}).json()["id"]
        with one.websocket_connect(f"/games/{gid}/events") as first:
            assert first.receive_json()["type"] == "state"
            with one.websocket_connect(f"/games/{gid}/events") as second:
                with pytest.raises(WebSocketDisconnect) as closed:
                    second.receive_json()
            assert closed.value.code == 1013 and "retry after" in closed.value.reason
            with two.websocket_connect(f"/games/{gid}/events") as other:
                assert other.receive_json()["type"] == "state"
        # closed: the client's place is free again (the server notices within a poll)
        for _ in range(40):
            try:
                with one.websocket_connect(f"/games/{gid}/events") as again:
                    assert again.receive_json()["type"] == "state"
                break
            except WebSocketDisconnect:
                time.sleep(0.1)
        else:
            raise AssertionError("the client's WebSocket place was not freed")


def _wait_status(client, job_id, statuses, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        job = client.get(f"/rollouts/{job_id}").json()
        if job["status"] in statuses:
            return job
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} still {job['status']}")


def test_jobs_per_client_and_cancelled_jobs_free_their_place(sqlite_url, monkeypatch):
    from backgammon.server import app as app_module
    monkeypatch.setattr(app_module, "MAX_JOBS_QUEUED", 1)
    long = {"games": 1296 * 100, "policy": "pubeval"}
    app = create_app(sqlite_url, limits=Limits(jobs=1, requests_per_minute=10_000))
    with TestClient(app, client=("192.0.2.1", 1)) as a, \
            TestClient(app, client=("192.0.2.2", 1)) as b, \
            TestClient(app, client=("192.0.2.3", 1)) as c:
        running = a.post("/rollouts", json=long).json()["id"]
        _wait_status(a, running, {"running"})             # the jobs' one thread is busy
        r = a.post("/rollouts", json=long)                   # a has its one job
        is_error(r, 429, "TooManyRequests")
        assert r.headers["Retry-After"]
        waiting = b.post("/rollouts", json=long).json()["id"]   # the one queued place
        r = c.post("/rollouts", json=long)
        is_error(r, 503, "Busy")
        assert r.headers["Retry-After"]
        # b cancels its queued job: the place is free at once, not when the
        # running job ends
        assert b.delete(f"/rollouts/{waiting}").json()["status"] == "cancelled"
        third = c.post("/rollouts", json=long)
        assert third.status_code == 202
        # a cancels its running job: its own place is back within a progress step
        a.delete(f"/rollouts/{running}")
        assert _wait_status(a, running, {"cancelled"})["status"] == "cancelled"
        for _ in range(100):
            r = a.post("/rollouts", json={"games": 36, "policy": "pubeval", "seed": 1})
            if r.status_code == 202:
                break
            time.sleep(0.05)
        assert r.status_code == 202, r.json()
        c.delete(f"/rollouts/{third.json()['id']}")
        a.delete(f"/rollouts/{r.json()['id']}")


# ---------------------------------------------------------------- analysis

def _mat():
    import backgammon as bg
    m = bg.Match(1, rng=3)
    while not m.over:
        game = m.game
        if game.phase.value in ("opening", "roll"):
            game.roll()
        else:
            game.play(game.position.best_play(game.dice))
    return m.to_mat()


def test_analyse_is_not_a_simple_cors_request_and_has_a_timeout(sqlite_url):
    text = _mat()
    files = {"file": ("m.mat", text, "text/plain")}
    with TestClient(create_app(sqlite_url)) as client:
        # a form another site's page could post through its visitor's browser: refused
        body = is_error(client.post("/analyse", files=files), 400, "BadRequest")
        assert "X-Requested-With" in body["message"]
    # an analysis running past its time is stopped: 504 (the child process starts
    # and imports the library, far longer than a millisecond)
    with TestClient(create_app(sqlite_url, limits=Limits(analysis_seconds=0.001))) as client:
        r = client.post("/analyse", files=files, headers={"X-Requested-With": "test"})
        is_error(r, 504, "AnalysisTimeout")


def test_an_analysis_stops_when_its_client_goes():
    import asyncio

    from backgammon.server.analysis_process import analyse_in_child

    class Gone:
        async def is_disconnected(self):
            return True

    async def go():
        start = time.monotonic()
        outcome = await analyse_in_child(Gone(), _mat().encode(), "m.mat", 0, "json", 600.0)
        return outcome, time.monotonic() - start

    outcome, seconds = asyncio.run(go())
    assert outcome is None and seconds < 60        # not the 600 s of its time limit


# ---------------------------------------------------------------- faulty storage

def test_a_read_only_store_is_reported_and_answered_503(tmp_path, monkeypatch):
    import sqlite3

    from backgammon.server import store as store_module
    path = tmp_path / "games.sqlite3"
    url = f"sqlite:///{path}"
    with TestClient(create_app(url)) as client:
        gid = client.post("/games", json={}).json()["id"]
    # the file becomes read-only (as a read-only mount or a full disk would make it;
    # as root, a file mode does not stop writes, so the connection is opened read-only)
    real = store_module.SqliteStore._connect

    def read_only(self):
        if self._memory is not None:
            return real(self)
        conn = sqlite3.connect(f"file:{os.path.realpath(self.path)}?mode=ro", uri=True, isolation_level=None,
                               check_same_thread=False)
        return store_module._Autocommit(conn)

    monkeypatch.setattr(store_module.SqliteStore, "_connect", read_only)
    with TestClient(create_app(url)) as client:
        health = client.get("/health")
        assert health.status_code == 200
        assert health.json()["status"] == "degraded"
        assert health.json()["database"] == {"reads": True, "writes": False}
        ready = client.get("/ready")
        is_error(ready, 503, "NotReady")
        assert ready.headers["Retry-After"]
        assert client.get(f"/games/{gid}").json()["seq"] == 0    # reads still work
        r = client.post("/games", json={})
        is_error(r, 503, "StoreUnavailable")
        assert r.headers["Retry-After"] and "readonly" not in r.text   # no internals
    with pytest.raises(StartupError, match="does not accept writes"):
        check_startup(url)


def test_a_postgresql_restart_is_recovered(postgres):
    url = postgres.fresh_database("bg_restart")
    with TestClient(create_app(url)) as client:
        gid = client.post("/games", json={}).json()["id"]
        assert client.get(f"/games/{gid}").status_code == 200
        postgres.restart()
        # the pool's connections died with the server: each is checked before use
        # and replaced, so the next requests succeed (a few tries while it starts)
        for _ in range(100):
            r = client.get(f"/games/{gid}")
            if r.status_code == 200:
                break
            is_error(r, 503, "StoreUnavailable")        # never a 500
            time.sleep(0.1)
        assert r.status_code == 200 and r.json()["seq"] == 0
        assert client.post("/games", json={}).status_code == 201
        assert client.get("/ready").status_code == 200


def test_ids_postgresql_cannot_store_are_404(postgres):
    url = postgres.fresh_database("bg_ids")
    with TestClient(create_app(url)) as client:
        is_error(client.get("/games/%00"), 404, "NotFound")
        is_error(client.get("/games/a%00b/actions"), 404, "NotFound")
        is_error(client.get("/rollouts/%00"), 404, "NotFound")
        is_error(client.delete("/rollouts/%00"), 404, "NotFound")


# ---------------------------------------------------------------- start-up

def _cli(*args, timeout=60):
    return subprocess.run([sys.executable, "-m", "backgammon", "serve", *args],
                          capture_output=True, text=True, timeout=timeout)


def test_start_up_failures_are_one_line_and_a_non_zero_exit(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        dead = s.getsockname()[1]       # nothing listens here once closed
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    cases = [f"postgresql://postgres@127.0.0.1:{dead}/nobody",   # the database is down
             f"sqlite:///{blocker}/games.sqlite3"]                 # the directory cannot be made
    for database in cases:
        r = _cli("--port", "1", "--database", database)
        assert r.returncode == 2, (r.stdout, r.stderr)
        assert "serving on" not in r.stdout
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("backgammon: error: "), r.stderr
        assert "Traceback" not in r.stderr


def test_a_missing_extra_is_named(monkeypatch, sqlite_url):
    monkeypatch.setitem(sys.modules, "uvicorn", None)    # import uvicorn fails
    with pytest.raises(StartupError, match=r"uvicorn missing.*backgammon\[server\]"):
        check_startup(sqlite_url)


# ---------------------------------------------------------------- real server processes

def _port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(database, port, workers=1, **env):
    import urllib.request
    environ = {**os.environ, **{f"BACKGAMMON_LIMIT_{k.upper()}": str(v) for k, v in env.items()}}
    proc = subprocess.Popen([sys.executable, "-m", "backgammon", "serve", "--port", str(port),
                             "--database", database, "--workers", str(workers)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environ,
                            start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            urllib.request.urlopen(base + "/health", timeout=1).read()
            return proc, base
        except OSError:
            if proc.poll() is not None:
                raise AssertionError(proc.stderr.read().decode()[-2000:])
            time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    raise AssertionError("the server did not start")


def _stop(proc):
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(20)


@pytest.mark.slow
def test_connections_half_sent_requests_and_forwarded_for(sqlite_url):
    import httpx
    port = _port()
    proc, base = _serve(sqlite_url, port, header_timeout=1, connections=4, games_per_minute=5)
    try:
        # a request whose headers never end is closed after the header timeout
        half = socket.create_connection(("127.0.0.1", port), timeout=15)
        half.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
        start = time.monotonic()
        assert half.recv(100) == b"" and time.monotonic() - start < 12
        half.close()
        # a client holds at most 4 connections: the fifth is answered 429 and closed
        held = [socket.create_connection(("127.0.0.1", port), timeout=15) for _ in range(4)]
        time.sleep(0.2)
        extra = socket.create_connection(("127.0.0.1", port), timeout=15)
        answer = extra.recv(1000)
        assert answer.startswith(b"HTTP/1.1 429") and b"retry-after" in answer.lower()
        for s in held + [extra]:
            s.close()
        time.sleep(0.2)
        # a request uvicorn cannot parse is answered with our JSON error too
        bad = socket.create_connection(("127.0.0.1", port), timeout=15)
        bad.sendall(b"GET / HTTP/1.1\r\nHost x\r\n\r\n")     # a header with no colon
        answer = bad.recv(1000)
        bad.close()
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 400") and b"application/json" in head, answer
        assert b'"error": "BadRequest"' in body
        # X-Forwarded-For from loopback is not believed (no proxy is trusted):
        # 5 new games a minute from this address (a token every 12 s, so a slow
        # machine cannot earn a sixth), whatever the header says
        with httpx.Client(base_url=base, timeout=20) as http:
            codes = [http.post("/games", json={},
                               headers={"X-Forwarded-For": f"198.51.100.{i}"}).status_code
                     for i in range(6)]
            assert codes == [201] * 5 + [429]
    finally:
        _stop(proc)


def _children(pid):
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_die_with_their_master_on_kill_9(sqlite_url):
    port = _port()
    proc, base = _serve(sqlite_url, port, workers=2)
    workers = []
    try:
        for _ in range(100):      # uvicorn's workers (and multiprocessing's helper)
            workers = _children(proc.pid)
            if len(workers) >= 2:
                break
            time.sleep(0.1)
        assert len(workers) >= 2
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and any(_alive(w) for w in workers):
            time.sleep(0.1)
        assert not any(_alive(w) for w in workers)
        again, _ = _serve(sqlite_url, port)      # the port is free: a new server starts
        _stop(again)
    finally:
        for w in workers:
            try:
                os.kill(w, signal.SIGKILL)
            except ProcessLookupError:
                pass
        _stop(proc)


# ---------------------------------------------------------------- the API contract

def test_openapi_declares_the_errors_sent_and_no_422(sqlite_url):
    with TestClient(create_app(sqlite_url)) as client:
        spec = client.get("/openapi.json").json()
    assert "HTTPValidationError" not in spec["components"]["schemas"]
    error = {"$ref": "#/components/schemas/ErrorMessage"}
    for path, operations in spec["paths"].items():
        for method, op in operations.items():
            codes = set(op["responses"])
            assert "422" not in codes, (method, path)
            assert {"405", "414", "500", "503"} <= codes, (method, path)
            if path not in ("/health", "/ready"):
                assert op["responses"]["429"]["headers"]["Retry-After"]
            if "{" in path:
                assert "404" in codes
            for code in codes - {"200", "201", "202"}:
                assert op["responses"][code]["content"]["application/json"]["schema"] == error


def test_contract_findings(sqlite_url):
    with TestClient(create_app(sqlite_url)) as client:
        # JSON's 0 and true are not booleans and integers
        is_error(client.post("/games", json={"crawford": 0}), 400)
        is_error(client.post("/games", json={"bot": {"seat": True}}), 400)
        g = client.post("/games", json={}).json()
        gid, t = g["id"], g["tokens"]
        bearer = {"Authorization": f"Bearer {t['0']}"}
        is_error(client.post(f"/games/{gid}/actions", json={"action": "roll", "seq": True},
                             headers=bearer), 400)
        # ... while 3.0 is an integer to JSON Schema, as to the server
        assert client.post("/games", json={"match_length": 3.0}).status_code == 201
        # 405 says what is allowed: every method of the path
        r = client.put("/games")
        is_error(r, 405)
        assert r.headers["Allow"] == "POST"
        assert client.put(f"/games/{gid}/actions").headers["Allow"] == "GET, POST"
        # a chunked body (no Content-Length) over the limit: 413, not a parse error
        chunks = (b"x" * 65536 for _ in range(40))
        is_error(client.post(f"/games/{gid}/actions", content=chunks,
                             headers={**bearer, "Content-Type": "application/json"}),
                 413, "PayloadTooLarge")
        # a long path is blamed on the path
        assert "path" in is_error(client.get("/" + "x" * 2000), 414)["message"]
        # these were 500s: a start beyond SQLite's integers, a superscript digit
        is_error(client.get(f"/games/{gid}/actions?start=9223372036854775808"), 400)
        is_error(client.get(f"/games/{gid}/turn?seat=0&steps=%C2%B2/1"), 400)
        # a start beyond the journal: no entries, and the game's own seq (0)
        assert client.get(f"/games/{gid}/actions?start=100").json() == \
            {"start": 100, "seq": 0, "entries": []}


def test_a_money_game_reports_its_points_and_resigning_waits_for_ones_turn(sqlite_url):
    with TestClient(create_app(sqlite_url)) as client:
        g = client.post("/games", json={"over_the_board": True}).json()
        gid, t = g["id"], g["tokens"]

        def act(seat, action, seq, **extra):
            return client.post(f"/games/{gid}/actions",
                               json={"action": action, "seq": seq, **extra},
                               headers={"Authorization": f"Bearer {t[seat]}"})

        # opening 3-1: player 0 (the higher die) plays 8/5 6/5; then player 1 is on roll
        assert act("0", "roll", 0, dice=[3, 1]).status_code == 200
        assert act("0", "play", 1, play="8/5 6/5").json()["player_to_act"] == 1
        # player 0 is not on turn: no resignation offered to a player thinking
        is_error(act("0", "resign", 2, points=1), 403, "Forbidden")
        # player 1 doubles, player 0 takes (cube 2), player 1 resigns a gammon, accepted:
        # 2 points times the cube, 4, to player 0
        assert act("1", "double", 2).status_code == 200
        assert act("0", "take", 3).status_code == 200
        assert act("1", "resign", 4, points=2).status_code == 200
        s = act("0", "accept", 5).json()
        assert s["over"] and s["result"]["points"] == 4 and s["score"] == [4, 0]


def test_a_retry_racing_its_original_on_another_worker_is_replayed(sqlite_url):
    """Two workers (two GameService on one store): the retry of a request reads
    the game before the original commits, then loses the race at the commit; it
    is answered "replayed" (the original applied it once), not 409."""
    from backgammon.server.games import GameService
    from backgammon.server.store import open_store
    store = open_store(sqlite_url)
    try:
        one = GameService(store)
        g = one.create({"over_the_board": True})
        gid, token = g["id"], g["tokens"]["0"]
        stale = store.game(gid)                      # what the retry's worker read: seq 0

        class ReadBeforeTheCommit:
            def __init__(self):
                self.first = True

            def __getattr__(self, name):
                return getattr(store, name)

            def game(self, game_id):
                if self.first:
                    self.first = False
                    return stale
                return store.game(game_id)

        two = GameService(ReadBeforeTheCommit())
        request = {"action": "roll", "seq": 0, "dice": [3, 1]}
        applied = one.act(gid, token, dict(request), key="k-1")
        retried = two.act(gid, token, dict(request), key="k-1")
        assert retried["replayed"] is True and retried["seq"] == applied["seq"] == 1
        assert len(store.entries(gid)) == 1          # applied once
    finally:
        store.close()


def test_cors_only_on_the_engine_routes_and_only_when_configured(sqlite_url):
    origin = {"Origin": "https://bots.example"}
    preflight = {**origin, "Access-Control-Request-Method": "GET"}
    with TestClient(create_app(sqlite_url)) as client:          # off by default
        r = client.options("/move", headers=preflight)
        assert r.status_code == 405 and r.headers["Allow"] == "GET"
        assert "access-control-allow-origin" not in client.get("/eval?p1=1&p24=-1",
                                                               headers=origin).headers
    with TestClient(create_app(sqlite_url, cors=("https://bots.example",))) as client:
        r = client.options("/move", headers={**preflight,
                                             "Access-Control-Request-Headers": "content-type"})
        assert r.status_code == 204
        assert r.headers["access-control-allow-origin"] == "https://bots.example"
        assert "GET" in r.headers["access-control-allow-methods"]
        r = client.get("/eval?p1=1&p24=-1", headers=origin)
        assert r.status_code == 200
        assert r.headers["access-control-allow-origin"] == "https://bots.example"
        # another origin, and the game routes, get no CORS at all
        other = client.get("/eval?p1=1&p24=-1", headers={"Origin": "https://evil.example"})
        assert "access-control-allow-origin" not in other.headers
        games = client.options("/games", headers=preflight)
        assert games.status_code == 405 and "access-control-allow-origin" not in games.headers
    with pytest.raises(ValueError, match="CORS origin"):
        create_app(sqlite_url, cors=("https://bots.example/path",))


def test_bad_settings_in_the_environment_are_one_line(sqlite_url):
    for name, value in (("BACKGAMMON_LIMIT_SOCKETS", "-1"),
                        ("BACKGAMMON_LIMIT_TRUSTED_PROXIES", "proxy.example"),
                        ("BACKGAMMON_CORS_ORIGINS", "bots.example")):
        r = subprocess.run([sys.executable, "-m", "backgammon", "serve", "--port", "1",
                            "--database", sqlite_url], capture_output=True, text=True,
                           timeout=60, env={**os.environ, name: value})
        assert r.returncode == 2 and "serving on" not in r.stdout, r.stderr
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_only_its_holder_cancels_a_job(sqlite_url):
    app = create_app(sqlite_url)
    long = {"games": 1296 * 100, "policy": "pubeval"}
    with TestClient(app, client=("192.0.2.1", 1)) as mine, \
            TestClient(app, client=("192.0.2.9", 1)) as other:
        first = mine.post("/rollouts", json=long).json()
        second = mine.post("/rollouts", json=long).json()
        assert other.get(f"/rollouts/{first['id']}").status_code == 200   # the id reads it
        is_error(other.delete(f"/rollouts/{first['id']}"), 403, "Forbidden")
        is_error(other.delete(f"/rollouts/{first['id']}",
                              headers={"Authorization": "Bearer forged"}), 403)
        # its token cancels it from anywhere; its client address does too
        r = other.delete(f"/rollouts/{first['id']}",
                         headers={"Authorization": f"Bearer {first['token']}"})
        assert r.status_code == 200 and r.json()["status"] in ("cancelled", "running")
        assert mine.delete(f"/rollouts/{second['id']}").status_code == 200
        for job in (first, second):
            assert _wait_status(mine, job["id"], {"cancelled"})["status"] == "cancelled"


@pytest.mark.slow
def test_schemathesis_finds_nothing(sqlite_url, tmp_path):
    """schemathesis (every check, a fixed seed) against /openapi.json of a real
    server: the declared responses, statuses, headers and bodies hold."""
    import shutil
    st = shutil.which("schemathesis") or shutil.which("st")
    if st is None:
        if CI:
            pytest.fail("CI needs schemathesis (the test extra)")
        pytest.skip("schemathesis is not installed")
    port = _port()
    proc, base = _serve(sqlite_url, port, requests_per_minute=10**6,
                        cpu_seconds_per_minute=10**6, concurrent_requests=1000)
    try:
        config = os.path.join(os.path.dirname(__file__), "server_schemathesis.toml")
        run = subprocess.run([st, "--config-file", config, "run", f"{base}/openapi.json",
                              "--checks", "all", "--seed", "1", "--max-examples", "10",
                              "--workers", "1", "--phases", "examples,coverage,fuzzing"],
                             capture_output=True, text=True, timeout=600, cwd=tmp_path)
        assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    finally:
        _stop(proc)


def test_deep_searches_at_once_are_bounded_for_all_clients(sqlite_url, monkeypatch):
    from backgammon.server import engine
    entered, release = threading.Event(), threading.Event()
    real = engine.move_response

    def slow(*args, **kwargs):
        entered.set()
        release.wait(20)
        return real(*args, **kwargs)

    monkeypatch.setattr(engine, "move_response", slow)
    app = create_app(sqlite_url, limits=Limits(deep_searches=1))
    with TestClient(app, client=("192.0.2.1", 1)) as one, \
            TestClient(app, client=("192.0.2.2", 1)) as two:
        first = []
        worker = threading.Thread(target=lambda: first.append(one.get(f"/move?{OPENING}&ply=1")))
        worker.start()
        try:
            assert entered.wait(20)
            # another client's deep search waits for a place: 503 with Retry-After
            r = two.get("/cube?p1=1&p24=-1&ply=1")
            is_error(r, 503, "Busy")
            assert r.headers["Retry-After"] == "1"
            # ply 0 needs no place, nor do games and probes
            assert two.get("/eval?p1=1&p24=-1").status_code == 200
            assert two.post("/games", json={}).status_code == 201
        finally:
            release.set()
            worker.join(30)
        assert first[0].status_code == 200
        assert two.get("/cube?p1=1&p24=-1&ply=1").status_code == 200   # the place is back


def test_a_refused_client_is_logged_once_a_minute(sqlite_url, caplog):
    import logging
    app = create_app(sqlite_url, limits=Limits(requests_per_minute=1))
    with caplog.at_level(logging.WARNING, logger="backgammon.server"), \
            TestClient(app, client=("192.0.2.77", 1)) as one:
        one.get("/games/none")
        for _ in range(3):
            assert one.get("/games/none").status_code == 429
    lines = [r.getMessage() for r in caplog.records if "192.0.2.77" in r.getMessage()]
    assert lines == ["client 192.0.2.77 is over its budget of requests a minute: "
                     "refused (429) for now"]


def test_the_page_has_its_headers_and_a_favicon(sqlite_url):
    with TestClient(create_app(sqlite_url)) as client:
        for path in ("/", "/client.js"):
            r = client.get(path)
            assert r.status_code == 200
            csp = r.headers["Content-Security-Policy"]
            assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
            assert r.headers["X-Frame-Options"] == "DENY"
            assert r.headers["X-Content-Type-Options"] == "nosniff"
        assert 'rel="icon" href="/favicon.svg"' in client.get("/").text
        icon = client.get("/favicon.svg")
        assert icon.status_code == 200 and icon.text.startswith("<svg")
        assert client.get("/favicon.ico").status_code == 204


@pytest.mark.parametrize("module", ["backgammon.server.limits", "backgammon.server.store",
                                    "backgammon.server.games", "backgammon.server.app",
                                    "backgammon.server.jobs", "backgammon.server.process"])
def test_docstring_examples_of_the_server(module):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_a_read_only_postgresql_is_answered_503(postgres):
    import psycopg
    url = postgres.fresh_database("bg_read_only")
    with TestClient(create_app(url)) as client:
        gid = client.post("/games", json={}).json()["id"]
        with psycopg.connect(postgres.url, autocommit=True) as conn:   # as a hot standby is
            conn.execute('ALTER DATABASE "bg_read_only" SET default_transaction_read_only = on')
    try:
        with TestClient(create_app(url)) as client:
            assert client.get(f"/games/{gid}").json()["seq"] == 0
            r = client.post("/games", json={})
            is_error(r, 503, "StoreUnavailable")
            assert r.headers["Retry-After"]
            is_error(client.get("/ready"), 503, "NotReady")
            assert client.get("/health").json()["database"] == {"reads": True, "writes": False}
    finally:
        with psycopg.connect(postgres.url, autocommit=True) as conn:
            conn.execute('ALTER DATABASE "bg_read_only" SET default_transaction_read_only = off')


def test_the_docs_work_offline_with_the_operators_assets(sqlite_url, tmp_path, monkeypatch):
    from backgammon.server import app as app_module
    monkeypatch.setattr(app_module, "bundled_docs_assets", lambda: None)
    with TestClient(create_app(sqlite_url)) as client:     # no local copy: FastAPI's CDN
        assert "cdn.jsdelivr.net" in client.get("/docs").text
    (tmp_path / "swagger-ui-bundle.js").write_text("window.SwaggerUIBundle = 1;")
    (tmp_path / "swagger-ui.css").write_text("body {}")
    monkeypatch.setenv("BACKGAMMON_DOCS_ASSETS", str(tmp_path))
    with TestClient(create_app(sqlite_url)) as client:
        page = client.get("/docs").text
        assert "cdn." not in page and "/docs-assets/swagger-ui-bundle.js" in page
        js = client.get("/docs-assets/swagger-ui-bundle.js")
        assert js.text == "window.SwaggerUIBundle = 1;" and "javascript" in js.headers["content-type"]
        assert client.get("/docs-assets/swagger-ui.css").headers["content-type"].startswith("text/css")
        is_error(client.get("/docs-assets/..%2Fgames.sqlite3"), 404)
        is_error(client.get("/docs-assets/index.html"), 404)
        # no ReDoc in this directory: neither its page nor its script
        assert client.get("/redoc").status_code == 404
        is_error(client.get("/docs-assets/redoc.standalone.js"), 404)
    monkeypatch.setenv("BACKGAMMON_DOCS_ASSETS", str(tmp_path / "nowhere"))
    with pytest.raises(ValueError, match="swagger-ui-bundle.js"):
        create_app(sqlite_url)


def test_the_docs_work_offline_with_the_server_extra(sqlite_url):
    # the server extra installs fastapi-offline: its Swagger UI and ReDoc, served here
    import importlib.util
    if importlib.util.find_spec("fastapi_offline") is None:
        if os.environ.get("CI") == "true":
            raise AssertionError("fastapi-offline (the server extra) is not installed")
        pytest.skip("fastapi-offline is not installed (pip install backgammon[server])")
    with TestClient(create_app(sqlite_url)) as client:
        for route, script in (("/docs", "/docs-assets/swagger-ui-bundle.js"),
                              ("/redoc", "/docs-assets/redoc.standalone.js")):
            page = client.get(route)
            assert page.status_code == 200 and script in page.text and "cdn." not in page.text
            js = client.get(script)
            assert js.status_code == 200 and "javascript" in js.headers["content-type"]
            assert len(js.content) > 100_000          # the real library, not a stand-in
        css = client.get("/docs-assets/swagger-ui.css")
        assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")


def test_websocket_handshakes_count_as_requests(sqlite_url):
    from starlette.websockets import WebSocketDisconnect
    app = create_app(sqlite_url, limits=Limits(requests_per_minute=2))
    with TestClient(app, client=("192.0.2.1", 1)) as one:
        gid = one.post("/games", json={}).json()["id"]                  # request 1
        with one.websocket_connect(f"/games/{gid}/events") as first:    # request 2
            assert first.receive_json()["type"] == "state"
        with one.websocket_connect(f"/games/{gid}/events") as second:   # over: closed 1013
            with pytest.raises(WebSocketDisconnect) as closed:
                second.receive_json()
        assert closed.value.code == 1013 and "retry after 30 s" in closed.value.reason
