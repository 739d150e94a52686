"""A cube decision by rollout: no double and double/take rolled out with common dice.

:func:`rollout_cube` rolls out both branches of the player on roll's cube
decision cubefully (both sides double, take and pass by the nets' 0-ply cube
decisions through the rest of each game), as XG's "rollout both" does:

- *no double*: the player rolls without doubling now;
- *double, take*: the cube is turned and taken (twice the stake, owned by the
  opponent), then the player rolls;
- *double, pass* is exact: the player wins the current stake.

Both branches play the very same games (the same seed: game ``k`` rolls the
same dice in each), in blocks of 1,296 games that give every pair of first
two rolls once (stratification).  A block holds one game per stratum, so each
game's value is read from the core's per-stratum sums, and the error of the
difference (double, take minus no double) comes from the paired games; it is
much smaller than the error of either equity.

    >>> import backgammon as bg
    >>> d = bg.rollout_cube(bg.Position.initial(), games=1296, seed=1)
    >>> d.action, d.games
    ('No double, take', 1296)
    >>> d.stderr["difference"] < d.stderr["no double"]
    True
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from backgammon import _bgcore
from backgammon.rollout.engine import STRATA, checked_seed, positive_int
from backgammon.cube import CubeDecision
from backgammon.cube.decision import game_score
from backgammon.errors import BackgammonError, IllegalActionError, RolloutError
from backgammon.game import Game, Phase
from backgammon.position import Position
from backgammon._show import shown

__all__ = ["rollout_cube", "MAX_CUBE_GAMES"]

_BLOCK = STRATA        # games: one per stratum of the first two rolls
#: The most games per branch: each block of 1,296 keeps its games' values (two float64
#: arrays of ``games`` each, 20 MB at the limit) for the stratified paired errors.
MAX_CUBE_GAMES = 1000 * _BLOCK
_CUBEFUL = 6           # the cubeful quantity of the core's extended rollout (playout.h)
_PROBABILITIES = range(5)


def rollout_cube(game_or_position: Game | Position | str, games: int = 1296, *,
                 seed: int | None = None, policy: Any = "net", workers: int | None = None,
                 cube: int = 1, owner: str = "centred", score: tuple[int, int] | None = None,
                 post_crawford: bool = False, rules: Any = None) -> CubeDecision:
    """The cube decision of the player on roll, by cubeful rollouts of both branches.

    A :class:`~backgammon.Game` waiting for a roll, or for the answer to a
    double just offered (phase ``"doubled"``: the doubler's decision is rolled
    out from the moment before the double, and ``take`` answers for the
    doubled player, as :func:`~backgammon.cube_decision` does), supplies its cube, owner,
    score, Crawford flag and rules, and so does a GNUbgID or an XGID (read as
    its game by :func:`~backgammon.rollout.read_game_or_position`, as
    ``backgammon cube ID --rollout N`` reads it, so the two agree); a
    :class:`~backgammon.Position` or a gnubg Position ID takes them as
    arguments, as :func:`~backgammon.cube_decision` does (``score`` is
    ``(away, opponent_away)``, ``None`` for money).  Those arguments given
    with a game or an ID that records its own are refused
    (:class:`~backgammon.errors.BackgammonError`) rather than silently
    dropped.  ``games`` per branch (1 to :data:`MAX_CUBE_GAMES`, 1,296,000,
    else :class:`~backgammon.errors.RolloutError`) is rounded up to whole
    blocks of 1,296; ``seed`` (0 to 2**64 - 1) fixes the games; ``policy`` is
    ``"net"`` or an :class:`~backgammon.Evaluator`; ``workers`` native threads.

    The result's equities are in :class:`~backgammon.CubeDecision`'s units
    (money: per unit of the current stake; match: match winning chances),
    with ``stderr`` and ``games``.  Refused (:class:`IllegalActionError`) when
    the player on roll may not double.

        >>> import backgammon as bg
        >>> g = bg.Game.from_position(bg.Position.initial())
        >>> g.double()                       # the question: was it right, and take?
        >>> bg.rollout_cube(g, games=1296, seed=1) == bg.rollout_cube(
        ...     bg.Game.from_position(bg.Position.initial()), games=1296, seed=1)
        True
    """
    from backgammon.cube import met

    games = positive_int(games, "games", MAX_CUBE_GAMES)
    game = _start(game_or_position, cube, owner, score, post_crawford, rules)
    if not game.can_double():
        raise IllegalActionError(
            f"no cube decision here: the player on roll may not double (cube {game.cube}"
            + ("" if game.cube_owner is None else f", owned by player {game.cube_owner}")
            + (", the Crawford game" if game.crawford else "") + ")")
    blocks = math.ceil(games / _BLOCK)
    if seed is None:
        seed = int.from_bytes(np.random.default_rng().bytes(8), "little") >> 1
    seed = checked_seed(seed)
    taken = game.copy()
    taken.double()
    taken.take()
    match = bool(game.match_length)
    nd = np.empty((blocks, _BLOCK))
    dt = np.empty((blocks, _BLOCK))
    chances = np.zeros(5)
    from backgammon.rollout import rollout

    for b in range(blocks):
        block_seed = (seed + b * 0x9E3779B97F4A7C15) % 2**63
        r_nd = rollout(game, _BLOCK, seed=block_seed, policy=policy, workers=workers,
                       cube=True, no_double=True)
        r_dt = rollout(taken, _BLOCK, seed=block_seed, policy=policy, workers=workers,
                       cube=True)
        nd[b] = _per_game(r_nd)
        # money: per unit of the taken cube (twice the stake) -> per unit of the stake
        dt[b] = _per_game(r_dt) * (1.0 if match else 2.0)
        chances += np.array(r_nd.probabilities) / blocks
    score_away, post = game_score(game)
    dp = 1.0
    if score_away is not None:
        away, opp = score_away
        # winning the stake: the table after it (a side reaching 1-away now plays the
        # Crawford game next; post-Crawford stays so)
        dp = 1.0 if away <= game.cube else met.equity(away - game.cube, opp, post_crawford=post)
    nd_e, dt_e, diff_e = _estimate(nd), _estimate(dt), _estimate(dt - nd)
    nd_v, dt_v = float(nd.mean()), float(dt.mean())
    beaver = bool(not match and game.rules.beaver and dt_v < 0.0)
    if beaver:  # RULES 9.2: redoubled at once, the beaver keeps the cube: twice the take
        dt_v, dt_e, diff_e = 2.0 * dt_v, 2.0 * dt_e, _estimate(2.0 * dt - nd)
    state_owner = "centred" if game.cube_owner is None else "own"
    return CubeDecision._from_values(
        nd_v, dt_v, float(dp), beaver=beaver,
        probabilities=tuple(float(min(1.0, max(0.0, c))) for c in chances),  # type: ignore[arg-type]
        cube=game.cube, owner=state_owner, score=score_away, post_crawford=post, x=None,
        available=True, why="", games=blocks * _BLOCK,
        stderr={"no double": nd_e, "double, take": dt_e, "difference": diff_e})


def _start(source: Any, cube: int, owner: str, score: tuple[int, int] | None,
           post_crawford: bool, rules: Any) -> Game:
    """The game whose cube decision is rolled out, waiting for the roll."""
    if isinstance(source, str):
        from backgammon.rollout.equity import read_game_or_position
        source = read_game_or_position(source)   # an XGID or GNUbgID: its whole game
    if isinstance(source, Game):
        given = [name for name, value, default in (
            ("cube", cube, 1), ("owner", owner, "centred"), ("score", score, None),
            ("post_crawford", post_crawford, False), ("rules", rules, None))
            if value != default]
        if given:
            raise BackgammonError(
                f"{', '.join(given)} given for a game (or a GNUbgID or XGID) that records "
                "its own cube, score and rules; give them with a Position or a Position ID")
        if source.phase is Phase.DOUBLED:
            return _before_double(source)
        if source.phase is not Phase.ROLL:
            raise IllegalActionError(
                "a cube decision by rollout comes before the roll or while a double is "
                f"pending; the game is in phase {shown(source.phase.value)}")
        return source.copy()
    if not isinstance(source, Position):
        raise TypeError(f"rollout_cube takes a Game, a Position or a position spelling, "
                        f"got {shown(source)}"[:300])
    if owner not in ("centred", "own", "opponent"):
        raise BackgammonError(f"owner is 'centred', 'own' or 'opponent', got {shown(owner)}")
    cube_owner = None if owner == "centred" else (0 if owner == "own" else 1)
    if score is None:
        return Game.from_position(source, cube=cube, cube_owner=cube_owner, rules=rules, rng=0)
    try:
        away, opp = (int(v) for v in score)
    except (TypeError, ValueError):
        raise TypeError(f"score is (away, opponent_away), got {shown(score)}"[:300]) from None
    length = max(away, opp)
    crawford = 1 in (away, opp) and not post_crawford and (away, opp) != (1, 1)
    return Game.from_position(source, cube=cube, cube_owner=cube_owner, rules=rules, rng=0,
                              match_length=length, score=(length - away, length - opp),
                              crawford=crawford)


def _before_double(game: Game) -> Game:
    """The game just before its pending double: the doubler on roll, the cube as it was.

    The doubler's decision (no double / double, take / double, pass) is the one rolled
    out; the doubled player's answer is the decision's ``take``, as
    :func:`~backgammon.cube_decision` gives it for the same game."""
    try:
        return Game.from_position(game.position, turn=game.turn, cube=game.cube,
                                  cube_owner=game.cube_owner, rules=game.rules, rng=0,
                                  match_length=game.match_length, score=game.score,
                                  crawford=game.crawford)
    except BackgammonError as exc:  # pragma: no cover - a doubled game was a legal ROLL one
        raise IllegalActionError(f"the game before its double cannot be set up: {exc}") from None


def _per_game(result: Any) -> np.ndarray:
    """The cubeful value of each game of a block (one game per stratum)."""
    stats = np.asarray(result.strata)
    if stats.shape[0] != _BLOCK or not (stats[:, 0] == 1).all():  # pragma: no cover
        raise RolloutError("a block of the cube rollout did not hold one game per stratum")
    return stats[:, 2 + 2 * _CUBEFUL].astype(np.float64) * 2.0 ** -_bgcore.ROLLOUT_SHIFT


def _estimate(values: np.ndarray) -> float:
    """The standard error of the mean of ``values`` (blocks x strata): stratified
    (within-stratum variance) with two blocks or more, else the plain one."""
    blocks = values.shape[0]
    if blocks >= 2:
        var = values.var(axis=0, ddof=1).mean() / (blocks * _BLOCK)
    else:
        var = values.var(ddof=1) / _BLOCK
    return float(math.sqrt(max(var, 0.0)))
