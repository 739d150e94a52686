"""Cubeful equity: what the five cubeless chances are worth with the doubling cube.

Money play follows Janowski's model.  A position's cubeless chances give the
average value of a win ``W`` and of a loss ``L`` (1 plus the gammon and
backgammon rates).  With a *dead* cube the equity is ``p W - (1 - p) L``; with
a *fully live* cube (chances change smoothly, so a double comes exactly at the
opponent's take point) it is piecewise linear between the take point and the
cash point.  Real cubes lie between: the cubeful equity is ``x`` times the live
value plus ``1 - x`` times the dead one, where ``x`` is the cube efficiency
(:func:`cube_efficiency`, gnubg's published values by default).

Chances are gnubg's five cumulative outputs for the player on roll, before the
roll: win, win gammon, win backgammon, lose gammon, lose backgammon (any
sequence of five numbers, or an object with those attribute names).  Equities
are per unit of the current stake, from the side of the player on roll.

    >>> from backgammon import cubeful
    >>> gammonless = (0.75, 0, 0, 0, 0)
    >>> round(cubeful.money_equity(gammonless, "centred", x=0.0), 4)   # dead cube
    0.5
    >>> round(cubeful.take_point((0.5, 0, 0, 0, 0), x=1.0), 4)          # fully live
    0.2
"""

from __future__ import annotations

from typing import Any, Final, Literal

from backgammon.errors import BackgammonError
from backgammon.position import Position
from backgammon._show import shown
from backgammon._numbers import integer

__all__ = [
    "CENTRED", "OWN", "OPPONENT", "Owner", "cash_point", "check_cube", "chances_tuple", "cube_efficiency",
    "cubeless_equity", "doubling_point", "money_equity", "take_point", "win_loss_values",
]

CENTRED: Final = "centred"
OWN: Final = "own"
OPPONENT: Final = "opponent"
Owner = Literal["centred", "own", "opponent"]
"""Who may double next: nobody has yet (``"centred"``), the player on roll, or the opponent."""

_NAMES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
_EPS = 1e-6


def chances_tuple(chances: Any) -> tuple[float, float, float, float, float]:
    """The five chances as floats, checked: probabilities, ordered as gnubg's outputs are.

        >>> chances_tuple((0.6, 0.2, 0.01, 0.1, 0.0))
        (0.6, 0.2, 0.01, 0.1, 0.0)
    """
    if all(hasattr(chances, n) for n in _NAMES):
        values = [getattr(chances, n) for n in _NAMES]
    else:
        try:
            values = list(chances)
        except TypeError:
            raise TypeError(f"chances are five numbers, got {type(chances).__name__}") from None
        if len(values) != 5:
            raise BackgammonError(f"chances are five numbers, got {len(values)}")
    try:
        w, wg, wb, lg, lb = (float(v) for v in values)
    except (TypeError, ValueError):
        raise TypeError(f"chances are five numbers, got {shown(values)}") from None
    if not all(-_EPS <= v <= 1 + _EPS for v in (w, wg, wb, lg, lb)):
        raise BackgammonError(f"chances are probabilities from 0 to 1, got {shown(values)}")
    if not (wb <= wg + _EPS and wg <= w + _EPS and lb <= lg + _EPS and lg <= 1 - w + _EPS):
        raise BackgammonError(
            "chances are cumulative: win >= win gammon >= win backgammon and "
            f"1 - win >= lose gammon >= lose backgammon, got {shown(values)}")
    return w, wg, wb, lg, lb


def cubeless_equity(chances: Any) -> float:
    """The cubeless money equity: ``2 win - 1 + (wg - lg) + (wb - lb)``.

        >>> cubeless_equity((1.0, 1.0, 0.0, 0.0, 0.0))
        2.0
    """
    w, wg, wb, lg, lb = chances_tuple(chances)
    return 2 * w - 1 + wg - lg + wb - lb


def win_loss_values(chances: Any) -> tuple[float, float, float]:
    """``(p, W, L)``: the win chance and the average points of a win and of a loss.

    ``W = 1 + (wg + wb) / p`` (a gammon adds one point, a backgammon another);
    when a side never wins its value is taken as 1 (it is multiplied by 0).

        >>> win_loss_values((0.5, 0.25, 0.0, 0.0, 0.0))
        (0.5, 1.5, 1.0)
    """
    w, wg, wb, lg, lb = chances_tuple(chances)
    w = min(max(w, 0.0), 1.0)
    big_w = 1.0 + (wg + wb) / w if w > _EPS else 1.0
    big_l = 1.0 + (lg + lb) / (1 - w) if w < 1 - _EPS else 1.0
    return w, big_w, big_l


def check_cube(cube: int) -> int:
    """``cube`` if it is a cube value (a power of two), else :class:`BackgammonError`."""
    value = integer(cube)  # numpy integers too
    if value is None or value < 1 or value & (value - 1):
        raise BackgammonError(f"the cube is a power of two, got {shown(cube)}")
    return value


def _check_x(x: float) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not 0.0 <= x <= 1.0:
        raise BackgammonError(f"the cube efficiency x is a number from 0 to 1, got {shown(x)}")
    return float(x)


def _live_points(big_w: float, big_l: float) -> tuple[float, float]:
    """The fully live take point and cash point, as the mover's win chance.

    Below the first the opponent cashes (the mover would pass their double),
    above the second the mover cashes.
    """
    k = big_w + big_l + 0.5
    return (big_l - 0.5) / k, (big_l + 1.0) / k


def _live(p: float, big_w: float, big_l: float, owner: str, jacoby: bool) -> float:
    """The fully live cube equity (Janowski), piecewise linear in p."""
    tp, cp = _live_points(big_w, big_l)
    if owner != OPPONENT and p >= cp:
        # Above the cash point: cash, or play on for the gammon, cashing if it fades
        # (Jacoby with a centred cube makes gammons single, so the mover cashes).
        return 1.0 if jacoby else 1.0 + (p - cp) * (big_w - 1.0) / (1.0 - cp)
    if owner != OWN and p <= tp:
        return -1.0 if jacoby else -big_l + p * (big_l - 1.0) / tp
    if owner == CENTRED:
        return -1.0 + 2.0 * (p - tp) / (cp - tp)
    if owner == OWN:                       # p < cp: from (0, -L) to (cp, +1)
        return -big_l + p * (big_l + 1.0) / cp
    return -1.0 + (p - tp) * (big_w + 1.0) / (1.0 - tp)   # opponent owns, p > tp


def money_equity(chances: Any, owner: Owner = CENTRED, x: float = 0.68,
                 jacoby: bool = False) -> float:
    """The cubeful money equity per unit of stake, for the player on roll.

    ``owner``: ``"centred"``, ``"own"`` (the player on roll holds the cube) or
    ``"opponent"``.  ``jacoby``: gammons count single while the cube is centred
    (RULES 9.1); it has no effect on an owned cube.

        >>> round(money_equity((0.5, 0, 0, 0, 0), "own", x=1.0), 4)
        0.25
    """
    if owner not in (CENTRED, OWN, OPPONENT):
        raise BackgammonError(f"owner is 'centred', 'own' or 'opponent', got {shown(owner)}")
    x = _check_x(x)
    p, big_w, big_l = win_loss_values(chances)
    jacoby = bool(jacoby) and owner == CENTRED
    dead_w, dead_l = (1.0, 1.0) if jacoby else (big_w, big_l)
    dead = p * dead_w - (1 - p) * dead_l
    return x * _live(p, big_w, big_l, owner, jacoby) + (1 - x) * dead


def take_point(chances: Any = (0.5, 0, 0, 0, 0), x: float = 0.68) -> float:
    """The least winning chance the opponent needs to take a double.

    ``chances`` (from the doubler's side) only give the gammon rates; the
    result is the taker's win chance where taking and passing are equal:
    ``(L' - 1/2) / (W' + L' + x/2)`` with the taker's win and loss values.
    Without gammons: 25 % with a dead cube, 20 % fully live.

        >>> round(take_point(x=0.0), 4), round(take_point(x=0.68), 4)
        (0.25, 0.2137)
    """
    x = _check_x(x)
    _, big_w, big_l = win_loss_values(chances)
    taker_w, taker_l = big_l, big_w
    return (taker_l - 0.5) / (taker_w + taker_l + 0.5 * x)


def cash_point(chances: Any = (0.5, 0, 0, 0, 0), x: float = 0.68) -> float:
    """The doubler's winning chance above which the opponent should pass: ``1 - take_point``."""
    return 1.0 - take_point(chances, x)


def doubling_point(chances: Any = (0.5, 0, 0, 0, 0), x: float = 0.68,
                   owner: Owner = CENTRED) -> float:
    """The doubler's winning chance from which doubling (and being taken) gains.

    It solves *no double* = *double, take* in the x-interpolated model:
    centred cube ``(L (3 - x) + 2x) / ((W + L)(3 - x) + x)``, a redouble
    ``(L + x) / (W + L + x/2)``.  Without gammons: 50 % with a dead cube,
    80 % fully live (the cash point), 11/16 and 5/7 at x = 2/3.

        >>> round(doubling_point(x=2/3), 4), round(doubling_point(x=2/3, owner="own"), 4)
        (0.6875, 0.7143)
    """
    x = _check_x(x)
    _, big_w, big_l = win_loss_values(chances)
    if owner == CENTRED:
        return (big_l * (3 - x) + 2 * x) / ((big_w + big_l) * (3 - x) + x)
    if owner == OWN:
        return (big_l + x) / (big_w + big_l + 0.5 * x)
    raise BackgammonError(f"only the cube's owner or a centred cube can double, got owner {shown(owner)}")


def cube_efficiency(position: Any) -> float:
    """gnubg's default cube efficiency x for a position.

    0.68 with contact; in a race ``0.55 + 0.00125 * (pips of the player on
    roll)``, kept within [0.6, 0.7] (gnubg counts that side; the issue's text
    said the opponent's, but gnubg's 0-ply decisions agree to 1e-6 only this
    way, see benchmarks/peers_cube.py); 0.6 once both sides are bearing off in
    their home boards.

        >>> from backgammon import Position
        >>> cube_efficiency(Position.initial())
        0.68
    """
    pos = position if isinstance(position, Position) else Position.from_array(position)
    a = pos.tolist()
    own = [p for p in range(1, 26) if a[p] > 0]
    opp = [p for p in range(0, 25) if a[p] < 0]
    if not own or not opp:
        return 0.6
    if max(own) > min(opp):
        return 0.68                                       # contact
    if max(own) <= 6 and min(opp) >= 19:
        return 0.6                                        # both bearing off
    return min(0.7, max(0.6, 0.55 + 0.00125 * pos.pip_counts()[0]))


# ---------------------------------------------------------------- match play

class MatchModel:
    """Janowski's model in match winning chances, at one score and set of chances.

    Outcomes are valued by the match equity table.  The fully live cube's take
    points come from the top cube level down: where a side owning the cube
    cannot gain by redoubling (a single win already wins it the match, or the
    cube is at its limit) its take point is the dead cube's; below, a side
    takes at the chance where owning the cube (and cashing at the opponent's
    next take point) is worth what passing is.  The same gammon rates serve
    every level, as in gnubg.
    """

    def __init__(self, chances: Any, away: int, opponent_away: int, post_crawford: bool,
                 max_cube: int, table: Any) -> None:
        from backgammon.cube import met
        self.p, wg, wb, lg, lb = chances_tuple(chances)
        self.table = table or met.default_table()
        self.away = (away, opponent_away)
        self.crawford = (away == 1 or opponent_away == 1) and not post_crawford
        # After this game a side 1-away is post-Crawford if the Crawford game is
        # this one or already played; else the next game is the Crawford game.
        self.rest = post_crawford or self.crawford
        self.max_cube = max_cube
        self.table.equity(away, opponent_away, post_crawford)  # checks the score
        w = min(max(self.p, 0.0), 1.0)
        # Per side: the split of its wins into single, gammon, backgammon.
        self.split = (_split(w, wg, wb), _split(1 - w, lg, lb))
        self._tp: dict[tuple[int, int], float] = {}
        self._memo: dict[tuple[int, int, int], float] = {}

    def mwc(self, side: int, own_points: int, opp_points: int) -> float:
        """Side's match winning chance once it has won own_points and lost opp_points."""
        a, b = self.away[side] - own_points, self.away[1 - side] - opp_points
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        n = self.table.length
        if a > n or b > n:                            # the table's extension (met.py)
            return self.table.equity(a, b, post_crawford=self.rest and (a == 1 or b == 1))
        if self.rest and (a == 1 or b == 1):          # post-Crawford (table lookups inlined:
            post = self.table.post_crawford           # this is the inner loop of a decision)
            return 1.0 - post[b - 1] if a == 1 else post[a - 1]
        return self.table.pre_crawford[a - 1][b - 1]

    def win(self, side: int, v: int) -> float:
        """Side's average match winning chance when it wins the game with the cube on v."""
        key = (side, v, 1)
        if key not in self._memo:
            s, g, b = self.split[side]
            self._memo[key] = (s * self.mwc(side, v, 0) + g * self.mwc(side, 2 * v, 0)
                               + b * self.mwc(side, 3 * v, 0))
        return self._memo[key]

    def lose(self, side: int, v: int) -> float:
        """Side's average match winning chance when it loses the game with the cube on v."""
        key = (side, v, 0)
        if key not in self._memo:
            s, g, b = self.split[1 - side]
            self._memo[key] = (s * self.mwc(side, 0, v) + g * self.mwc(side, 0, 2 * v)
                               + b * self.mwc(side, 0, 3 * v))
        return self._memo[key]

    def can_redouble(self, side: int, v: int) -> bool:
        """Whether side, owning the cube on v, can gain by doubling to 2v."""
        return not self.crawford and 2 * v <= self.max_cube and self.away[side] > v

    def take_point(self, side: int, v: int) -> float:
        """The least win chance with which side takes a double to v (fully live cube)."""
        key = (side, v)
        if key not in self._tp:
            drop, lose = self.mwc(side, 0, v // 2), self.lose(side, v)
            if self.can_redouble(side, v):
                cash_at = 1.0 - self.take_point(1 - side, 2 * v)
                top = self.mwc(side, v, 0)          # the opponent passes the redouble
            else:
                cash_at, top = 1.0, self.win(side, v)
            self._tp[key] = cash_at * (drop - lose) / (top - lose) if top > lose else 0.0
        return self._tp[key]

    def dead(self, v: int) -> float:
        return self.p * self.win(0, v) + (1 - self.p) * self.lose(0, v)

    def cubeful(self, v: int, owner: str, x: float) -> float:
        """The on-roll side's match winning chance, x-interpolated between live and dead."""
        return x * self.live(v, owner) + (1 - x) * self.dead(v)

    def live(self, v: int, owner: str) -> float:
        """The on-roll side's fully live match winning chance, piecewise linear in p."""
        knots = [(0.0, self.lose(0, v))]
        if owner != OWN and self.can_redouble(1, v):     # the opponent may double us out
            knots.append((self.take_point(0, 2 * v), self.mwc(0, 0, v)))
        if owner != OPPONENT and self.can_redouble(0, v):  # we may double them out
            knots.append((1.0 - self.take_point(1, 2 * v), self.mwc(0, v, 0)))
        knots.append((1.0, self.win(0, v)))
        p = self.p
        for (p0, e0), (p1, e1) in zip(knots, knots[1:]):
            if p <= p1:
                return e0 if p1 <= p0 else e0 + (p - p0) * (e1 - e0) / (p1 - p0)
        return knots[-1][1]


def _split(w: float, gammon: float, backgammon: float) -> tuple[float, float, float]:
    """Fractions of a side's wins that are single, gammon and backgammon (sum 1)."""
    if w <= _EPS:
        return (1.0, 0.0, 0.0)
    return ((w - gammon) / w, (gammon - backgammon) / w, backgammon / w)


def match_equity(chances: Any, away: int, opponent_away: int, cube: int = 1,
                 owner: Owner = CENTRED, x: float = 0.68, post_crawford: bool = False,
                 max_cube: int = 64, table: Any = None) -> float:
    """The cubeful match winning chance of the player on roll.

    ``away`` and ``opponent_away``: points each side still needs (a side
    1-away without ``post_crawford`` is playing the Crawford game, where
    the cube is dead).  ``cube`` is its value, ``owner`` as in
    :func:`money_equity`.  ``table``: a :class:`~backgammon.cube.met.MatchEquityTable`
    (Kazaross-XG2 by default).

        >>> round(match_equity((0.5, 0, 0, 0, 0), 1, 1), 4)     # double match point
        0.5
    """
    if owner not in (CENTRED, OWN, OPPONENT):
        raise BackgammonError(f"owner is 'centred', 'own' or 'opponent', got {shown(owner)}")
    check_cube(cube)
    x = _check_x(x)
    return MatchModel(chances, away, opponent_away, post_crawford, max_cube, table).cubeful(
        cube, owner, x)
