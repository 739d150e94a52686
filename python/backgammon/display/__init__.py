"""Rich displays for notebooks: the HTML and SVG that Jupyter shows for results.

Each result type's ``_repr_html_`` (or ``_repr_svg_``) comes from here: a
:class:`~backgammon.Play` is its board with arrows, a
:class:`~backgammon.Game` and a :class:`~backgammon.Match` their board with
the score, cube and whose turn it is, and the statistics
(:class:`~backgammon.RolloutResult`, :class:`~backgammon.DuelResult`,
:class:`~backgammon.Evaluation`, :class:`RankedPlays`) small tables.  The
markup is self-contained (inline SVG and style, no scripts).

:class:`RankedPlays` is what :meth:`Position.rank_plays` returns: a list of
:class:`~backgammon.RankedPlay`, best first, that prints and shows as a table.

    >>> import backgammon as bg
    >>> plays = bg.Position.initial().rank_plays("31")
    >>> print(plays[:2])
      #  play            equity    win  gammon   lose  gammon
      1  8/5 6/5        +0.1...%
      2  ...%
    >>> "<table" in plays._repr_html_()
    True
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any, SupportsIndex, overload

if TYPE_CHECKING:  # pragma: no cover
    from backgammon.game import Game
    from backgammon.match import Match
    from backgammon.nn import RankedPlay
    from backgammon.position import Play

__all__ = ["RankedPlays"]

_STYLE = ("border-collapse:collapse;font-family:sans-serif;font-size:13px")
_CELL = "padding:2px 8px;text-align:right"
_FONT = "font-family:sans-serif;font-size:13px"


def table(caption: str, header: list[str], rows: list[list[str]]) -> str:
    """A small HTML table, every cell escaped; the first column is left aligned."""
    def cells(row: list[str], tag: str) -> str:
        return "".join(f"<{tag} style='{_CELL}{';text-align:left' if i == 0 else ''}'>"
                       f"{html.escape(c)}</{tag}>" for i, c in enumerate(row))
    body = "".join(f"<tr>{cells(r, 'td')}</tr>" for r in rows)
    return (f"<table style='{_STYLE}'><caption style='text-align:left'>"
            f"{html.escape(caption)}</caption><tr>{cells(header, 'th')}</tr>{body}</table>")


# ---------------------------------------------------------------- boards

def play_svg(play: Play) -> str:
    """The position of ``play`` with its steps drawn as arrows (about to be made)."""
    from backgammon.display import svg

    return str(svg.board(play.position, last_play=play))


def game_html(game: Game, orientation: str = "right", title: str = "") -> str:
    """The board of ``game`` from the player on turn, with its dice, cube and score."""
    from backgammon.display import svg
    from backgammon.game import Phase

    turn = game.turn
    pos = game.position
    owner = None if game.cube_owner is None else (0 if game.cube_owner == turn else 1)
    board = svg.board(pos, orientation=orientation, dice=game.dice,
                      cube=(game.cube, owner), size=420)
    if game.match_length:
        s = game.score
        state = (f"{game.match_length}-point match, score {s[0]}-{s[1]}"
                 + (", Crawford game" if game.crawford else ""))
    else:
        state = "money game"
    cube = ("centred" if game.cube_owner is None else f"owned by player {game.cube_owner}")
    phase = game.phase
    if phase is Phase.OVER and game.result is not None:
        r = game.result
        now = f"player {r.winner} won {r.points} ({r.kind}, {r.reason})"
    elif phase is Phase.OPENING:
        now = "the opening roll"
    else:
        now = f"player {game.player_to_act} to {phase.value}"
    text = f"{title}{state}; cube {game.cube} {cube}; {now}"
    return f"<div><div style='font-family:sans-serif'>{html.escape(text)}</div>{board}</div>"


def match_html(match: Match) -> str:
    names = match.names
    s = match.score
    head = (f"{names[0]} {s[0]} - {s[1]} {names[1]}, game {len(match.games)} of a "
            f"{match.length}-point match" + (f", won by {names[match.winner]}. "
                                             if match.winner is not None else ". "))
    return game_html(match.game, match.orientation(), head)


# ---------------------------------------------------------------- statistics

def _pct(v: float) -> str:
    return f"{v:.1%}"


def evaluation_html(e: Any) -> str:
    rows = [[name, f"{getattr(e, key):.4f}"] for name, key in (
        ("win", "win"), ("win gammon", "win_gammon"), ("win backgammon", "win_backgammon"),
        ("lose", "lose"), ("lose gammon", "lose_gammon"),
        ("lose backgammon", "lose_backgammon"))]
    rows.append(["equity (cubeless)", f"{e.equity:+.4f}"])
    return table("Evaluation, for the player on roll", ["", "chance"], rows)


def _estimate_row(name: str, est: Any, signed: bool = False) -> list[str]:
    f = "{:+.4f}" if signed else "{:.4f}"
    return [name, f.format(est.value), f"{est.stderr:.4f}",
            f"[{f.format(est.low)}, {f.format(est.high)}]"]


def rollout_html(r: Any) -> str:
    """The table of a :class:`~backgammon.RolloutResult`: the rows its text shows
    (the ``lose`` row is 1 - win, with the win's error and its interval turned)."""
    rows = [_estimate_row(n, getattr(r, k)) for n, k in (
        ("win", "win"), ("win gammon", "win_gammon"), ("win backgammon", "win_backgammon"))]
    rows.append(["lose", f"{1.0 - r.win.value:.4f}", f"{r.win.stderr:.4f}",
                 f"[{1.0 - r.win.high:.4f}, {1.0 - r.win.low:.4f}]"])
    rows += [_estimate_row(n, getattr(r, k)) for n, k in (
        ("lose gammon", "lose_gammon"), ("lose backgammon", "lose_backgammon"))]
    rows.append(_estimate_row("equity (cubeless)", r.equity, signed=True))
    if r.cubeful is not None:
        rows.append(_estimate_row("match winning (cubeful)" if r.match else "equity (cubeful)",
                                  r.cubeful, signed=not r.match))
    caption = (f"Rollout of {r.position.position_id()}: {r.games:,} games, policy "
               f"{r.policy}, seed {r.seed}" + (", stratified" if r.stratified else ""))
    return table(caption, ["", "value", "std err", "95% interval"], rows)


def cube_chances(probabilities: Any) -> str:
    """The chances line of a cube decision, as its text shows it.

        >>> cube_chances((0.7, 0.2, 0.01, 0.05, 0.0))
        'Chances: win 70.0% (gammon 20.0%, backgammon 1.0%), lose 30.0% (gammon 5.0%, backgammon 0.0%)'
    """
    w, wg, wb, lg, lb = probabilities
    return (f"Chances: win {w:.1%} (gammon {wg:.1%}, backgammon {wb:.1%}), "
            f"lose {1 - w:.1%} (gammon {lg:.1%}, backgammon {lb:.1%})")


def cube_html(d: Any) -> str:
    """The table of a :class:`~backgammon.CubeDecision`: a heading with the score, cube
    and how it was found, the chances line, then one row per action under column
    headers (the value, its error for a rollout, the difference from the best), and
    the proper action.

        >>> from backgammon.cube import CubeDecision
        >>> page = cube_html(CubeDecision.from_chances((0.5, 0.0, 0.0, 0.0, 0.0)))
        >>> "<th" in page and "Chances: win 50.0%" in page and "No double, take" in page
        True
    """
    esc = html.escape
    fmt = "{:.2%}" if d.match_play else "{:+.4f}"
    unit = "match winning chances" if d.match_play else "equity"
    rolled = bool(d.stderr)
    header = ["action", unit] + (["std err"] if rolled else []) + ["vs best"]
    rows = d._rows() if d.available else d._rows()[:1]
    body = []
    for k, (name, value, diff) in enumerate(rows):
        cells = [name, fmt.format(value)]
        if rolled:
            cells.append(d._error_text(k).strip())
        cells.append("" if abs(diff) < 5e-10 else f"{diff:+.4f}")
        body.append(cells)
    width = len(header)

    def row(cells: list[str], tag: str) -> str:
        return "<tr>" + "".join(
            f"<{tag} style='{_FONT};{_CELL}{';text-align:left' if i == 0 else ''}'>{esc(c)}</{tag}>"
            for i, c in enumerate(cells)) + "</tr>"

    extra = ""
    if rolled:
        extra = (f"<tr><td colspan='{width}' style='{_FONT};{_CELL};text-align:left'>"
                 f"Double, take minus no double: error {d.stderr['difference']:.4f} "
                 "(paired games)</td></tr>")
    # a bare <table>, as the display always began (the font is on the caption and cells)
    return (f"<table><caption style='text-align:left;{_FONT}'>{esc(d._heading())}"
            f"<br>{esc(cube_chances(d.probabilities))}</caption>{row(header, 'th')}"
            + "".join(row(cells, "td") for cells in body) + extra
            + f"<tr><th colspan='{width}' style='{_FONT};{_CELL};text-align:left'>Proper cube action: "
            f"{esc(d.action)}</th></tr></table>")


def duel_html(d: Any) -> str:
    rows = [_estimate_row("points per game", d.ppg, signed=True),
            ["wins", f"{d.wins[0]:,} - {d.wins[1]:,}", "", ""],
            ["gammons", f"{d.gammons[0]:,} - {d.gammons[1]:,}", "", ""],
            ["backgammons", f"{d.backgammons[0]:,} - {d.backgammons[1]:,}", "", ""]]
    caption = (f"{d.a} vs {d.b}: {d.games:,} games ({d.games // 2:,} duplicate pairs), "
               f"seed {d.seed}")
    return table(caption, ["", d.a, "std err", "95% interval"], rows)


# ---------------------------------------------------------------- ranked plays

class RankedPlays(list["RankedPlay"]):
    """The ranked plays of a roll, best first (a list of
    :class:`~backgammon.RankedPlay`) that prints and shows as a table."""

    def _rows(self) -> list[list[str]]:
        out = []
        for i, r in enumerate(self, 1):
            e = r.evaluation
            out.append([str(i), str(r.play) or "(no move)", f"{r.equity:+.4f}", _pct(e.win),
                        _pct(e.win_gammon), _pct(1.0 - e.win), _pct(e.lose_gammon)])
        return out

    def __str__(self) -> str:
        lines = [f"  {'#':>1}  {'play':<14} {'equity':>7} {'win':>6} {'gammon':>7} "
                 f"{'lose':>6} {'gammon':>7}"]
        for n, play, eq, w, wg, lo, lg in self._rows():
            lines.append(f"{n:>3}  {play:<14} {eq:>7} {w:>6} {wg:>7} {lo:>6} {lg:>7}")
        return "\n".join(lines)

    @overload
    def __getitem__(self, index: SupportsIndex) -> RankedPlay: ...
    @overload
    def __getitem__(self, index: slice) -> RankedPlays: ...
    def __getitem__(self, index: SupportsIndex | slice) -> RankedPlay | RankedPlays:
        if isinstance(index, slice):
            return RankedPlays(list.__getitem__(self, index))
        return list.__getitem__(self, index)

    def _repr_html_(self) -> str:
        ply = self[0].ply if self else 0
        return table(f"Ranked plays ({ply}-ply, cubeless equity for the mover)",
                     ["#", "play", "equity", "win", "win gammon", "lose", "lose gammon"],
                     self._rows())


def install_displays() -> None:
    """Give the result types of modules edited elsewhere (nn, duel) their displays."""
    from backgammon.analysis.duel import DuelResult
    from backgammon.nn import Evaluation

    for cls, render in ((Evaluation, evaluation_html), (DuelResult, duel_html)):
        if not hasattr(cls, "_repr_html_"):
            setattr(cls, "_repr_html_", lambda self, _r=render: _r(self))
