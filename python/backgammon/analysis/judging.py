"""Judge a bot on the decisions of real games: the yardstick for comparing bots.

:func:`judge` replays a :class:`~backgammon.Match`, a :class:`~backgammon.Game`
or a list of games and, at every decision of the chosen players, asks the
bot what it would do there, then values its choice with the analysis'
own code (:mod:`backgammon.analysis`: the same cubeful values, the same ply
and move filter, the same cube decisions).  The games go on as recorded,
whatever the bot said.  A checker play with a single legal choice is no
decision; cube decisions are judged when the bot has ``cube_action(game)``
(``"double"`` / ``"roll"`` before a roll where a double is allowed, and
``"take"`` / ``"drop"`` when the recorded game had a double to answer).

    >>> import backgammon as bg
    >>> m = bg.Match(1, rng=3)
    >>> m.game.roll((6, 1)); m.game.play("13/7 8/7")
    >>> j = judge("pubeval", m, ply=0)
    >>> len(j.decisions), j.decisions[0].bot, j.decisions[0].loss
    (1, '13/7 8/7', 0.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from backgammon._show import shown
from backgammon.analysis import default_evaluator
from backgammon.analysis.analyser import (DEFAULT_PLY, Valuer, decision_context, doubler_choice,
                                          games_of, is_nets, play_text, taker_choice)
from backgammon.errors import BackgammonError, InvalidSetupError
from backgammon.game import Game, Phase

if TYPE_CHECKING:
    from backgammon.nn.evaluator import Evaluator

__all__ = ["JudgedDecision", "Judgement", "judge"]

_CUBE_ANSWERS = {"double": "double", "roll": "no double", "take": "take", "drop": "pass",
                 "pass": "pass", "beaver": "beaver"}


@dataclass(frozen=True)
class JudgedDecision:
    """The bot's answer to one decision of the games.

    ``game`` (0-based) and ``action`` (the index in that game's record) place
    it; ``player`` is whose decision it was; ``kind`` is ``"play"`` or
    ``"cube"``.  ``bot``, ``best`` and ``made`` (what the game's player did)
    are a play in gnubg's notation or ``"double"``, ``"no double"``,
    ``"take"``, ``"pass"``.  ``equity_bot`` and ``equity_best`` are the
    analysis' normalised cubeful equities for ``player``; ``loss`` (>= 0) is
    what the bot's choice gives up against the best, ``loss_mwc`` the same
    in match winning chances (``None`` in money play).
    """

    game: int
    action: int
    player: int
    kind: str
    bot: str
    best: str
    made: str
    equity_bot: float
    equity_best: float
    loss: float
    loss_mwc: float | None

    @property
    def is_best(self) -> bool:
        """Whether the bot's choice is as good as the best (a loss below 1e-9)."""
        return self.loss < 1e-9


@dataclass(frozen=True)
class Judgement:
    """All the judged decisions and their summary.

    ``mean_loss`` is in millipoints (thousandths of a normalised point) per
    decision, ``stderr`` its standard error; ``best_share`` the share of
    decisions where the bot chose a best choice; all also per kind
    (``kind="play"`` or ``"cube"``).  ``versus`` compares two bots judged on
    the same games, paired decision by decision.
    """

    decisions: tuple[JudgedDecision, ...]
    ply: int
    match_length: int

    def _of(self, kind: str | None) -> list[JudgedDecision]:
        if kind not in (None, "play", "cube"):
            raise InvalidSetupError(f"kind is None, 'play' or 'cube', got {shown(kind)}")
        return [d for d in self.decisions if kind is None or d.kind == kind]

    def count(self, kind: str | None = None) -> int:
        return len(self._of(kind))

    def mean_loss(self, kind: str | None = None) -> float:
        """Mean loss per decision in millipoints (nan without decisions)."""
        ds = self._of(kind)
        return 1000.0 * sum(d.loss for d in ds) / len(ds) if ds else math.nan

    def stderr(self, kind: str | None = None) -> float:
        """Standard error of :meth:`mean_loss` in millipoints (nan under two decisions)."""
        ds = self._of(kind)
        if len(ds) < 2:
            return math.nan
        return 1000.0 * float(np.std([d.loss for d in ds], ddof=1)) / math.sqrt(len(ds))

    def versus(self, other: Judgement, kind: str | None = None) -> tuple[float, float, int]:
        """``(difference, stderr, n)``: this bot's mean loss minus ``other``'s in
        millipoints over the ``n`` decisions both judged (the same games), paired
        decision by decision, with its standard error (nan under two decisions)."""
        if not isinstance(other, Judgement):
            raise InvalidSetupError(f"versus takes another Judgement, got {shown(other)}"[:300])
        theirs = {(d.game, d.action, d.kind, d.player): d.loss for d in other._of(kind)}
        diffs = [d.loss - theirs[key] for d in self._of(kind)
                 if (key := (d.game, d.action, d.kind, d.player)) in theirs]
        n = len(diffs)
        if not n:
            return math.nan, math.nan, 0
        mean = 1000.0 * sum(diffs) / n
        se = (1000.0 * float(np.std(diffs, ddof=1)) / math.sqrt(n)) if n > 1 else math.nan
        return mean, se, n

    def total_loss(self, kind: str | None = None) -> float:
        """Total loss in normalised points."""
        return sum(d.loss for d in self._of(kind))

    def best_share(self, kind: str | None = None) -> float:
        """Share of the decisions where the bot chose a best choice (nan without any)."""
        ds = self._of(kind)
        return sum(d.is_best for d in ds) / len(ds) if ds else math.nan

    def __str__(self) -> str:
        lines = [f"Judged at {self.ply}-ply "
                 f"({'money' if not self.match_length else f'{self.match_length}-point match'})",
                 f"{'':8}{'decisions':>10}{'mean loss (mp)':>22}{'best':>8}"]
        for label, kind in (("plays", "play"), ("cube", "cube"), ("all", None)):
            n = self.count(kind)
            if n or kind is None:
                loss = "-"
                if n:
                    se = self.stderr(kind)
                    loss = f"{self.mean_loss(kind):.1f}" + ("" if math.isnan(se) else f" ± {se:.1f}")
                best = f"{100 * self.best_share(kind):.1f}%" if n else "-"
                lines.append(f"{label:8}{n:>10}{loss:>22}{best:>8}")
        return "\n".join(lines)


def _play_chooser(bot: Any) -> Any:
    """``choose(game) -> Play`` for a Bot (it sees a copy of the game) or a duel policy."""
    from backgammon.env.opponents import checked_play
    if hasattr(bot, "choose_play"):
        def ask(game: Game) -> Any:
            assert game.dice is not None
            return checked_play(game.position, game.dice, bot.choose_play(game.copy()))
        return ask
    from backgammon.env.duel_loop import chooser
    try:
        pick = chooser(bot, 0, np.random.default_rng(0))
    except BackgammonError:
        raise InvalidSetupError(f"judge needs a Bot (choose_play(game)), 'net', 'pubeval', "
                                f"'random', an Evaluator or a scoring callable, got "
                                f"{shown(bot)}"[:300]) from None
    return lambda game: pick(game.position, game.dice, game.turn)


def _cube_answer(bot: Any, game: Game, allowed: tuple[str, ...]) -> str:
    action = bot.cube_action(game.copy())
    if action not in allowed:
        raise InvalidSetupError(f"the bot's cube_action must be one of {allowed} here, "
                                f"got {shown(action)}"[:300])
    return _CUBE_ANSWERS[action]


class _Judge:
    def __init__(self, bot: Any, valuer: Valuer, players: tuple[int, ...]) -> None:
        self.choose = _play_chooser(bot)
        self.bot = bot if hasattr(bot, "cube_action") else None
        self.valuer = valuer
        self.players = players
        self.out: list[JudgedDecision] = []

    def game(self, number: int, game: Game) -> None:
        replay = game.restart()
        pending = None   # the doubler's valued decision, for the answer
        for index, action in enumerate(game.actions):
            kind = action.kind
            if replay.phase is Phase.ROLL and kind in ("roll", "double"):
                pending = None
                if self.bot is not None and replay.turn in self.players and replay.can_double():
                    self._double(number, index, replay, "double" if kind == "double" else "no double")
                if kind == "double":
                    pending = self.valuer.cube_values(replay, replay.turn)
            elif kind in ("take", "drop", "beaver") and pending is not None:
                if self.bot is not None and 1 - replay.turn in self.players:
                    self._answer(number, index, replay, pending, _CUBE_ANSWERS[kind])
                pending = None
            elif kind == "play" and replay.phase is Phase.MOVE and replay.turn in self.players:
                self._play(number, index, replay, action.value)
            replay.apply(action)

    def _play(self, number: int, index: int, game: Game, steps: Any) -> None:
        position, dice = game.position, game.dice
        assert dice is not None
        plays = position.legal_plays(dice)
        if len(plays) < 2:
            return  # forced: no decision
        try:
            made = play_text(plays[plays.index(position.play(tuple(map(tuple, steps)), dice))])
        except (BackgammonError, ValueError):
            made = "(illegal)"  # an unchecked illegal play (RULES 12.4): the bot is still asked
        chosen = plays.index(self.choose(game).result)
        ctx = decision_context(game, game.turn)
        values, mwc = self.valuer.play_values(plays._results, ctx, chosen)
        best = int(np.argmax(values))
        loss = max(0.0, float(values[best] - values[chosen]))
        loss_mwc = None if mwc is None else max(0.0, float(mwc[best] - mwc[chosen]))
        self.out.append(JudgedDecision(
            number, index, game.turn, "play", play_text(plays[chosen]), play_text(plays[best]),
            made, float(values[chosen]), float(values[best]), loss, loss_mwc))

    def _double(self, number: int, index: int, game: Game, made: str) -> None:
        valued = self.valuer.cube_values(game, game.turn)
        if valued is None:
            return  # a dead cube: no decision (as in the analysis)
        d, ctx, values = valued
        said = _cube_answer(self.bot, game, ("double", "roll"))
        equity, optimal, best = doubler_choice(d, values, said)
        self._cube(number, index, game.turn, said, best, made, equity, optimal, ctx)

    def _answer(self, number: int, index: int, game: Game, pending: Any, made: str) -> None:
        d, ctx, values = pending
        said = _cube_answer(self.bot, game, ("take", "drop"))
        equity, optimal, best = taker_choice(d, values, said)
        self._cube(number, index, 1 - game.turn, said, best, made, equity, optimal, ctx)

    def _cube(self, number: int, index: int, player: int, said: str, best: str, made: str,
              equity: float, optimal: float, ctx: Any) -> None:
        loss = max(0.0, optimal - equity)
        self.out.append(JudgedDecision(number, index, player, "cube", said, best, made,
                                       float(equity), float(optimal), loss,
                                       None if ctx.score is None else loss * ctx.scale))


def judge(bot: Any, games: Any, ply: int | None = None, evaluator: Evaluator | None = None, *,
          players: tuple[int, ...] = (0, 1)) -> Judgement:
    """Ask ``bot`` every decision of ``games`` and value its answers as the analysis does.

    ``bot``: a Bot (``choose_play(game)``; ``cube_action(game)`` optional: its
    cube decisions are judged too), or a policy of the duels (``"net"``,
    ``"pubeval"``, ``"random"``, an Evaluator, a scoring callable).
    ``games``: a Match, a Game or a list of Games.  ``ply`` and ``evaluator``:
    as :func:`backgammon.analyse` (default 2-ply with the bundled nets).
    ``players``: whose decisions to ask (default both).
    """
    if not isinstance(players, tuple) or not players or any(
            isinstance(p, bool) or p not in (0, 1) for p in players):
        raise InvalidSetupError(f"players is a tuple of 0 and/or 1, got {shown(players)}"[:300])
    found, _, length = games_of(games)
    if ply is None:
        if evaluator is None:
            evaluator = default_evaluator()
        ply = DEFAULT_PLY if is_nets(evaluator) else 0
    judged = _Judge(bot, Valuer(evaluator, ply), tuple(sorted(set(players))))
    for number, game in enumerate(found):
        judged.game(number, game)
    return Judgement(tuple(judged.out), ply, length)
