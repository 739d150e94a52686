"""What results give users: dice as text everywhere, probability intervals in [0, 1]."""

from __future__ import annotations

import numpy as np
import pytest

import backgammon as bg
from backgammon.errors import BackgammonError
from boards import board


@pytest.mark.parametrize("text", ["31", "3-1", "3 1", "3,1", "3/1", " 31 "])
def test_dice_as_text_everywhere(text):
    pos = bg.Position.initial()
    assert list(pos.legal_plays(text)) == list(pos.legal_plays((3, 1)))
    assert pos.legal_moves(text) == pos.legal_moves((3, 1))
    assert pos.play([(8, 5), (6, 5)], text) == pos.play([(8, 5), (6, 5)], (3, 1))
    assert pos.parse_play("8/5 6/5", text) == pos.parse_play("8/5 6/5", (3, 1))
    g = bg.Game()
    g.roll(text)
    assert g.dice == (3, 1)
    assert bg.Game.from_position(pos, dice=text).dice == (3, 1)
    results, offsets = bg.batch_successors(pos.to_array()[None, :], [text])
    assert len(results) == len(pos.legal_plays((3, 1)))


@pytest.mark.parametrize("text", ["71", "30", "311", "3--1", "", "x1", "3" * 1000])
def test_text_that_is_no_dice_is_refused(text):
    pos = bg.Position.initial()
    with pytest.raises(BackgammonError, match="dice"):
        pos.legal_plays(text)
    g = bg.Game()
    with pytest.raises(BackgammonError, match="dice"):
        g.roll(text)
    assert g.actions == () and g.phase is bg.Phase.OPENING  # unchanged


def test_probability_intervals_stay_inside_0_1():
    # the opening: backgammons are rare, so a plain interval of 72 games would reach
    # below 0; every chance's interval is kept inside [0, 1], the equity's is not
    for kw in ({}, {"cube": True}):
        r = bg.rollout(bg.Position.initial(), games=72, seed=3, **kw)
        for name in ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"):
            e = getattr(r, name)
            assert 0.0 <= e.low <= e.value <= e.high <= 1.0, (name, e)
    # a sure win: every game won, the chance 1 and its interval [1, 1]
    r = bg.rollout(board({1: 1}, {19: 3, 20: 3, 21: 3}), games=72, seed=3)
    assert (r.win.low, r.win.value, r.win.high) == (1.0, 1.0, 1.0)
    rows = bg.rollout_plays(bg.Position.initial(), "31", top=2, games=72, seed=1,
                            policy="pubeval")
    for row in rows:
        for e in (row.win, row.win_gammon, row.win_backgammon, row.lose_gammon,
                  row.lose_backgammon):
            assert 0.0 <= e.low <= e.high <= 1.0
    assert np.isfinite(rows[0].equity.low)


@pytest.mark.slow
@pytest.mark.typecheck
def test_mypy_strict_sees_precise_types(tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    try:
        import mypy  # noqa: F401
    except ImportError:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip("mypy is not installed (pip install mypy)")
    script = Path(__file__).parent / "typed_user_script.py"
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary",
                          "--cache-dir", str(tmp_path / "cache"), str(script)],
                         capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr


# The whole package passes `mypy --strict` (2026-12-05); it stays so.
MYPY_STRICT_MODULES = ("backgammon",)


@pytest.mark.slow
@pytest.mark.typecheck
@pytest.mark.parametrize("target", [None, "3.10"])   # the running Python, and the oldest supported
def test_mypy_strict_passes_on_the_package(tmp_path, target):
    import os
    import subprocess
    import sys
    from pathlib import Path

    try:
        import mypy  # noqa: F401
        import gymnasium  # noqa: F401  (gym_env's base class: without it mypy sees Any)
    except ImportError:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip("mypy or gymnasium is not installed (pip install mypy gymnasium)")
    import shutil

    import numpy as np

    if tuple(int(x) for x in np.__version__.split(".")[:2]) < (2, 3):
        # numpy < 2.3 (the last for Python 3.10 is 2.2) has stubs whose ndarray needs
        # type arguments under --strict; the modules are kept clean against the newer ones
        pytest.skip(f"numpy {np.__version__}'s stubs: the strict check runs with numpy >= 2.3")
    # the package under test (the installed wheel in CI), copied out of site-packages:
    # mypy silences errors in installed packages and will not check files there
    source = tmp_path / "src"
    shutil.copytree(Path(bg.__file__).resolve().parent, source / "backgammon",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "data", "__pycache__"))
    version = ["--python-version", target] if target else []
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary",
                          "--follow-imports=silent", "--cache-dir", str(tmp_path / "cache"),
                          *version, *MYPY_STRICT_MODULES],
                         capture_output=True, text=True, timeout=600, cwd=source)
    assert run.returncode == 0, run.stdout + run.stderr


def test_rich_displays():
    pos = bg.Position.initial()
    play = pos.parse_play("8/5 6/5", "31")
    svg = play._repr_svg_()
    assert svg.startswith("<svg") and "<script" not in svg
    game = bg.Game.from_position(pos, dice=(3, 1), match_length=5, score=(2, 1), cube=2,
                                 cube_owner=1)
    page = game._repr_html_()
    assert "5-point match, score 2-1" in page and "cube 2 owned by player 1" in page
    assert "player 0 to move" in page and "<svg" in page
    m = bg.Match(3, names=("Ann", "Bob"))
    assert "Ann 0 - 0 Bob" in m._repr_html_()
    assert "<table" in bg.evaluate(pos)._repr_html_()
    r = bg.rollout(pos, games=72, seed=1)
    assert "72 games" in r._repr_html_()
    d = bg.duel("pubeval", "random", games=4, seed=1)
    assert "points per game" in d._repr_html_()
    ranked = pos.rank_plays("31")
    assert isinstance(ranked, list) and isinstance(ranked, bg.RankedPlays)
    assert ranked._repr_html_().count("<tr>") == len(ranked) + 1
    assert str(ranked).splitlines()[1].split()[:2] == ["1", "8/5"]
    # names are escaped
    m = bg.Match(3, names=("<b>", "&"))
    assert "<b>" not in m._repr_html_().split("<svg")[0]


def test_notebook_displays_say_what_the_text_says():
    import re

    def cells(page, tag):
        return [re.sub("<[^>]+>", "", c) for c in re.findall(f"<{tag}[^>]*>(.*?)</{tag}>", page)]

    # A cube decision: column headers over the actions, and the chances line.  At an
    # even game without gammons (0.5, 0, 0, 0, 0) the text reads "win 50.0% ... lose 50.0%".
    d = bg.CubeDecision.from_chances((0.5, 0.0, 0.0, 0.0, 0.0))
    page = d._repr_html_()
    assert cells(page, "th")[:3] == ["action", "equity", "vs best"]
    assert "Chances: win 50.0% (gammon 0.0%, backgammon 0.0%), lose 50.0%" in page
    assert re.findall(r"<tr><td[^>]*>([^<]*)</td>", page)[:3] == \
        ["No double", "Double, take", "Double, pass"]
    assert "Proper cube action: No double, take" in page
    # match play: the values are match winning chances
    m = bg.CubeDecision.from_chances((0.5, 0.0, 0.0, 0.0, 0.0), score=(3, 3))
    assert "match winning chances" in cells(m._repr_html_(), "th")
    # A rollout: the "lose" row the text has (1 - win).  A sure win (one checker on
    # the 1-point, any roll bears it off): win 1, lose 0 with the interval [0, 0].
    r = bg.rollout(board({1: 1}, {19: 3, 20: 3, 21: 3}), games=72, seed=3)
    rows = re.findall(r"<tr>(.*?)</tr>", r._repr_html_())
    names = [cells(row, "td")[0] for row in rows[1:]]
    assert names[:6] == ["win", "win gammon", "win backgammon", "lose", "lose gammon",
                         "lose backgammon"]
    assert cells(rows[4], "td") == ["lose", "0.0000", "0.0000", "[0.0000, 0.0000]"]
    # Ranked plays: each column says which side's gammons it holds
    header = cells(bg.Position.initial().rank_plays("31")._repr_html_(), "th")
    assert header == ["#", "play", "equity", "win", "win gammon", "lose", "lose gammon"]
