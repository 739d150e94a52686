"""The web client of `backgammon serve` in a real headless Chromium (Selenium and
Debian's chromium + chromium-driver): games against the bot played by clicks on
the board the page draws, the highlights of a picked-up checker, undo within a
turn, the bot's moves animated and listed with their dice, the result as a
spectator and as each player reads it, a match's score and a new game, a second
browser seeing the first one's moves, and the page's rules and notation checked
against the server's on a whole game.

Positions that must be known in advance come from games created
``over_the_board`` (the test gives the dice) and driven over HTTP; the page then
shows them.  Every wait is for a state of the page (``bg.isIdle()``: nothing
sent, caught up or animated), never a fixed sleep; the page itself checks the
condition every few milliseconds (one WebDriver call a wait, not one a poll).

Kept quick for CI (the machines are small and busy; what costs is CPU): one
Chromium and one server for the module, started side by side; the page in
reduced motion (``prefers-reduced-motion: reduce``, as CDP emulates it) except in
the test of the animation itself; the bot at 0-ply where its strength does not
matter; the screenshots' colours counted on packed integers.

Screenshots go to ``$BG_SCREENSHOTS`` (a directory, created if need be) or to a
temporary directory, one PNG per test, each checked to be a real picture.

Skipped outside CI when Chromium, its driver or Selenium is missing; under
``CI=true`` that is a failure (``.ci/run`` installs them).
"""

import json
import os
import random
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np
import pytest

CI = os.environ.get("CI") == "true"
pytestmark = pytest.mark.browser


def _need(what, ok):
    if not ok:
        if CI:
            pytest.fail(f"CI needs {what} for the browser test")
        pytest.skip(f"{what} is not installed")


def _browser():
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="module")
def _server_process(tmp_path_factory):
    """`backgammon serve` started, not yet waited for: it boots while Chromium does."""
    pytest.importorskip("fastapi")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    db = tmp_path_factory.mktemp("browser") / "games.sqlite3"
    proc = subprocess.Popen([sys.executable, "-m", "backgammon", "serve", "--port", str(port),
                             "--database", f"sqlite:///{db}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    yield proc, f"http://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(10)


@pytest.fixture(scope="module")
def server(_server_process, driver):
    """The server's URL, once it answers (after Chromium started: the two boot together)."""
    proc, url = _server_process
    deadline = time.monotonic() + 120
    while True:
        try:
            urllib.request.urlopen(url + "/health", timeout=1).read()
            break
        except OSError:
            if proc.poll() is not None:
                raise AssertionError(proc.stderr.read().decode()[-2000:])
            if time.monotonic() > deadline:
                raise AssertionError("the server did not answer /health") from None
            time.sleep(0.05)
    return url


def _reduced_motion(d, reduce=True):
    """The page as a reader who asked for reduced motion sees it (or, False, as any other)."""
    features = [{"name": "prefers-reduced-motion", "value": "reduce"}] if reduce else []
    d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})


@pytest.fixture(scope="module")
def driver(_server_process):
    chromium = _browser()
    _need("Chromium", chromium is not None)
    chromedriver = shutil.which("chromedriver")
    _need("chromium-driver", chromedriver is not None)
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _need("Selenium", False)
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=900,1000"):
        options.add_argument(arg)
    d = webdriver.Chrome(service=Service(chromedriver), options=options)
    d.set_script_timeout(_WAIT_S + 30)    # _wait's in-page wait ends first
    _reduced_motion(d)   # no animation but in the test of the animation itself
    yield d
    d.quit()


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    """Where the screenshots go: $BG_SCREENSHOTS, else a temporary directory."""
    keep = os.environ.get("BG_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        return Path(keep)
    return tmp_path_factory.mktemp("screenshots")


def _shot(d, shots, name):
    """A screenshot of the page, checked to be a PNG of a board (many colours)."""
    from PIL import Image
    png = shots / f"{name}.png"
    d.save_screenshot(str(png))
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 1000
    image = np.asarray(Image.open(png).convert("RGB"), np.int32)
    colours = (image[..., 0] << 16) | (image[..., 1] << 8) | image[..., 2]   # one int a colour
    assert len(np.unique(colours)) > 30      # a board, not a blank page
    return png


# ---------------------------------------------------------------- waiting and clicking

def _page_state(d):
    return d.execute_script(
        "const b = window.bg; return b ? [b.busy, !!b.syncing, b.animating, "
        "b.state && b.state.seq, b.state && b.state.phase, "
        "document.getElementById('actions').textContent, "
        "document.getElementById('error').textContent, "
        "document.getElementById('status').textContent] : 'no bg'")


_WAIT_S = 60

# ``script`` (a function body) checked in the page every 10 ms until it returns
# something true or the time is up: one WebDriver call a wait, where polling from
# here cost a round trip through chromedriver and Chromium's browser process each
# time, most of these tests' CPU on a busy machine.  An exception ends the wait, as
# it ended WebDriverWait's.
_WAIT_JS = """
const done = arguments[arguments.length - 1], until = Date.now() + arguments[0];
const check = () => { /*CHECK*/ };
const poll = () => {
  let value;
  try { value = check(); } catch (e) { return done({error: String(e && e.stack || e)}); }
  if (value) return done({value});
  if (Date.now() > until) return done({timeout: true});
  setTimeout(poll, 10);
};
poll();
"""


def _wait(d, script, seconds=_WAIT_S):
    """Waits until ``script`` returns something true (and returns it)."""
    got = d.execute_async_script(_WAIT_JS.replace("/*CHECK*/", script), int(seconds * 1000))
    if "error" in got:
        raise AssertionError(f"{script}: {got['error']}")
    if "timeout" in got:
        raise AssertionError(f"timed out waiting for: {script}; page {_page_state(d)}")
    return got["value"]


def _idle(d, seq=None):
    """Waits until the page shows the game (at ``seq`` or later) and is doing nothing."""
    more = "" if seq is None else f" && window.bg.state.seq >= {seq}"
    _wait(d, "return !!(window.bg && window.bg.state && window.bg.isIdle()"
             f" && document.getElementById('status').textContent){more}")


def _retry(action):
    """Runs ``action``; again if the page redrew its element meanwhile."""
    from selenium.common.exceptions import StaleElementReferenceException
    for attempt in range(10):
        try:
            return action()
        except StaleElementReferenceException:
            if attempt == 9:
                raise


# The element (scrolled into view) and what covers its centre, if anything.
_TARGET = """
const el = document.querySelector(arguments[0]);
if (!el) return [null, 'not on the page'];
el.scrollIntoView({block: 'nearest', inline: 'nearest'});
const r = el.getBoundingClientRect(), top = document.elementFromPoint(r.left + r.width / 2,
                                                                      r.top + r.height / 2);
return [el, top && (top === el || el.contains(top)) ? null
            : 'covered by ' + (top ? top.outerHTML.slice(0, 100) : 'nothing')];
"""


def _click(d, selector):
    """Clicks the middle of an element as a mouse does (WebDriver actions: the pointer
    moves there, presses, releases; the browser finds what is under it), once the
    page says nothing covers it there.  WebElement.click() did the same with more
    checks of its own, at twice the CPU (Chromium's and chromedriver's) a click."""
    from selenium.webdriver.common.action_chains import ActionChains

    def click():
        element, covered = d.execute_script(_TARGET, selector)
        assert covered is None, f"cannot click {selector}: {covered}"
        ActionChains(d, duration=0).click(element).perform()
    _retry(click)


def _click_point(d, point):
    """Clicks a point's column on the board (25: my bar, 0: my tray)."""
    _click(d, f'#board [data-point="{point}"]')


def _click_id(d, element_id):
    _click(d, f"#{element_id}")


def _zones(d):
    """{point: (mine, theirs, destination, selected)} as the board's click targets say."""
    rows = d.execute_script(
        "return [...document.querySelectorAll('#board [data-point]')].map(z => "
        "[+z.dataset.point, +(z.dataset.own || 0), +(z.dataset.opp || 0), "
        "z.dataset.dest === '1', z.dataset.selected === '1'])")
    return {p: (own, opp, dest, sel) for p, own, opp, dest, sel in rows}


def _dests(d):
    return {p for p, (_, _, dest, _) in _zones(d).items() if dest}


def _text(d, element_id):
    from selenium.webdriver.common.by import By
    return _retry(lambda: d.find_element(By.ID, element_id).text)


def _move_cells(d):
    """The move list's cells, in order: [(seat, [texts])]."""
    return d.execute_script(
        "return [...document.querySelectorAll('#moves td[data-seat]')].map(td => "
        "[+td.dataset.seat, [...td.querySelectorAll('div')].map(x => x.textContent)])")


# ---------------------------------------------------------------- the HTTP API

def _call(server, method, path, body=None, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:
        raise AssertionError(f"{method} {path}: {e.code} {e.read()[:300]!r}") from None


def _game(server, **spec):
    g = _call(server, "POST", "/games", spec)
    return g["id"], g["tokens"]


def _act(server, gid, token, action, **fields):
    seq = _call(server, "GET", f"/games/{gid}")["seq"]
    return _call(server, "POST", f"/games/{gid}/actions", {"action": action, "seq": seq, **fields},
                 token)


def _open(d, server, gid, seat=0, token=None):
    url = f"{server}/#game={gid}&seat={seat}" + (f"&token={token}" if token else "")
    d.get("about:blank")   # a new document: the fragment alone would not reload the page
    d.get(url)
    _idle(d)


def _lobby(d, server, ply=None):
    """The lobby on a new page; the bot's strength picked there when ``ply`` is given
    (0-ply: its moves at once, where how well it plays does not matter)."""
    d.get("about:blank")
    d.get(server + "/")
    if ply is not None:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import Select
        Select(d.find_element(By.ID, "ply")).select_by_value(str(ply))


def _notation(entries, index):
    """The library's notation of the play at journal ``index`` (the game rebuilt)."""
    from backgammon.game import Action, Game
    from backgammon.position import Play
    game = Game()
    for e in entries[:index]:
        value = e["value"]
        value = [tuple(s) for s in value] if e["kind"] == "play" else (
            tuple(value) if isinstance(value, list) else value)
        game.apply(Action(e["player"], e["kind"], value))
    e = entries[index]
    dice = tuple(game.dice)
    text = str(Play(game.position, [tuple(s) for s in e["value"]])) or "no move"
    return f"{max(dice)}{min(dice)}: {text}"


# ---------------------------------------------------------------- a game against the bot

_READY = ("const b = window.bg, s = b.state; if (!s || !b.isIdle()) return null;"
          "if (s.over) return 'over';"
          "for (const a of ['roll', 'take', 'nomove'])"
          "  if (document.getElementById('act-' + a)) return a;"
          "if (b.turn && !b.turn.complete) return 'move';"
          "return null;")


def _play_by_clicks(d):
    """Makes my move by clicks: each time the first legal step's checker, then its
    destination (highlighted), then Done."""
    seq = d.execute_script("return window.bg.state.seq")
    while True:
        legal, made = d.execute_script("return [window.bg.turn.legal_moves, window.bg.turn.steps.length]")
        if not legal:
            break
        src, dst = legal[0]
        _click_point(d, src)
        _wait(d, f"return window.bg.selected === {src}")
        assert dst in _dests(d)
        _click_point(d, dst)
        _wait(d, f"return window.bg.isIdle() && window.bg.turn.steps.length > {made}")
    _click_id(d, "act-done")
    _idle(d, seq + 1)


def _play_the_bot(d, turns):
    """Rolls, takes and moves against the bot until ``turns`` of my plays are in."""
    plays = 0
    while plays < turns:
        what = _wait(d, "return (" + "() => {" + _READY + "})()")
        if what == "over":
            break
        seq = d.execute_script("return window.bg.state.seq")
        if what == "move":
            _play_by_clicks(d)
            plays += 1
        else:
            _click_id(d, f"act-{what}")
            plays += what == "nomove"
            _idle(d, seq + 1)
    return plays


def test_play_the_bot_by_clicks(server, driver, shots):
    d = driver
    _lobby(d, server, ply=0)
    _click_id(d, "vs-bot")
    _idle(d)
    assert d.execute_script("return window.bg.state.bot") == {"seat": 1, "ply": 0}
    assert _play_the_bot(d, 2) >= 1
    state = d.execute_script("return window.bg.state")
    journal = _call(server, "GET", f"/games/{state['id']}/actions")["entries"]
    assert sum(e["kind"] == "play" for e in journal) >= 3   # our plays and the bot's
    # the board the page shows is the server's position
    board = state["board"] if state["board_player"] == 0 else [-v for v in state["board"][::-1]]
    zones = _zones(d)
    assert all(zones[p][0] == max(board[p], 0) and zones[p][1] == max(-board[p], 0)
               for p in range(1, 25))
    _shot(d, shots, "play-the-bot")
    assert "position" in _text(d, "info")


# ---------------------------------------------------------------- picking a checker up, undo

def _opening_31(server, driver):
    """A game between two people over the board, player 0 to play an opening 3-1."""
    gid, tokens = _game(server, over_the_board=True)
    _act(server, gid, tokens["0"], "roll", dice=[3, 1])
    _open(driver, server, gid, 0, tokens["0"])
    return gid, tokens


def test_a_picked_up_checker_and_its_destinations(server, driver, shots):
    d = driver
    gid, _ = _opening_31(server, d)
    # the checkers that may move are marked before any click; the dice are mine (right half)
    assert d.execute_script("return document.querySelectorAll('#board .movable').length") == 4
    assert d.execute_script("return [...document.querySelectorAll('#board .die')].map("
                            "x => [+x.dataset.side, +x.dataset.value])") == [[0, 3], [0, 1]]
    _click_point(d, 8)
    _wait(d, "return window.bg.selected === 8")
    zones = _zones(d)
    assert zones[8][3] and d.execute_script(
        "return document.querySelectorAll('#board .selected').length") == 1
    # 8/5 and 8/7 with one die, 8/4 with both
    assert _dests(d) == {5, 7, 4}
    assert d.execute_script("return document.querySelectorAll('#board .dest').length") == 3
    assert "Click where it goes" in _text(d, "status")
    _shot(d, shots, "picked-up")
    # another checker: 13/10, and 13/9 through 10 (13/12 lands on their midpoint)
    _click_point(d, 13)
    _wait(d, "return window.bg.selected === 13")
    assert _dests(d) == {10, 9}
    _click_point(d, 13)   # put it down again
    _wait(d, "return window.bg.selected === null")
    assert _dests(d) == set()
    # a back checker to 20 in one click: both dice, one checker (24/20)
    _click_point(d, 24)
    _wait(d, "return window.bg.selected === 24")
    assert _dests(d) == {23, 21, 20}
    _click_point(d, 20)
    _wait(d, "return window.bg.isIdle() && window.bg.turn.complete")
    zones = _zones(d)
    assert zones[24][0] == 1 and zones[20][0] == 1
    assert d.execute_script("return window.bg.turn.steps") in ([[24, 21], [21, 20]],
                                                               [[24, 23], [23, 20]])
    assert d.execute_script("return document.getElementById('act-done').disabled") is False


def test_undo_within_a_turn(server, driver, shots):
    d = driver
    gid, tokens = _opening_31(server, d)
    start = _zones(d)
    # a click on a destination only one checker reaches by one die moves that checker: 6/3
    _click_point(d, 3)
    _wait(d, "return window.bg.isIdle() && window.bg.turn.steps.length === 1")
    assert _zones(d)[3][0] == 1 and _zones(d)[6][0] == 4
    assert d.execute_script("return [...document.querySelectorAll('#board .die.used')].map("
                            "x => +x.dataset.value)") == [3]      # the 3 is played
    _click_id(d, "act-undo")
    _wait(d, "return window.bg.turn.steps.length === 0")
    assert _zones(d) == start
    assert d.execute_script("return document.getElementById('act-undo').disabled") is True
    # 8/5 6/5: two clicks each; undo takes back the last checker only, then the first
    for src, dst in ((8, 5), (6, 5)):
        _click_point(d, src)
        _wait(d, f"return window.bg.selected === {src}")
        _click_point(d, dst)
        _wait(d, f"return window.bg.isIdle() && window.bg.selected === null && "
                 f"window.bg.turn.steps.some(s => s[0] === {src})")
    assert _zones(d)[5][0] == 2 and d.execute_script("return window.bg.turn.complete")
    _shot(d, shots, "complete-before-undo")
    _click_id(d, "act-undo")
    _wait(d, "return window.bg.turn.steps.length === 1")
    zones = _zones(d)
    assert zones[5][0] == 1 and zones[6][0] == 5 and zones[8][0] == 2
    assert d.execute_script("return document.getElementById('act-done').disabled") is True
    _click_id(d, "act-undo")
    _wait(d, "return window.bg.turn.steps.length === 0")
    assert _zones(d) == start
    # a move of one checker with both dice comes back whole
    _click_point(d, 24)
    _wait(d, "return window.bg.selected === 24")
    _click_point(d, 20)
    _wait(d, "return window.bg.isIdle() && window.bg.turn.steps.length === 2")
    _click_id(d, "act-undo")
    _wait(d, "return window.bg.turn.steps.length === 0")
    assert _zones(d) == start
    # nothing went to the server meanwhile; then the play, and it is in the list
    assert _call(server, "GET", f"/games/{gid}")["seq"] == 1
    for src, dst in ((8, 5), (6, 5)):
        _click_point(d, src)
        _wait(d, f"return window.bg.selected === {src}")
        _click_point(d, dst)
        _wait(d, f"return window.bg.isIdle() && window.bg.turn.steps.some(s => s[0] === {src})")
    _click_id(d, "act-done")
    _idle(d, 2)
    journal = _call(server, "GET", f"/games/{gid}/actions")["entries"]
    assert journal[1]["kind"] == "play" and sorted(journal[1]["value"]) == [[6, 5], [8, 5]]
    assert _move_cells(d)[0] == [0, ["31: 8/5 6/5"]]
    assert _zones(d)[5][0] == 2


def test_over_the_board_dice_are_entered_on_the_page(server, driver):
    d = driver
    gid, tokens = _game(server, over_the_board=True)
    _open(d, server, gid, 0, tokens["0"])
    from selenium.webdriver.support.ui import Select
    from selenium.webdriver.common.by import By
    Select(d.find_element(By.ID, "die-a")).select_by_value("2")
    Select(d.find_element(By.ID, "die-b")).select_by_value("5")
    _click_id(d, "act-roll")
    _idle(d, 1)
    # player 1's 5 beats player 0's 2: the other side's dice, 52, and their move
    state = _call(server, "GET", f"/games/{gid}")
    assert state["player_to_act"] == 1 and sorted(state["dice"]) == [2, 5]
    assert d.execute_script("return [...document.querySelectorAll('#board .die')].map("
                            "x => +x.dataset.side)") == [1, 1]
    assert _text(d, "status") == "Waiting for opponent…"


# ---------------------------------------------------------------- the bot's moves

def _bot_plays(d, server, at_least):
    """Plays the bot (0-ply) until it has made ``at_least`` plays; (game id, journal)."""
    _lobby(d, server, ply=0)
    _click_id(d, "vs-bot")
    _idle(d)
    gid = d.execute_script("return window.bg.game")
    for _ in range(40):
        journal = _call(server, "GET", f"/games/{gid}/actions")["entries"]
        if sum(e["kind"] == "play" and e["player"] == 1 for e in journal) >= at_least:
            break
        _play_the_bot(d, 1)
    _idle(d, len(journal))
    return gid, journal


def test_the_bots_moves_are_animated_with_their_dice_and_listed(server, driver, shots):
    d = driver
    _reduced_motion(d, False)   # the one test that animates; the others do not wait for it
    try:
        _animated_and_listed(d, server, shots)
    finally:
        _reduced_motion(d)


def _animated_and_listed(d, server, shots):
    gid, journal = _bot_plays(d, server, 2)
    bot = [k for k, e in enumerate(journal) if e["kind"] == "play" and e["player"] == 1]
    # each step of each bot play flew, in order and for a visible time (a play the
    # page saw happen; the first page load shows the position as it is)
    flights = d.execute_script("return window.bg.flights")
    theirs = [(f["from"], f["to"]) for f in flights if f["player"] == 1]
    shown = [tuple(s) for k in bot for s in journal[k]["value"]]
    assert theirs == shown and theirs
    assert all(f["ms"] > 0 for f in flights)
    # the bot's dice are on its side of the board (the left half) until I roll
    last = bot[-1]
    roll = next(journal[k]["value"] for k in range(last, -1, -1)
                if journal[k]["kind"] in ("roll", "opening"))
    if journal[last - 1]["kind"] == "opening":
        roll = sorted(roll, reverse=True)
    dice = d.execute_script("return [...document.querySelectorAll('#board .die')].map("
                            "x => [+x.dataset.side, +x.dataset.value])")
    if d.execute_script("return window.bg.state.phase") == "roll":   # my roll: the bot's dice shown
        assert sorted(v for s, v in dice if s == 1) == sorted(roll if roll[0] != roll[1] else roll * 2)
    # the move list has every play, the bot's in its column, in the library's notation
    cells = _move_cells(d)
    bot_texts = [t for seat, texts in cells if seat == 1 for t in texts if ":" in t]
    assert bot_texts == [_notation(journal, k) for k in bot]
    mine = [t for seat, texts in cells if seat == 0 for t in texts if ":" in t]
    assert len(mine) == sum(e["kind"] == "play" and e["player"] == 0 for e in journal)
    _shot(d, shots, "bot-moved")


def test_reduced_motion_shows_the_moves_at_once(server, driver, shots):
    d = driver
    _reduced_motion(d)   # as every test but the one above has it; said again here
    _bot_plays(d, server, 1)
    flights = d.execute_script("return window.bg.flights")
    assert any(f["player"] == 1 for f in flights)
    assert all(f["ms"] == 0 for f in flights)
    _shot(d, shots, "reduced-motion")


# ---------------------------------------------------------------- results, score, new game

def test_spectators_and_players_read_the_result(server, driver, shots):
    d = driver
    gid, tokens = _game(server, over_the_board=True)
    _act(server, gid, tokens["0"], "resign", points=2)     # before the opening roll
    _act(server, gid, tokens["1"], "accept")
    expected = {None: "Black wins a gammon, 2 points (resigned).",
                0: "You lost a gammon, 2 points (resigned).",
                1: "You won a gammon, 2 points (resigned)."}
    for seat, text in expected.items():
        _open(d, server, gid, seat or 0, None if seat is None else tokens[str(seat)])
        assert _text(d, "status") == text
        assert d.execute_script("return document.querySelector('#moves tr.result').textContent") == text
        if seat is None:
            assert d.execute_script("return [...document.querySelectorAll('#moves th')].map("
                                    "x => x.textContent)") == ["#", "White", "Black"]
            _shot(d, shots, "spectator-result")
        assert "Money game" in _text(d, "score")


def test_match_score_results_and_a_new_game(server, driver, shots):
    d = driver
    gid, tokens = _game(server, over_the_board=True, match_length=3)
    _open(d, server, gid, 0, tokens["0"])
    assert _text(d, "score") == "Match to 3: You 0 · Opponent 0"
    _act(server, gid, tokens["0"], "resign", points=2)
    _act(server, gid, tokens["1"], "accept")
    _idle(d, 2)   # the WebSocket brings it
    assert _text(d, "score") == "Match to 3: You 0 · Opponent 2 · Crawford game"
    assert _text(d, "status") == ("You lost a gammon, 2 points (resigned). "
                                  "Roll to start game 2.")
    rows = d.execute_script("return [...document.querySelectorAll('#moves tr')].map("
                            "r => [r.className, r.textContent])")
    assert ["game", "Game 1"] in rows and ["result", "You lost a gammon, 2 points (resigned)."] in rows
    # the Crawford game: a roll, a play, then the opponent's resignation
    _act(server, gid, tokens["0"], "roll", dice=[6, 5])
    _act(server, gid, tokens["0"], "play", play="24/13")
    _act(server, gid, tokens["1"], "resign", points=1)
    _act(server, gid, tokens["0"], "accept")
    _idle(d, 6)
    assert _text(d, "status") == "You won a single game, 1 point (resigned). Roll to start game 3."
    state = _call(server, "GET", f"/games/{gid}")
    assert state["score"] == [1, 2] and not state["over"]
    assert _text(d, "score") == "Match to 3: You 1 · Opponent 2"
    assert ["game", "Game 2"] in d.execute_script(
        "return [...document.querySelectorAll('#moves tr')].map(r => [r.className, r.textContent])")
    # the match's last game: resigned by me, a gammon
    _act(server, gid, tokens["0"], "resign", points=2)
    _act(server, gid, tokens["1"], "accept")
    _idle(d, 8)
    assert _text(d, "status") == ("You lost a gammon, 2 points (resigned). "
                                  "You lost the match, 1–4.")
    assert [0, ["65: 24/13"]] in _move_cells(d)
    assert [1, ["Resigns a single game"]] in _move_cells(d)
    _shot(d, shots, "match-over")
    # New game: the lobby, with this game's settings; then a game against the bot
    _click_id(d, "new-game")
    _wait(d, "return !document.getElementById('lobby').classList.contains('hidden')")
    assert d.execute_script("return document.getElementById('length').value") == "3"
    _click_id(d, "vs-bot")
    _wait(d, f"return window.bg.game && window.bg.game !== '{gid}'")
    _idle(d)
    assert _text(d, "status") == "Roll to start game 1."
    assert _text(d, "score") == "Match to 3: You 0 · Bot 0"
    assert _move_cells(d) == []


def test_play_again_after_a_game_against_the_bot(server, driver):
    d = driver
    _lobby(d, server)   # the bot's strength as the page offers it (2-ply)
    d.execute_script("document.getElementById('length').value = '0'")
    _click_id(d, "vs-bot")
    _idle(d)
    gid = d.execute_script("return window.bg.game")
    token = d.execute_script("return window.bg.token")
    _act(server, gid, token, "resign", points=1)   # before the opening roll: the bot accepts
    _idle(d, 2)
    assert _text(d, "status") == "You lost a single game, 1 point (resigned)."
    _click_id(d, "act-again")
    _wait(d, f"return window.bg.game && window.bg.game !== '{gid}'")
    _idle(d)
    assert d.execute_script("return window.bg.state.bot") == {"seat": 1, "ply": 2}
    assert _text(d, "status") == "Roll to start."


def test_a_second_browser_sees_the_moves(server, driver):
    from selenium.webdriver.common.by import By

    d = driver
    _lobby(d, server)
    _click_id(d, "vs-human")
    _idle(d)
    other = d.find_element(By.ID, "other-link").get_attribute("value")
    assert "seat=1" in other and "token=" in other
    first = d.current_window_handle
    d.switch_to.new_window("window")
    try:
        d.get(other)
        _wait(d, "return window.bg.state && window.bg.state.phase === 'opening'")
        second = d.current_window_handle
        d.switch_to.window(first)
        _click_id(d, "act-roll")
        _idle(d, 1)
        d.switch_to.window(second)
        # the WebSocket brings the opening roll to the second browser, dice and all
        _idle(d, 1)
        state = d.execute_script("return window.bg.state")
        assert state["phase"] in ("opening", "move")
        shown = d.execute_script("return [...document.querySelectorAll('#board .die')].map("
                                 "x => +x.dataset.value)")
        journal = _call(server, "GET", f"/games/{state['id']}/actions")["entries"]
        assert sorted(shown) == sorted(journal[0]["value"])
    finally:
        d.close()
        d.switch_to.window(first)


# ---------------------------------------------------------------- the page's rules

def test_the_pages_rules_and_notation_are_the_librarys(driver, server):
    """Whole games of random plays to the end: at each turn the page's legal steps,
    after each step of the play chosen, are Position.legal_moves' (what GET
    /games/{id}/turn answers), and its notation of every legal play is the library's
    (the server's legal_plays)."""
    from backgammon.position import Position

    d = driver
    _lobby(d, server)
    _wait(d, "return !!(window.bg && window.bg.lib)")
    rng = random.Random(20240607)
    turns = []
    for _ in range(3):
        pos = Position.initial()
        while True:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = list(pos.legal_plays(dice))
            play = rng.choice(plays)
            prefixes = [list(play.moves[:k]) for k in range(len(play.moves) + 1)]
            turns.append({"board": pos.tolist(), "dice": list(dice),
                          "plays": [{"play": str(p), "moves": [list(m) for m in p.moves]}
                                    for p in plays],
                          "prefixes": [[list(m) for m in p] for p in prefixes],
                          "legal": [[list(m) for m in pos.legal_moves(dice, p)] for p in prefixes]})
            after = play.result.tolist()
            if not any(v > 0 for v in after):   # the mover bore off their last checker
                break
            pos = play.result.swapped()
    assert len(turns) > 100 and any(t["board"][0] < 0 or t["board"][25] > 0 for t in turns)
    # sent as one JSON string: WebDriver's conversion of the nested lists, value by
    # value, cost twice as much as the checks themselves
    wrong = d.execute_script(
        "const L = window.bg.lib, wrong = [];"
        "for (const t of JSON.parse(arguments[0])) {"
        "  const rules = new L.Turn(t.board, t.dice, t.plays);"
        "  t.prefixes.forEach((p, k) => {"
        "    const got = rules.legalMoves(p);"
        "    if (JSON.stringify(got) !== JSON.stringify(t.legal[k])) wrong.push([t.board, t.dice, p, got]);"
        "  });"
        "  for (const p of t.plays) {"
        "    const text = L.formatPlay(t.board, p.moves);"
        "    if (text !== p.play) wrong.push([t.board, p.moves, text, p.play]);"
        "  }"
        "}"
        "return wrong.slice(0, 5)", json.dumps(turns))
    assert wrong == []
