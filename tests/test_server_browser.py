"""The web client of `backgammon serve` in a real headless Chromium (Selenium and
Debian's chromium + chromium-driver): a game against the bot is started,
rolled and played by clicks on the SVG board, and the second browser of a
game between two people sees the first one's moves.

Skipped outside CI when Chromium, its driver or Selenium is missing; under
``CI=true`` that is a failure (``.ci/run`` installs them).
"""

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

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
def server(tmp_path_factory):
    pytest.importorskip("fastapi")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    db = tmp_path_factory.mktemp("browser") / "games.sqlite3"
    proc = subprocess.Popen([sys.executable, "-m", "backgammon", "serve", "--port", str(port),
                             "--database", f"sqlite:///{db}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            urllib.request.urlopen(url + "/health", timeout=1).read()
            break
        except OSError:
            if proc.poll() is not None:
                raise AssertionError(proc.stderr.read().decode()[-2000:])
            time.sleep(0.05)
    yield url
    proc.terminate()
    proc.wait(10)


@pytest.fixture(scope="module")
def driver():
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
                "--window-size=700,900"):
        options.add_argument(arg)
    d = webdriver.Chrome(service=Service(chromedriver), options=options)
    yield d
    d.quit()


def _wait(d, script, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = d.execute_script(script)
        if value:
            return value
        time.sleep(0.05)
    shown = d.execute_script("return [window.bg.busy, window.bg.state && window.bg.state.seq, "
                             "window.bg.turn && window.bg.turn.seq, "
                             "document.getElementById('actions').innerHTML, "
                             "document.getElementById('error').textContent, "
                             "document.getElementById('status').textContent]")
    raise AssertionError(f"timed out waiting for: {script}; page {shown}")


def _point_xy(point):
    """Centre of a point's column (drawing units of backgammon.display.svg, right orientation)."""
    if point == 25:
        return 324, 300
    if point == 0:
        return 622, 400
    k = point - 13 if point >= 13 else 12 - point
    x = 84 + 40 * k if k < 6 else 364 + 40 * (k - 6)
    return x, 100 if point >= 13 else 400


def _click_point(d, point):
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    for attempt in range(5):   # the page redraws the board (a new svg) when an event comes
        try:
            svg = d.find_element(By.CSS_SELECTOR, "#board svg")
            w, h = svg.size["width"], svg.size["height"]
            x, y = _point_xy(point)
            ActionChains(d).move_to_element_with_offset(svg, x * w / 648 - w / 2,
                                                        y * h / 508 - h / 2).click().perform()
            return
        except StaleElementReferenceException:
            if attempt == 4:
                raise
            time.sleep(0.1)


def _click_id(d, element_id):
    """Click the element of that id; found again if the page redrew it meanwhile (an
    event from the WebSocket redraws the buttons)."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    for attempt in range(5):
        try:
            d.find_element(By.ID, element_id).click()
            return
        except StaleElementReferenceException:
            if attempt == 4:
                raise
            time.sleep(0.1)


def _play_by_clicks(d):
    """Makes the first legal step each time, clicking its source then (if asked) its target."""
    seq = d.execute_script("return window.bg.state.seq")
    for _ in range(8):
        if d.execute_script("return window.bg.state.seq") != seq:
            return
        legal = d.execute_script("return window.bg.turn.legal_moves")
        if not legal:
            break
        src, dst = legal[0]
        before = d.execute_script("return window.bg.steps.length")
        _click_point(d, src)
        time.sleep(0.1)
        if d.execute_script("return window.bg.selected") is not None:
            _click_point(d, dst)
        _wait(d, f"return window.bg.steps.length > {before} || window.bg.state.seq != {seq}")
        _wait(d, "return !window.bg.busy")
    _wait(d, f"return window.bg.state.seq != {seq}")


def test_play_the_bot_by_clicks(server, driver, tmp_path):
    from PIL import Image
    from selenium.webdriver.common.by import By

    d = driver
    d.get(server + "/")
    d.find_element(By.ID, "vs-bot").click()
    _wait(d, "return window.bg.state && window.bg.turn")
    plays = 0
    ready = ("const b = window.bg, s = b.state; if (b.busy || !s || !b.turn) return null;"
             "if (document.getElementById('act-roll')) return 'roll';"
             "if (document.getElementById('act-take')) return 'take';"
             "if (s.phase === 'move' && s.player_to_act === 0 && b.turn.seq === s.seq)"
             "  return b.turn.complete ? 'nomove' : 'move';"
             "return null;")
    for _ in range(40):
        if plays >= 2:
            break
        what = _wait(d, ready)
        seq = d.execute_script("return window.bg.state.seq")
        if what == "move":
            _play_by_clicks(d)
            plays += 1
        else:
            _click_id(d, f"act-{what}")
            plays += what == "nomove"
            _wait(d, f"return window.bg.state.seq > {seq}")
    assert plays >= 2
    # the journal has our plays and the bot's: every action committed
    state = d.execute_script("return window.bg.state")
    journal = urllib.request.urlopen(f"{server}/games/{state['id']}/actions").read()
    assert journal.count(b'"kind":"play"') >= 3
    png = tmp_path / "page.png"
    d.save_screenshot(str(png))
    keep = os.environ.get("BG_SCREENSHOT")
    if keep:
        shutil.copy(png, keep)
    image = np.asarray(Image.open(png).convert("RGB"), np.int16)
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 30      # a board, not a blank page
    assert "seq" in d.find_element(By.ID, "info").text


def test_a_second_browser_sees_the_moves(server, driver):
    from selenium.webdriver.common.by import By

    d = driver
    d.get(server + "/")
    d.find_element(By.ID, "vs-human").click()
    _wait(d, "return window.bg.state && window.bg.turn")
    other = d.find_element(By.ID, "other-link").get_attribute("value")
    assert "seat=1" in other and "token=" in other
    first = d.current_window_handle
    d.switch_to.new_window("window")
    d.get(other)
    _wait(d, "return window.bg.state && window.bg.state.phase === 'opening'")
    second = d.current_window_handle
    d.switch_to.window(first)
    d.find_element(By.ID, "act-roll").click()
    d.switch_to.window(second)
    # the WebSocket brings the opening roll to the second browser
    state = _wait(d, "return window.bg.state.seq >= 1 && window.bg.state")
    assert state["phase"] in ("opening", "move")
    d.close()
    d.switch_to.window(first)
