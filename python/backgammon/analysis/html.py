"""The HTML page of an :class:`~backgammon.analysis.Analysis`: one self-contained file.

Styles are inline in a ``<style>`` element and every board is an inline SVG
(:func:`backgammon.display.svg.board`), so the page references nothing outside itself
(no scripts, fonts, images or links) and can be mailed or archived as it is.

    >>> from backgammon.analysis import Analysis
    >>> page = render(Analysis(("A", "B"), 0, 0, True, (), ()), None)
    >>> page.startswith("<!DOCTYPE html>") and "src=" not in page
    True
"""

from __future__ import annotations

import html
from typing import Any

from backgammon.errors import BackgammonError

__all__ = ["render"]

_STYLE = """
body { font-family: sans-serif; margin: 1.5em; color: #222; background: #fff; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.5em; }
table { border-collapse: collapse; margin: 0.5em 0; }
td, th { border: 1px solid #bbb; padding: 0.2em 0.6em; text-align: right; }
th { background: #e8e8f0; } td.l, th.l { text-align: left; }
.decision { border: 1px solid #ccc; padding: 0.6em; margin: 0.8em 0; display: flex;
            gap: 1em; align-items: flex-start; }
.flag { font-weight: bold; color: #b00; }
.units { color: #555; }
code.id { user-select: all; -webkit-user-select: all; background: #f3f3f7; padding: 0 0.2em;
          font-size: 0.95em; }
"""


def _e(text: Any) -> str:
    return html.escape(str(text))


def _board(d: Any, orientation: str = "right") -> str:
    """The SVG board of a decision: the play made marked on the mover's position."""
    from backgammon.display import svg
    from backgammon.position import Position

    pos = Position.from_position_id(d.position_id)
    cube = None if d.cube_owner is None and d.cube == 1 else (
        d.cube, None if d.cube_owner is None else (0 if d.cube_owner == d.player else 1))
    if d.kind == "cube" and d.made in ("take", "pass", "beaver") and d.cube_owner is not None:
        cube = (d.cube, 0 if d.cube_owner != d.player else 1)  # the doubler is on roll
    last = None
    if d.kind == "play" and d.dice is not None:
        try:
            last = pos.parse_play(d.made, d.dice) if d.made != "(no move)" else None
        except BackgammonError:
            last = None
    return str(svg.board(pos, dice=d.dice, cube=cube, last_play=last, size=360,
                         orientation=orientation))


def _ids(d: Any) -> str:
    """The decision's GNUbgID and XGID, each selected whole by one click (to paste into
    gnubg or XG); the Position ID alone for a decision saved without game state."""
    if not d.gnubg_id:
        return f"Position ID <code class='id'>{_e(d.position_id)}</code>"
    xgid = d.xgid
    return (f"GNUbgID <code class='id'>{_e(d.gnubg_id)}</code>"
            + (f"<br><code class='id'>{_e(xgid)}</code>" if xgid else ""))


def render(analysis: Any, title: str | None) -> str:
    """The HTML text of ``analysis``."""
    a = analysis
    names = a.names
    title = title or f"Analysis: {names[0]} vs {names[1]}"
    s = (a.stats(0), a.stats(1))
    mwc = a.match_play
    rows = [
        ("Checker plays (unforced)", [f"{t.plays} ({t.unforced_plays})" for t in s]),
        ("Cube decisions", [t.cube_decisions for t in s]),
        ("Counted decisions", [t.counted for t in s]),
        ("Total loss", [f"{t.loss:.3f}" for t in s]),
        ("Checker play loss", [f"{t.loss_plays:.3f}" for t in s]),
        ("Cube loss", [f"{t.loss_cube:.3f}" for t in s]),
    ]
    if mwc:
        rows.append(("Total loss (MWC)", [f"{100 * (t.loss_mwc or 0):.2f}%" for t in s]))
    rows += [
        ("Error rate (mEMG per decision)", [f"{t.error_rate:.1f}" for t in s]),
        ("PR (XG-like)", [f"{t.pr:.2f}" for t in s]),
    ]
    for name in ("doubtful", "bad", "very bad", "missed double", "wrong double",
                 "wrong take", "wrong pass"):
        rows.append((name.capitalize(), [t.flags.get(name, 0) for t in s]))
    rows.append(("Luck", [f"{t.luck:+.3f}" for t in s]))
    if mwc:
        rows.append(("Luck (MWC)", [f"{100 * (t.luck_mwc or 0):+.2f}%" for t in s]))
    rows.append(("Lucky / unlucky rolls", [f"{t.lucky} / {t.unlucky}" for t in s]))
    table = "".join(f"<tr><td class='l'>{_e(label)}</td><td>{_e(v0)}</td><td>{_e(v1)}</td></tr>"
                    for label, (v0, v1) in rows)
    out = ["<!DOCTYPE html>", "<html lang='en'><head><meta charset='utf-8'>",
           f"<title>{_e(title)}</title><style>{_STYLE}</style></head><body>",
           f"<h1>{_e(title)}</h1>",
           f"<p class='units'>{_e(a._units())} Evaluated at {a.ply}-ply.</p>",
           f"<table><tr><th class='l'></th><th>{_e(names[0])}</th><th>{_e(names[1])}</th></tr>"
           f"{table}</table>"]
    out.append("<h2>Games</h2><ul>" + "".join(f"<li>{_e(line)}</li>" for line in a._game_lines())
               + "</ul>")
    flagged = a.flagged()
    out.append(f"<h2>Flagged decisions ({len(flagged)})</h2>")
    for d in flagged:
        dice = f", rolled {d.dice[0]}-{d.dice[1]}" if d.dice else ""
        options = "".join(
            f"<tr><td class='l'>{_e(text)}</td><td>{eq:+.3f}</td></tr>" for text, eq in d.options)
        action = "" if d.cube_action is None else f"<br>Proper cube action: {_e(d.cube_action)}"
        out.append(
            f"<div class='decision'><div>{_board(d)}</div><div>"
            f"<p>Game {d.game + 1}, {_e(names[d.player])}{_e(dice)}: "
            f"<span class='flag'>{_e(d.flag)}</span><br>"
            f"{_e(d.situation(names))}<br>"
            f"Made: {_e(d.made)} ({d.equity_made:+.3f})<br>Best: {_e(d.best)} "
            f"({d.equity_best:+.3f})<br>Loss: {_e(d.loss_text())}{action}</p>"
            f"<p>{_ids(d)}</p>"
            f"<table><tr><th class='l'>Choice</th><th>Equity</th></tr>{options}</table>"
            "</div></div>")
    out.append("</body></html>")
    return "\n".join(out)
