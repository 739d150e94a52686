"""The report of an analysis: :class:`Analysis` (the decisions and rolls of
every game, totals, error rates and PR per player, text, JSON and HTML).

    >>> import backgammon as bg
    >>> a = bg.analyse(bg.Match(1, rng=3))
    >>> a.names
    ('Player 0', 'Player 1')
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from backgammon.errors import BackgammonError, InvalidRecordError
from backgammon._numbers import json_int
from backgammon.analysis.decisions import (FORMAT, LUCK_THRESHOLDS, VERSION, Decision,
                                           GameEnd, PlayerStats, Roll, bounded_list, items_of,
                                           plain_dict)

__all__ = ["Analysis"]

# ---------------------------------------------------------------- the report

@dataclass(frozen=True)
class Analysis:
    """The analysis of a match: ``decisions`` and ``rolls`` in order, per-player totals.

    ``str()`` is a text report, :meth:`to_html` a self-contained HTML page,
    :meth:`to_dict` / :meth:`to_json` the data (read back by :meth:`from_dict`
    / :meth:`from_json`).
    """

    names: tuple[str, str]
    match_length: int
    ply: int
    cube: bool
    decisions: tuple[Decision, ...]
    rolls: tuple[Roll, ...]
    results: tuple[GameEnd | None, ...] = field(default=())
    forced: tuple[int, int] = (0, 0)

    @property
    def match_play(self) -> bool:
        return self.match_length > 0

    def _player(self, player: int) -> int:
        if isinstance(player, bool) or player not in (0, 1):
            raise BackgammonError(f"players are 0 and 1, got {player!r}")
        return player

    def flagged(self, player: int | None = None) -> list[Decision]:
        """The flagged decisions (of ``player``, or of both)."""
        return [d for d in self.decisions
                if d.flag is not None and (player is None or d.player == player)]

    def worst(self, n: int = 10, player: int | None = None, kind: str | None = None
              ) -> list[Decision]:
        """The ``n`` decisions that lost the most equity (normalised, as ``loss``),
        worst first (equal losses in match order), of ``player`` (0 or 1, or both) and
        of ``kind`` (``"play"``, ``"cube"``, or both); decisions that lost nothing are
        left out, so fewer than ``n`` may come back.

            >>> import backgammon as bg
            >>> m = bg.Match(3, rng=3)
            >>> m.game.roll((6, 1)); m.game.play("13/7 8/7")
            >>> bg.analyse(m).worst(5)
            []
        """
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise BackgammonError(f"n is a whole number of decisions >= 0, got {n!r}"[:200])
        if player is not None:
            self._player(player)
        if kind not in (None, "play", "cube"):
            raise BackgammonError(f"kind is 'play', 'cube' or None, got {kind!r}"[:200])
        mine = [d for d in self.decisions if d.loss > 0
                and (player is None or d.player == player) and (kind is None or d.kind == kind)]
        return sorted(mine, key=lambda d: -d.loss)[:n]   # a stable sort: match order on ties

    def error_rate(self, player: int) -> float:
        """gnubg's error rate: total loss per counted decision x 1000 (mEMG)."""
        return self.stats(player).error_rate

    def pr(self, player: int) -> float:
        """A PR-like figure: 500 x the average loss per decision, counted as XG does."""
        return self.stats(player).pr

    def stats(self, player: int) -> PlayerStats:
        """The totals of ``player``."""
        p = self._player(player)
        mine = [d for d in self.decisions if d.player == p]
        plays = [d for d in mine if d.kind == "play"]
        cubes = [d for d in mine if d.kind == "cube"]
        loss = sum(d.loss for d in mine)
        counted = sum(d.counted for d in mine)
        counted_pr = sum(d.counted_pr for d in mine)
        flags: dict[str, int] = {}
        for d in mine:
            if d.flag is not None:
                flags[d.flag] = flags.get(d.flag, 0) + 1
        rolls = [r for r in self.rolls if r.player == p]
        mwc = (sum(d.loss_mwc or 0.0 for d in mine) if self.match_play else None)
        luck_mwc = (sum(r.luck_mwc or 0.0 for r in rolls) if self.match_play else None)
        return PlayerStats(
            player=p, name=self.names[p], plays=len(plays) + self.forced[p], unforced_plays=len(plays),
            cube_decisions=len(cubes), counted=counted, counted_pr=counted_pr, loss=loss,
            loss_plays=sum(d.loss for d in plays), loss_cube=sum(d.loss for d in cubes),
            loss_mwc=mwc, error_rate=1000.0 * loss / counted if counted else 0.0,
            pr=500.0 * loss / counted_pr if counted_pr else 0.0, flags=flags,
            luck=sum(r.luck for r in rolls), luck_mwc=luck_mwc, rolls=len(rolls),
            lucky=sum(r.luck > LUCK_THRESHOLDS[1][1] for r in rolls),
            unlucky=sum(r.luck < -LUCK_THRESHOLDS[1][1] for r in rolls))

    # -------------------------------------------------------------- text

    def _units(self) -> str:
        if self.match_play:
            return (f"{self.match_length}-point match.  Losses and luck in normalised equity "
                    "(EMG); in match play also in match winning chances (MWC %).")
        return "Money play.  Losses and luck in equity per unit of the cube."

    def _game_lines(self) -> list[str]:
        out = []
        for i, r in enumerate(self.results):
            if r is None:
                out.append(f"game {i + 1}: not finished")
                continue
            kind = "" if r["kind"] == "single" else f" ({r['kind']})"
            how = {"drop": ", double passed", "resign": ", resigned"}.get(r["reason"], "")
            points = r["points"]
            out.append(f"game {i + 1}: {self.names[r['winner']]} wins {points} "
                       f"point{'s' if points != 1 else ''}{kind}{how}")
        return out

    def __str__(self) -> str:
        lines = [f"Analysis at {self.ply}-ply: {self.names[0]} vs {self.names[1]}",
                 self._units(), ""]
        head = f"{'':28}{self.names[0][:20]:>22}{self.names[1][:20]:>22}"
        lines.append(head)
        s = (self.stats(0), self.stats(1))

        def row(label: str, fmt: Any) -> None:
            lines.append(f"{label:28}{fmt(s[0]):>22}{fmt(s[1]):>22}")

        row("Checker plays (unforced)", lambda t: f"{t.plays} ({t.unforced_plays})")
        row("Cube decisions", lambda t: str(t.cube_decisions))
        row("Counted decisions", lambda t: str(t.counted))
        row("Total loss", lambda t: f"{t.loss:.3f}")
        row("  checker play", lambda t: f"{t.loss_plays:.3f}")
        row("  cube", lambda t: f"{t.loss_cube:.3f}")
        if self.match_play:
            row("Total loss (MWC)", lambda t: f"{100 * (t.loss_mwc or 0):.2f}%")
        row("Error rate (mEMG/decision)", lambda t: f"{t.error_rate:.1f}")
        row("PR (XG-like)", lambda t: f"{t.pr:.2f}")
        for name in ("doubtful", "bad", "very bad", "missed double", "wrong double",
                     "wrong take", "wrong pass"):
            row(f"  {name}", lambda t, n=name: str(t.flags.get(n, 0)))
        row("Luck (total)", lambda t: f"{t.luck:+.3f}")
        if self.match_play:
            row("Luck (MWC)", lambda t: f"{100 * (t.luck_mwc or 0):+.2f}%")
        row("Luck per roll (x 1000)", lambda t: f"{1000 * t.luck / t.rolls:+.1f}" if t.rolls else "0")
        row("Lucky / unlucky rolls", lambda t: f"{t.lucky} / {t.unlucky}")
        lines += ["", "Games:"] + [f"  {line}" for line in self._game_lines()]
        flagged = self.flagged()
        lines += ["", f"Flagged decisions ({len(flagged)}):"]
        for d in flagged:
            lines.append(f"  {d.describe(self.names)}")
            ids = [f"GNUbgID {d.gnubg_id}", d.xgid] if d.gnubg_id else \
                [f"Position ID {d.position_id}"]
            lines += [f"      {i}" for i in ids if i]
        return "\n".join(lines)

    # -------------------------------------------------------------- data

    def to_dict(self) -> dict[str, Any]:
        """The analysis as JSON-ready data (``format`` and ``version`` included)."""
        return {"format": FORMAT, "version": VERSION, "names": list(self.names),
                "match_length": self.match_length, "ply": self.ply, "cube": self.cube,
                "forced": list(self.forced),
                "results": [None if r is None else dict(r) for r in self.results],
                "decisions": [plain_dict(asdict(d)) for d in self.decisions],
                "rolls": [plain_dict(asdict(r)) for r in self.rolls]}

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: Any) -> Analysis:
        """The analysis :meth:`to_dict` wrote (:class:`InvalidRecordError` if malformed)."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise InvalidRecordError(f"not a {FORMAT} record")
        if data.get("version") != VERSION:
            raise InvalidRecordError(f"{FORMAT} version {data.get('version')!r}, "
                                     f"this library reads {VERSION}")
        try:
            given = tuple(str(n) for n in data["names"])
            if len(given) != 2:
                raise ValueError("two names")
            names = (given[0], given[1])
            decisions = items_of(data["decisions"], Decision)
            rolls = items_of(data["rolls"], Roll)
            results = tuple(_result(r) for r in bounded_list(data.get("results", [])))
            length, ply, cube = data["match_length"], data["ply"], data["cube"]
            counts = tuple(json_int(n, "forced") for n in data.get("forced", (0, 0)))
            if len(counts) != 2:
                raise ValueError("two forced counts")
            forced = (counts[0], counts[1])
            if not (isinstance(length, int) and isinstance(ply, int) and isinstance(cube, bool)):
                raise ValueError("match_length, ply and cube")
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidRecordError(f"{FORMAT}: malformed record ({exc})"[:300]) from None
        return cls(names=names, match_length=length, ply=ply, cube=cube,
                   decisions=decisions, rolls=rolls, results=results, forced=forced)

    @classmethod
    def from_json(cls, text: str | bytes) -> Analysis:
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise InvalidRecordError(f"{FORMAT}: not JSON ({exc})"[:300]) from None
        return cls.from_dict(data)

    # -------------------------------------------------------------- HTML

    def to_html(self, title: str | None = None) -> str:
        """A self-contained HTML report (inline CSS and SVG boards, no external references)
        with the totals and the board of every flagged decision."""
        from backgammon.analysis.html import render
        return render(self, title)

    def _repr_html_(self) -> str:  # Jupyter
        return self.to_html()


def _result(r: Any) -> GameEnd | None:
    if r is None:
        return None
    if not (isinstance(r, dict) and r.get("winner") in (0, 1) and isinstance(r.get("points"), int)
            and isinstance(r.get("kind"), str) and isinstance(r.get("reason"), str)):
        raise ValueError(f"a game result is winner, points, kind and reason, got {r!r}"[:200])
    return GameEnd(winner=r["winner"], points=r["points"], kind=r["kind"], reason=r["reason"])
