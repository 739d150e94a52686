"""The service (issue 19): backgammon.server against SQLite and a real PostgreSQL.

Every test that takes ``client`` runs once per database.  The wildbg routes are
checked against hand-worked answers in the shapes of wildbg's published
OpenAPI (``MoveResponse``, ``EvalResponse``, ``ErrorMessage``).
"""

import os
import random
import threading
import time
import warnings

import pytest

fastapi = pytest.importorskip("fastapi", reason="the server extra is not installed")

import backgammon as bg  # noqa: E402
from backgammon.server import create_app  # noqa: E402
from backgammon.server.app import MAX_BODY, MAX_QUERY  # noqa: E402

import pgcluster  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

CI = os.environ.get("CI") == "true"
INITIAL = {"p24": 2, "p13": 5, "p8": 3, "p6": 5, "p1": -2, "p12": -5, "p17": -3, "p19": -5}


@pytest.fixture(scope="session")
def postgres():
    cluster, why = pgcluster.start()
    if cluster is None:
        if CI:
            pytest.fail(f"CI needs PostgreSQL for the server tests: {why}")
        pytest.skip(why)
    yield cluster
    cluster.stop()


@pytest.fixture(scope="session")
def postgres_url(postgres):
    return postgres.fresh_database("bg_suite")


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/games.sqlite3"
    return request.getfixturevalue("postgres_url")


@pytest.fixture(autouse=True)
def _games_unlimited(monkeypatch):
    # the limit on new games is shared through the database, and the PostgreSQL
    # database is the session's: the tests' games must not count against each other
    # (the tests of the limit set their own)
    monkeypatch.setenv("BACKGAMMON_LIMIT_GAMES_PER_MINUTE", "1000000")
    # likewise the per-client budgets (issue 37): every test client is one address,
    # and a whole match played to the end is more than a player's minute of requests
    # (tests/test_server_hostile.py tests the budgets with limits of its own)
    monkeypatch.setenv("BACKGAMMON_LIMIT_REQUESTS_PER_MINUTE", "1000000")
    monkeypatch.setenv("BACKGAMMON_LIMIT_CPU_SECONDS_PER_MINUTE", "1000000")


@pytest.fixture
def client(database):
    with TestClient(create_app(database)) as c:
        c.database = database
        yield c


def query(**params):
    return "&".join(f"{k}={v}" for k, v in params.items())


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def act(client, gid, token, action, seq, **extra):
    return client.post(f"/games/{gid}/actions", json={"action": action, "seq": seq, **extra},
                       headers=auth(token))


def is_error(r, status, name=None):
    body = r.json()
    assert r.status_code == status, (r.status_code, body)
    assert set(body) >= {"error", "message"} and isinstance(body["message"], str)
    assert "Traceback" not in r.text
    if name:
        assert body["error"] == name, body
    return body


# ---------------------------------------------------------------- wildbg: GET /move

def test_move_opening_31_hand_worked(client):
    r = client.get("/move?" + query(die1=3, die2=1, **INITIAL))
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    moves = r.json()["moves"]
    assert len(moves) == 16                              # the 16 plays of 3-1 at the start
    best = moves[0]
    # the best opening 3-1 makes the 5 point: 8/5 6/5 (every engine and book agrees)
    assert sorted((d["from"], d["to"]) for d in best["play"]) == [(6, 5), (8, 5)]
    for m in moves:
        assert set(m) == {"play", "probabilities"}
        p = m["probabilities"]
        assert set(p) == {"win", "winG", "winBg", "loseG", "loseBg"}
        assert 0 <= p["winBg"] <= p["winG"] <= p["win"] <= 1 and 0 <= p["loseBg"] <= p["loseG"]
        assert p["loseG"] <= 1 - p["win"] + 1e-6
        assert all(set(d) == {"from", "to"} and 1 <= d["from"] <= 25 and 0 <= d["to"] <= 24
                   and 1 <= d["from"] - d["to"] <= 6 for d in m["play"])
    # ranked best first by cubeless equity of the mover
    eq = [2 * p["win"] - 1 + p["winG"] - p["loseG"] + p["winBg"] - p["loseBg"]
          for p in (m["probabilities"] for m in moves)]
    assert eq == sorted(eq, reverse=True)


def test_move_forced_and_double_rolls(client):
    # wildbg's own cases: one checker on 5 with 3-1 has a single play, to the 1 point
    (only,) = client.get("/move?die1=3&die2=1&p5=1&p24=-1").json()["moves"]
    steps = [(d["from"], d["to"]) for d in only["play"]]
    assert steps[0][0] == 5 and steps[-1][1] == 1 and len(steps) == 2
    # two checkers on 5 with 1-1: four single pips shared between them: ends
    # {5, 1}, {4, 2} and {3, 3} (no checker can bear off: that takes five pips)
    moves = client.get("/move?die1=1&die2=1&p5=2&p24=-1").json()["moves"]
    ends = set()
    for m in moves:
        board = {5: 2}
        assert len(m["play"]) == 4
        for d in m["play"]:
            board[d["from"]] -= 1
            board[d["to"]] = board.get(d["to"], 0) + 1
        ends.add(tuple(sorted(p for p, n in board.items() for _ in range(n))))
    assert ends == {(1, 5), (2, 4), (3, 3)} and len(moves) == 3


def test_move_no_legal_move_is_one_empty_play(client):
    # player on the bar against a closed board: 6-6 cannot enter
    # (the player enters on 25 - die: the opponent holds 19-24)
    closed = {"p25": 1, "p1": 14, "p19": -2, "p20": -2, "p21": -2, "p22": -2, "p23": -2,
              "p24": -2, "p18": -3}
    (only,) = client.get("/move?" + query(die1=6, die2=6, **closed)).json()["moves"]
    assert only["play"] == []


def test_move_errors_are_wildbg_error_messages(client):
    assert "die1" in is_error(client.get("/move?p24=2"), 400, "InvalidDiceError")["message"]
    is_error(client.get("/move?die1=2&die2=0&p4=4&p5=-5"), 400)
    assert "p25" in is_error(client.get("/move?die1=2&die2=1&p4=4&p5=-5&p25=-2"), 400)["message"]
    assert "p0" in is_error(client.get("/eval?p0=1&p4=4&p5=-5"), 400)["message"]
    is_error(client.get("/move?die1=2&die2=1&p4=16&p5=-5"), 400)
    is_error(client.get("/eval?p4=15&p5=10&p6=-5"), 400, "InvalidPositionError")   # 25 checkers
    is_error(client.get("/move?die1=3&die2=1&x_away=3&o_away=0" + "&p24=2&p1=-2"), 400)
    is_error(client.get("/move?die1=3&die2=1&p24=two"), 400)


def test_move_takes_ids_and_match_scores(client):
    by_id = client.get("/move?die1=3&die2=1&position=4HPwATDgc/ABMA").json()
    by_points = client.get("/move?" + query(die1=3, die2=1, **INITIAL)).json()
    assert by_id == by_points
    # an XGID carries its dice (5-2 here)
    xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"
    moves = client.get(f"/move?position={xgid}").json()["moves"]
    assert {sum(d["from"] - d["to"] for d in m["play"]) for m in moves} == {7}
    is_error(client.get(f"/move?position={xgid}&p24=2"), 400)
    # at a match score the plays are ranked by match winning chance (here DMP:
    # only wins count, gammons are worth nothing)
    dmp = client.get("/move?" + query(die1=3, die2=1, x_away=1, o_away=1, **INITIAL)).json()
    wins = [m["probabilities"]["win"] for m in dmp["moves"]]
    assert wins == sorted(wins, reverse=True)


# ---------------------------------------------------------------- wildbg: GET /eval, ours: /cube

def test_eval_opening_and_a_cash(client):
    r = client.get("/eval?" + query(**INITIAL)).json()
    assert set(r) == {"cube", "probabilities"} and set(r["cube"]) == {"double", "accept"}
    assert r["cube"] == {"double": False, "accept": True}     # nobody doubles the opening
    assert 0.45 < r["probabilities"]["win"] < 0.6
    # one checker left on the 1 point: it bears off with any roll and wins a
    # single game (the opponent is bearing off, no gammon): double, pass
    cash = client.get("/eval?p1=1&p24=-1").json()
    assert cash["cube"] == {"double": True, "accept": False}
    assert cash["probabilities"]["win"] > 0.99
    full = client.get("/cube?p1=1&p24=-1").json()
    assert full["action"] == "Double, pass" and full["double_pass"] == 1.0
    assert bg.CubeDecision.from_dict(full).action == "Double, pass"
    # the Crawford game has no cube
    craw = client.get("/cube?p1=1&p24=-1&x_away=2&o_away=1").json()
    assert craw["available"] is False and "Crawford" in craw["action"]


def test_openapi_and_docs(client):
    spec = client.get("/openapi.json").json()
    move = spec["paths"]["/move"]["get"]
    names = {p["name"] for p in move["parameters"]}
    assert {f"p{i}" for i in range(26)} | {"die1", "die2", "x_away", "o_away", "ply"} <= names
    assert "/eval" in spec["paths"] and "/games/{game_id}/actions" in spec["paths"]
    schemas = spec["components"]["schemas"]
    assert set(schemas["Probabilities"]["properties"]) == {"win", "winG", "winBg", "loseG", "loseBg"}
    assert set(schemas["MoveDetail"]["properties"]) == {"from", "to"}
    assert client.get("/docs").status_code == 200


# ---------------------------------------------------------------- games

def test_create_and_state(client):
    r = client.post("/games", json={"match_length": 5, "bot": {"seat": 1, "ply": 0}})
    assert r.status_code == 201
    created = r.json()
    assert set(created["tokens"]) == {"0"}                     # no token for the bot's seat
    s = client.get(f"/games/{created['id']}").json()
    for key in ("seq", "phase", "player_to_act", "dice", "cube", "cube_owner", "score",
                "match_length", "position_id", "match_id", "legal_actions", "board"):
        assert key in s
    assert s["seq"] == 0 and s["phase"] == "opening" and s["player_to_act"] is None
    assert s["score"] == [0, 0] and s["match_length"] == 5 and s["cube"] == 1
    assert s["position_id"] == "4HPwATDgc/ABMA" and s["legal_actions"] == ["roll", "resign"]
    assert s["board"] == bg.Position.initial().tolist()
    two = client.post("/games", json={}).json()
    assert set(two["tokens"]) == {"0", "1"} and two["tokens"]["0"] != two["tokens"]["1"]
    is_error(client.post("/games", json={"match_length": 3, "rules": {"jacoby": True}}), 400,
             "InvalidRulesError")
    is_error(client.post("/games", json={"bot": {"seat": 2}}), 400)
    is_error(client.post("/games", json={"match_length": 31, "bot": {"seat": 1}}), 400,
             "InvalidSetupError")
    is_error(client.post("/games", json={"colour": "red"}), 400)
    is_error(client.get("/games/nope"), 404, "NotFound")


def test_over_the_board_dice_and_tokens(client):
    g = client.post("/games", json={"over_the_board": True}).json()
    gid, t0, t1 = g["id"], g["tokens"]["0"], g["tokens"]["1"]
    is_error(act(client, gid, t0, "roll", 0), 400)             # the players give the dice
    is_error(act(client, gid, "forged", "roll", 0, dice=[3, 1]), 403, "Forbidden")
    r = act(client, gid, t1, "roll", 0, dice=[3, 1])           # either seat rolls the opening
    s = r.json()
    # opening dice (player 0's 3, player 1's 1): player 0 is higher and plays 3-1
    assert r.status_code == 200 and s["turn"] == 0 and s["dice"] == [3, 1] and s["seq"] == 1
    assert s["phase"] == "move" and s["player_to_act"] == 0
    assert "8/5 6/5" in [p["play"] for p in s["legal_plays"]]
    is_error(act(client, gid, t1, "play", 1, play="8/5 6/5"), 403)  # not seat 1's decision
    is_error(act(client, gid, t0, "play", 1, play="8/3"), 400)  # 5 pips with 3-1
    s = act(client, gid, t0, "play", 1, play="8/5 6/5").json()
    assert s["seq"] == 2 and s["player_to_act"] == 1
    # the board is seen by the player to act: player 1 sees its own 24 point as p24
    # and player 0's 8, 6 and 5 points (now 2, 4, 2 checkers) as p17, p19, p20
    assert s["board"][24] == 2 and (s["board"][17], s["board"][19], s["board"][20]) == (-2, -4, -2)
    is_error(act(client, gid, t0, "roll", 2, dice=[6, 6]), 403)


def test_server_dice_and_journal_survive_a_restart(client, tmp_path):
    g = client.post("/games", json={}).json()
    gid, t = g["id"], g["tokens"]
    s = act(client, gid, t["0"], "roll", 0).json()
    while s["phase"] == "opening":                              # a tie rolls again
        s = act(client, gid, t["0"], "roll", s["seq"]).json()
    assert s["dice"] is not None
    journal = client.get(f"/games/{gid}/actions").json()
    assert journal["seq"] == s["seq"] and journal["entries"][-1]["kind"] == "opening"
    d0, d1 = journal["entries"][-1]["value"]
    assert d0 != d1 and sorted(s["dice"]) == sorted([d0, d1])
    # a new server process on the same database: the same game, dice and all
    with TestClient(create_app(client.database)) as again:
        assert again.get(f"/games/{gid}").json() == s


def test_seq_and_idempotency(client):
    g = client.post("/games", json={}).json()
    gid, t = g["id"], g["tokens"]
    headers = {**auth(t["0"]), "Idempotency-Key": "k-1"}
    first = client.post(f"/games/{gid}/actions", json={"action": "roll", "seq": 0},
                        headers=headers)
    assert first.status_code == 200
    seq = first.json()["seq"]
    # the same request again (a retry after a lost reply): applied once, state returned
    again = client.post(f"/games/{gid}/actions", json={"action": "roll", "seq": 0},
                        headers=headers)
    assert again.status_code == 200 and again.json()["replayed"] is True
    assert again.json()["seq"] == seq
    # without the key, or with another one, a stale seq is a conflict
    stale = is_error(act(client, gid, t["0"], "roll", 0), 409, "SeqMismatch")
    assert stale["seq"] == seq
    is_error(client.post(f"/games/{gid}/actions", json={"action": "roll", "seq": 0},
                         headers={**auth(t["0"]), "Idempotency-Key": "other"}), 409)
    is_error(act(client, gid, t["0"], "roll", seq + 5), 409)
    assert client.get(f"/games/{gid}/actions").json()["seq"] == seq


def test_two_requests_racing_on_one_game(client):
    """Of many requests with the same seq, sent at once, exactly one is applied."""
    g = client.post("/games", json={}).json()
    gid, t = g["id"], g["tokens"]
    barrier = threading.Barrier(6)
    codes = []

    def go():
        barrier.wait()
        codes.append(act(client, gid, t["0"], "roll", 0).status_code)

    threads = [threading.Thread(target=go) for _ in range(6)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    assert sorted(codes) == [200] + [409] * 5
    assert client.get(f"/games/{gid}/actions").json()["seq"] == 1


def _human_turn(s, rng):
    acts = s["legal_actions"]
    if "play" in acts:
        return {"action": "play", "play": rng.choice(s["legal_plays"])["play"]}
    for a in ("take", "accept", "roll"):
        if a in acts:
            return {"action": a}
    raise AssertionError(f"nothing to do: {acts}")


def test_a_match_against_the_bot_to_the_end_and_exports(client):
    g = client.post("/games", json={"match_length": 3, "bot": {"seat": 1, "ply": 0}}).json()
    gid, token = g["id"], g["tokens"]["0"]
    rng = random.Random(5)
    s = client.get(f"/games/{gid}").json()
    for _ in range(400):
        if s["over"]:
            break
        assert s["player_to_act"] in (0, None)                  # the bot has answered
        r = act(client, gid, token, seq=s["seq"], **_human_turn(s, rng))
        assert r.status_code == 200, r.json()
        s = r.json()
    assert s["over"] and max(s["score"]) >= 3 and s["winner"] in (0, 1)
    assert s["legal_actions"] == []
    mat = client.get(f"/games/{gid}/export?format=mat")
    assert mat.status_code == 200 and "3 point match" in mat.text
    match = bg.Match.from_mat(mat.text)
    assert match.score == tuple(s["score"]) and match.winner == s["winner"]
    sgf = client.get(f"/games/{gid}/export?format=sgf").text
    assert bg.Match.from_sgf(sgf).score == tuple(s["score"])
    record = client.get(f"/games/{gid}/export?format=json")
    assert bg.Match.from_json(record.text).score == tuple(s["score"])
    journal = client.get(f"/games/{gid}/actions").json()
    assert journal["seq"] == s["seq"] == len(journal["entries"])
    is_error(client.get(f"/games/{gid}/export?format=doc"), 400)


def test_resign_and_the_bot_answers(client):
    g = client.post("/games", json={"bot": {"seat": 1, "ply": 0}}).json()
    gid, token = g["id"], g["tokens"]["0"]
    # resigning a gammon before the opening: the bot (even, at the start) accepts 2 points
    s = act(client, gid, token, "resign", 0, points=2).json()
    assert s["over"] and s["result"] == {"winner": 1, "points": 2, "kind": "gammon",
                                         "reason": "resign", "cube": 1}
    assert s["winner"] == 1


def test_malformed_requests_are_4xx_and_json(client):
    g = client.post("/games", json={}).json()
    gid, t = g["id"], g["tokens"]["0"]
    url = f"/games/{gid}/actions"
    is_error(client.post(url, content=b"{not json", headers={**auth(t), "Content-Type":
                                                             "application/json"}), 400)
    is_error(client.post(url, json=[1, 2], headers=auth(t)), 400)
    is_error(client.post(url, json={"action": "fly", "seq": 0}, headers=auth(t)), 400)
    is_error(client.post(url, json={"action": "roll", "seq": -1}, headers=auth(t)), 400)
    is_error(client.post(url, json={"action": "roll"}, headers=auth(t)), 400)
    is_error(client.post(url, json={"action": "roll", "seq": 0, "x": 1}, headers=auth(t)), 400)
    is_error(client.post(url, json={"action": "roll", "seq": 0}), 403)
    is_error(client.post(url, json={"action": "roll", "seq": 0},
                         headers={"Authorization": "Basic abc"}), 403)
    is_error(client.post(url, content=b"x" * (MAX_BODY + 1),
                         headers={**auth(t), "Content-Type": "application/json"}), 413)
    is_error(client.get("/eval?" + "p1=1&" * (MAX_QUERY // 4)), 414)
    is_error(client.get("/games/" + "x" * 100), 404)
    is_error(client.post(f"/games/{gid}/actions", json={"action": "play", "seq": 0, "play": "8/5"},
                         headers=auth(t)), 400, "IllegalActionError")
    is_error(client.get("/nowhere"), 404)
    is_error(client.put("/games"), 405)
    # and the server goes on serving
    assert client.get(f"/games/{gid}").json()["seq"] == 0


def test_websocket_events(client):
    g = client.post("/games", json={"over_the_board": True}).json()
    gid, t = g["id"], g["tokens"]
    with client.websocket_connect(f"/games/{gid}/events") as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and first["state"]["seq"] == 0
        act(client, gid, t["0"], "roll", 0, dice=[6, 1])
        event = ws.receive_json()
        assert event["type"] == "actions" and event["start"] == 0
        assert event["entries"] == [{"game": 0, "player": None, "kind": "opening", "value": [6, 1]}]
        assert event["state"]["seq"] == 1 and event["state"]["dice"] == [6, 1]
    with pytest.raises(Exception):
        with client.websocket_connect("/games/missing/events") as ws:
            ws.receive_json()


def test_click_to_move_turn(client):
    g = client.post("/games", json={"over_the_board": True}).json()
    gid, t = g["id"], g["tokens"]
    act(client, gid, t["0"], "roll", 0, dice=[3, 1])
    turn = client.get(f"/games/{gid}/turn?seat=0").json()
    # 3-1 from the start: single steps 24/21 24/23 13/10 8/5 8/7 6/3 6/5 (not 13/12:
    # the 12 point is the opponent's midpoint)
    assert sorted(map(tuple, turn["legal_moves"])) == sorted(
        [(24, 21), (24, 23), (13, 10), (8, 5), (8, 7), (6, 3), (6, 5)])
    assert turn["svg"].startswith("<svg") and not turn["complete"]
    after = client.get(f"/games/{gid}/turn?seat=0&steps=8/5").json()
    # with the 1 left: 24/23 8/7 6/5 5/4 (the checker just moved on, too)
    assert sorted(map(tuple, after["legal_moves"])) == [(5, 4), (6, 5), (8, 7), (24, 23)]
    done = client.get(f"/games/{gid}/turn?seat=0&steps=8/5 6/5").json()
    assert done["complete"] and done["legal_moves"] == []
    is_error(client.get(f"/games/{gid}/turn?seat=0&steps=8/2"), 400)
    is_error(client.get(f"/games/{gid}/turn?seat=1&steps=8/5"), 400)
    assert client.get(f"/games/{gid}/board.svg?seat=1").text.startswith("<svg")


# ---------------------------------------------------------------- rollouts, analysis

def _wait(client, job_id, statuses, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        job = client.get(f"/rollouts/{job_id}").json()
        if job["status"] in statuses:
            return job
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} still {job['status']}")


def test_rollout_job(client):
    r = client.post("/rollouts", json={"games": 72, "seed": 3, "policy": "pubeval"})
    assert r.status_code == 202
    job = _wait(client, r.json()["id"], {"done", "failed"})
    assert job["status"] == "done" and job["done"] == job["total"] == 72
    result = bg.RolloutResult.from_dict(job["result"])
    again = bg.rollout(bg.Position.initial(), games=72, seed=3, policy="pubeval")
    assert result.equity == again.equity                        # same seed, same games
    is_error(client.post("/rollouts", json={"position": "nonsense"}), 400)
    is_error(client.post("/rollouts", json={"games": 10**9}), 400)
    is_error(client.get("/rollouts/none"), 404)


def test_rollout_cancel(client):
    r = client.post("/rollouts", json={"games": 1296 * 100, "policy": "pubeval"}).json()
    client.delete(f"/rollouts/{r['id']}")
    job = _wait(client, r["id"], {"cancelled", "done"})
    assert job["status"] == "cancelled"


UPLOAD = {"X-Requested-With": "test"}   # an upload is never a CORS-simple request (issue 37)


def test_analyse_upload(client):
    m = bg.Match(1, rng=3)
    m.names = ("Ann", "Bob")
    while not m.over:
        game = m.game
        if game.phase.value in ("opening", "roll"):
            game.roll()
        else:
            game.play(game.position.best_play(game.dice))
    text = m.to_mat()
    r = client.post("/analyse", headers=UPLOAD, files={"file": ("m.mat", text, "text/plain")})
    assert r.status_code == 200, r.json()
    data = r.json()
    assert data["names"] == ["Ann", "Bob"] and data["match_length"] == 1
    assert bg.Analysis.from_dict(data).names == ("Ann", "Bob")
    page = client.post("/analyse?format=html", headers=UPLOAD, files={"file": ("m.sgf", m.to_sgf())})
    assert page.status_code == 200 and page.text.startswith("<!DOCTYPE html>")
    is_error(client.post("/analyse", headers=UPLOAD, files={"file": ("x.mat", "garbage\n")}), 400,
             "InvalidRecordError")
    is_error(client.post("/analyse", headers=UPLOAD, files={"file": ("x.mat", "x" * (2 << 20))}), 413)


def test_page_is_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "<script" in page.text
    assert client.get("/client.js").status_code == 200


# ---------------------------------------------------------------- real server processes

def _serve(database, workers=1):
    """``backgammon serve`` on a free loopback port; (process, base URL)."""
    import socket
    import subprocess
    import sys
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "backgammon", "serve", "--port", str(port),
                             "--database", database, "--workers", str(workers)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    for _ in range(400):
        try:
            urllib.request.urlopen(base + "/health", timeout=1).read()
            return proc, base
        except OSError:
            if proc.poll() is not None:
                raise AssertionError(proc.stderr.read().decode()[-2000:])
            time.sleep(0.05)
    proc.kill()
    raise AssertionError("the server did not start")


def _stop(proc, sig=None):
    import signal
    os.killpg(proc.pid, sig or signal.SIGTERM)
    proc.wait(20)


def test_kill_9_and_restart_resume_at_the_last_acknowledged_action(tmp_path):
    import signal

    import httpx

    database = f"sqlite:///{tmp_path}/games.sqlite3"
    proc, base = _serve(database)
    try:
        http = httpx.Client(base_url=base, timeout=10)
        g = http.post("/games", json={}).json()
        gid, t = g["id"], g["tokens"]
        s = http.get(f"/games/{gid}").json()
        acked = []
        for _ in range(12):                          # roll and play, both seats
            seat = str(s["player_to_act"] if s["player_to_act"] is not None else 0)
            if s["phase"] == "move":
                body = {"action": "play", "play": s["legal_plays"][0]["play"]}
            else:
                body = {"action": "roll"}
            r = http.post(f"/games/{gid}/actions", json={**body, "seq": s["seq"]},
                          headers=auth(t[seat]))
            assert r.status_code == 200
            s = r.json()
            acked.append(s)
    finally:
        _stop(proc, signal.SIGKILL)
    proc, base = _serve(database)
    try:
        http = httpx.Client(base_url=base, timeout=10)
        again = http.get(f"/games/{gid}").json()
        assert again == acked[-1]                     # the same state: position, dice, seq
        journal = http.get(f"/games/{gid}/actions").json()
        assert journal["seq"] == acked[-1]["seq"] == len(journal["entries"])
        # the dice stream: each roll in the journal is the one its reply showed
        for a in acked:
            entry = journal["entries"][a["seq"] - 1]
            if entry["kind"] == "roll":
                assert entry["value"] == a["dice"]
        assert any(e["kind"] == "roll" for e in journal["entries"])
    finally:
        _stop(proc)


def test_workers_sharing_postgresql_lose_no_update(postgres):
    """Two uvicorn workers on one PostgreSQL: racing requests on one game, one
    applied each round; a WebSocket on either worker sees every action."""
    import httpx

    database = postgres.fresh_database("bg_workers")
    proc, base = _serve(database, workers=2)
    try:
        http = httpx.Client(base_url=base, timeout=20,
                            limits=httpx.Limits(max_keepalive_connections=0))
        g = http.post("/games", json={"over_the_board": True}).json()
        gid, t = g["id"], g["tokens"]
        results = []

        def go(seq, dice):
            with httpx.Client(base_url=base, timeout=20) as c:   # its own connection
                r = c.post(f"/games/{gid}/actions", json={"action": "roll", "seq": seq,
                                                         "dice": dice}, headers=auth(t["0"]))
                results.append(r.status_code)

        for round_ in range(3):                      # opening ties: each round one roll
            seq = http.get(f"/games/{gid}").json()["seq"]
            threads = [threading.Thread(target=go, args=(seq, [d, d])) for d in range(1, 7)]
            for th in threads:
                th.start()
            for th in threads:
                th.join(30)
            assert sorted(results[-6:]) == [200] + [409] * 5, results
        journal = http.get(f"/games/{gid}/actions").json()
        assert journal["seq"] == 3 and len(journal["entries"]) == 3
        assert all(e["kind"] == "opening" for e in journal["entries"])
    finally:
        _stop(proc)


def test_cli_serve_refuses_bad_workers(capsys):
    from backgammon.cli import main
    assert main(["serve", "--workers", "0"]) == 2
    assert "--workers" in capsys.readouterr().err


def test_websockets_per_game_are_bounded(database, monkeypatch):
    from backgammon.server import app as app_module
    monkeypatch.setattr(app_module, "MAX_SOCKETS_PER_GAME", 1)
    with TestClient(create_app(database)) as client:
        gid = client.post("/games", json={}).json()["id"]
        with client.websocket_connect(f"/games/{gid}/events") as first:
            assert first.receive_json()["type"] == "state"
            with pytest.raises(Exception):           # the second one is closed (1013)
                with client.websocket_connect(f"/games/{gid}/events") as second:
                    second.receive_json()
            assert client.get(f"/games/{gid}").status_code == 200
        # once the first is gone (the server notices within a poll), a new one is welcome
        for attempt in range(20):
            try:
                with client.websocket_connect(f"/games/{gid}/events") as again:
                    assert again.receive_json()["type"] == "state"
                break
            except AssertionError:
                raise
            except Exception:
                time.sleep(0.1)
        else:
            raise AssertionError("no WebSocket accepted after the first closed")


def test_ids_bring_their_cube_and_score(client):
    # a 5-point match at 2-3 (player 0 on roll, 3 away; the opponent 2 away),
    # the cube on 2 owned by player 0
    game = bg.Game.from_position(bg.Position.initial(), turn=0, cube=2, cube_owner=0,
                                 match_length=5, score=(2, 3))
    xgid = game.xgid()
    d = client.get(f"/cube?position={xgid}").json()
    assert d["score"] == [3, 2] and d["cube"] == 2 and d["owner"] == "own"
    assert d == bg.cube_decision(game).to_dict()
    e = client.get(f"/eval?position={xgid}").json()
    assert e["cube"]["accept"] == d["take"]
    is_error(client.get(f"/cube?position={xgid}&x_away=3&o_away=2"), 400)
    # /move ranks by the ID's match score: the same as giving it by hand
    rolled = bg.Game.from_position(bg.Position.initial(), turn=0, dice=(3, 1),
                                   match_length=5, score=(2, 3))
    by_id = client.get(f"/move?position={rolled.xgid()}").json()
    by_hand = client.get("/move?" + query(die1=3, die2=1, x_away=3, o_away=2, **INITIAL)).json()
    assert by_id == by_hand


# ---------------------------------------------------------------- quotas and leases

def test_rate_limit_bucket_hand_worked(database):
    from backgammon.server.store import open_store
    store = open_store(database)
    try:
        t, key = 1e9, f"test:{database[:6]}:{time.time()}"   # a key of this run only
        take = store.take_token
        assert take(key, 2, now=t) == 0.0          # 2 at once, then one every 30 s
        assert take(key, 2, now=t) == 0.0
        assert take(key, 2, now=t) == pytest.approx(30.0)        # empty: a token in 30 s
        assert take(key + "b", 2, now=t) == 0.0                  # another client has its own
        assert take(key, 2, now=t + 15) == pytest.approx(15.0)   # half a token so far
        assert take(key, 2, now=t + 30) == 0.0                   # one token back
        assert take(key, 2, now=t + 30) == pytest.approx(30.0)
        assert take(key, 2, now=t + 20) == pytest.approx(30.0)   # the clock went back: no refill
        # untouched for a minute: full again, so forgotten; the others stay
        assert take(key + "c", 2, now=t + 80) == 0.0
        assert store.forget_quotas(now=t + 91) == 2              # key (t + 30) and key + "b" (t)
        assert take(key, 2, now=t + 91) == 0.0 and take(key, 2, now=t + 91) == 0.0
        assert take(key + "c", 2, now=t + 91) == 0.0             # kept: one token left of two
        assert take(key + "c", 2, now=t + 91) > 0
        with pytest.raises(ValueError, match="per_minute"):
            take(key, 0)
    finally:
        store.close()


def test_new_games_are_rate_limited_per_client(database, monkeypatch):
    monkeypatch.setenv("BACKGAMMON_LIMIT_GAMES_PER_MINUTE", "3")
    app = create_app(database)
    me = f"rate-test-{time.time()}"    # an address of this run only (the database may be shared)
    with TestClient(app, client=(me, 4000)) as one, \
            TestClient(app, client=(me + "-2", 4000)) as two:
        for _ in range(3):
            assert one.post("/games", json={}).status_code == 201
        r = one.post("/games", json={})
        is_error(r, 429, "TooManyRequests")
        assert r.headers["Retry-After"] == "20"       # 3 a minute: a token every 20 s
        assert two.post("/games", json={}).status_code == 201
    # another worker on the same database counts against the same limit
    with TestClient(create_app(database), client=(me, 4001)) as other:
        is_error(other.post("/games", json={}), 429, "TooManyRequests")


def test_a_job_whose_process_died_is_failed(client):
    from backgammon.server.store import STALE_MESSAGE, open_store
    store = open_store(client.database)
    try:
        request = {"position": "4HPwATDgc/ABMA", "games": 72}
        for job_id, age in (("dead-job", 3600.0), ("live-job", 1.0)):
            store.create_job(job_id, "rollout", request, 72, owner="gone")
            store.update_job(job_id, status="running", heartbeat=time.time() - age)
        dead = client.get("/rollouts/dead-job").json()
        assert dead["status"] == "failed" and dead["message"] == STALE_MESSAGE
        assert "heartbeat" not in dead and "cancel" not in dead
        assert client.get("/rollouts/live-job").json()["status"] == "running"
        # a beat renews only its owner's unfinished jobs
        store.update_job("live-job", heartbeat=time.time() - 3600)
        assert store.beat("someone else") == 0
        assert store.beat("gone") == 1
        assert not store.expire_job("live-job", 60.0)
        assert client.get("/rollouts/live-job").json()["status"] == "running"
        # a finished job never expires
        store.update_job("live-job", status="done", heartbeat=0.0)
        assert not store.expire_job("live-job", 60.0)
    finally:
        store.close()


_OLD_JOBS = """CREATE TABLE jobs (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, status TEXT NOT NULL,
    done BIGINT NOT NULL, total BIGINT NOT NULL, request TEXT NOT NULL,
    result TEXT, message TEXT, cancel INTEGER NOT NULL, created DOUBLE PRECISION NOT NULL)"""
_OLD_ROW = ("INSERT INTO jobs VALUES ('old-job', 'rollout', 'running', 10, 72, '{}', NULL, NULL, "
            "0, 1000.0)")


def _old_database(kind, statements, name, tmp_path, request):
    """The URL of a new database of ``kind`` made by ``statements`` (an older
    version's tables and rows), before any server opened it."""
    if kind == "sqlite":
        import sqlite3
        conn = sqlite3.connect(tmp_path / "old.sqlite3")
        for sql in statements:
            conn.execute(sql)
        conn.commit()
        conn.close()
        return f"sqlite:///{tmp_path}/old.sqlite3"
    import psycopg
    url = request.getfixturevalue("postgres").fresh_database(name)
    with psycopg.connect(url) as conn:
        for sql in statements:
            conn.execute(sql)
    return url


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_database_of_the_version_before_leases_is_migrated(kind, tmp_path, request):
    # a database written before jobs had leases: its running job (from a process
    # long gone) is failed, and new jobs work
    url = _old_database(kind, [_OLD_JOBS, _OLD_ROW], "bg_before_leases", tmp_path, request)
    with TestClient(create_app(url)) as c:
        old = c.get("/rollouts/old-job").json()
        assert old["status"] == "failed" and old["done"] == 10
        r = c.post("/rollouts", json={"games": 36, "seed": 1, "policy": "pubeval"})
        assert _wait(c, r.json()["id"], {"done", "failed"})["status"] == "done"


def test_a_game_journal_is_bounded(client, monkeypatch):
    # resigning and rejecting forever would grow a game without end: a game keeps
    # at most MAX_JOURNAL actions, and the refused action changes nothing
    from backgammon.server import games
    monkeypatch.setattr(games, "MAX_JOURNAL", 3)
    created = client.post("/games", json={}).json()
    gid, tokens = created["id"], created["tokens"]
    # each action is one journal entry: resign (seq 1), reject (2), resign (3)
    for seq, (seat, action, extra) in enumerate([(0, "resign", {"points": 1}), (1, "reject", {}),
                                                 (0, "resign", {"points": 1})]):
        r = act(client, gid, tokens[str(seat)], action, seq, **extra)
        assert r.status_code == 200 and r.json()["seq"] == seq + 1, r.json()
    before = client.get(f"/games/{gid}").json()
    body = is_error(act(client, gid, tokens["1"], "reject", 3), 400, "IllegalActionError")
    assert "start a new game" in body["message"]
    assert client.get(f"/games/{gid}").json() == before


# ---------------------------------------------------------------- retention

_LONG_AGO = 1000.0     # 1970: older than any cutoff below, and than any other test's rows
_TEN_YEARS = 10 * 365 * 86400.0


def test_idle_games_and_old_jobs_are_purged(client):
    from backgammon.server.store import open_store
    store = open_store(client.database)
    try:
        made = [client.post("/games", json={}).json() for _ in range(2)]
        idle, live = made[0]["id"], made[1]["id"]
        # the idle game has two journal entries: resign (seq 0) and its reject (1)
        assert act(client, idle, made[0]["tokens"]["0"], "resign", 0, points=1).status_code == 200
        assert act(client, idle, made[0]["tokens"]["1"], "reject", 1).status_code == 200
        assert act(client, live, made[1]["tokens"]["0"], "resign", 0, points=1).status_code == 200
        store._run("UPDATE games SET created = ?, updated = ? WHERE id = ?",
                   (_LONG_AGO, _LONG_AGO, idle), write=True)
        # a game created long ago but played today is not idle
        store._run("UPDATE games SET created = ? WHERE id = ?", (_LONG_AGO, live), write=True)
        request = {"position": "4HPwATDgc/ABMA", "games": 72}
        for job_id, status, beat in (("old-done", "done", _LONG_AGO),
                                     ("old-dead", "running", _LONG_AGO),
                                     ("old-alive", "running", time.time()),
                                     ("new-done", "done", time.time())):
            store.create_job(job_id, "rollout", request, 72, owner="x")
            store.update_job(job_id, status=status, heartbeat=beat)
            if job_id.startswith("old"):
                store._run("UPDATE jobs SET created = ? WHERE id = ?", (_LONG_AGO, job_id),
                           write=True)
        # the idle game and its 2 entries; the finished old job and the one whose
        # process stopped long ago; the running one still renewed stays
        assert store.purge(_TEN_YEARS) == {"games": 1, "actions": 2, "jobs": 2}
        is_error(client.get(f"/games/{idle}"), 404)
        assert client.get(f"/games/{live}").json()["seq"] == 1
        assert len(client.get(f"/games/{live}/actions").json()["entries"]) == 1
        assert [store.job(j) is None for j in ("old-done", "old-dead", "old-alive", "new-done")] \
            == [True, True, False, False]
        assert store.purge(_TEN_YEARS) == {"games": 0, "actions": 0, "jobs": 0}
        for bad in (0, -1.0, float("nan")):
            with pytest.raises(ValueError, match="idle"):
                store.purge(bad)
    finally:
        store.close()


def test_keep_days_purges_at_start_and_is_checked(database, monkeypatch):
    from backgammon.cli import main
    from backgammon.server.store import open_store
    store = open_store(database)
    try:
        gid = "purge-at-start"
        store.create_game(gid, {"match_length": 0}, {})
        store._run("UPDATE games SET created = ?, updated = ? WHERE id = ?",
                   (_LONG_AGO, _LONG_AGO, gid), write=True)
        assert store.seq(gid) == 0
        with TestClient(create_app(database, keep_days=3650)):
            for _ in range(100):
                if store.seq(gid) is None:
                    break
                time.sleep(0.05)
        assert store.seq(gid) is None
    finally:
        store.close()
    for bad in (0, -2, 1e9, True, "7"):
        with pytest.raises(ValueError, match="keep_days"):
            create_app(database, keep_days=bad)
    assert main(["serve", "--keep-days", "0"]) == 2


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_games_of_the_version_before_updated_are_aged_by_creation(kind, tmp_path, request):
    old_games = """CREATE TABLE games (id TEXT PRIMARY KEY, spec TEXT NOT NULL,
        seq INTEGER NOT NULL, tokens TEXT NOT NULL, created DOUBLE PRECISION NOT NULL)"""
    rows = [f"INSERT INTO games VALUES ('old', '{{}}', 0, '{{}}', {_LONG_AGO})",
            f"INSERT INTO games VALUES ('new', '{{}}', 0, '{{}}', {time.time()})"]
    url = _old_database(kind, [old_games] + rows, "bg_before_updated", tmp_path, request)
    from backgammon.server.store import open_store
    store = open_store(url)
    try:
        assert store.purge(_TEN_YEARS) == {"games": 1, "actions": 0, "jobs": 0}
        assert store.seq("old") is None and store.seq("new") == 0
    finally:
        store.close()
