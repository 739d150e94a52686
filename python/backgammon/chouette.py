"""Chouette: one player in the box against a team led by a captain (RULES 11).

The game is a money :class:`Game` with the box as player 0 and the team as
player 1 (the captain moves the team's checkers, RULES 11.2).  A team double
needs every remaining member to agree (RULES 11.3); a box double is answered
by each member alone: those who drop pay the stake before the double and leave
the game, the others play on for the doubled stake.  At the end the box
settles with every remaining member; then the seats rotate (RULES 11.4).  The
:attr:`Chouette.ledger` always sums to zero.

    >>> from backgammon.chouette import Chouette
    >>> ch = Chouette.seated("ann", ["bob", "cy"])
    >>> ch.roll((3, 1)); ch.resign("single", side="team"); ch.accept()
    >>> ch.finish_game()
    {'bob': -1, 'cy': -1}
    >>> ch.box, ch.team, ch.ledger
    ('ann', ['cy', 'bob'], {'ann': 2, 'bob': -1, 'cy': -1})
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from backgammon.errors import IllegalActionError
from backgammon.game import Game, Phase
from backgammon.rules import Rules

__all__ = ["BOX", "TEAM", "Chouette", "roll_off"]

BOX, TEAM = 0, 1
"""The game's players: the box is player 0, the team player 1."""


def roll_off(players: Sequence[str], die: Callable[[], int]) -> list[str]:
    """The order of a roll-off (RULES 11.1): highest die first; tied players roll again
    among themselves for their places.

        >>> rolls = iter([3, 6, 5, 1])
        >>> roll_off(["a", "b", "c", "d"], lambda: next(rolls))
        ['b', 'c', 'a', 'd']
    """
    throws = [(die(), name) for name in players]
    order: list[str] = []
    for value in sorted({v for v, _ in throws}, reverse=True):
        tied = [name for v, name in throws if v == value]
        order.extend(tied if len(tied) == 1 else roll_off(tied, die))
    return order


class Chouette:
    """A chouette of three or more players (RULES 11).

    ``Chouette(players, rng=...)`` seats them by a roll-off; :meth:`seated`
    takes a known box and team.  Checker play and resignations go through
    :meth:`roll`, :meth:`move`, :meth:`undo`, :meth:`commit`, :meth:`play`,
    :meth:`resign`, :meth:`accept`, :meth:`reject`; the cube through
    :meth:`double` and :meth:`answer`; :meth:`finish_game` settles and rotates.
    """

    def __init__(self, players: Sequence[str], *, rules: Rules | None = None,
                 rng: Any = None) -> None:
        rng = rng if rng is not None and not isinstance(rng, int) else random.Random(rng)
        names = self._check_names(players)
        order = roll_off(names, lambda: rng.randint(1, 6))
        self._setup(order[0], order[1:], rules, rng)

    @classmethod
    def seated(cls, box: str, team: Sequence[str], *, rules: Rules | None = None,
               rng: Any = None) -> Chouette:
        """A chouette with ``box`` in the box and ``team`` in queue order, captain first."""
        ch = cls.__new__(cls)
        names = cls._check_names([box, *team])
        rng = rng if rng is not None and not isinstance(rng, int) else random.Random(rng)
        ch._setup(names[0], names[1:], rules, rng)
        return ch

    @staticmethod
    def _check_names(players: Iterable[str]) -> list[str]:
        names = list(players)
        if len(names) < 3:
            raise ValueError(f"a chouette has 3 or more players (RULES 11), got {names!r}")
        if len(set(names)) != len(names):
            raise ValueError(f"players need distinct names, got {names!r}")
        return names

    def _setup(self, box: str, team: list[str], rules: Rules | None, rng: Any) -> None:
        rules = Rules() if rules is None else rules
        if rules.beaver:
            raise ValueError("this chouette has no beavers: every member answers alone")
        self.rules = rules
        self._rng = rng
        self.box = box
        self.team = list(team)
        self.ledger = {name: 0 for name in [box, *team]}
        self.history: list[dict[str, Any]] = []
        self._new_game()

    def _new_game(self) -> None:
        self.game = Game(self.rules, rng=self._rng)
        self.active = list(self.team)
        self.answers: dict[str, bool] = {}
        self.payments: list[tuple[str, str, int]] = []

    # ------------------------------------------------------------------

    @property
    def captain(self) -> str:
        """Who moves the team's checkers: the first member still in the game."""
        return self.active[0] if self.active else self.team[0]

    @property
    def players(self) -> list[str]:
        return [self.box, *self.team]

    def _pay(self, payer: str, payee: str, amount: int) -> None:
        self.ledger[payer] -= amount
        self.ledger[payee] += amount
        self.payments.append((payer, payee, amount))

    def _transaction(self, fn: Callable[[], Any]) -> Any:
        saved = copy.deepcopy({k: v for k, v in self.__dict__.items() if k != "_rng"})
        rng_state = self._rng.getstate() if hasattr(self._rng, "getstate") else None
        try:
            return fn()
        except BaseException:
            self.__dict__.update(saved)
            self.game._rng = self._rng
            if rng_state is not None:
                self._rng.setstate(rng_state)
            raise

    # ------------------------------------------------------------------
    # Checker play and resignations: the game's own actions

    def roll(self, dice: tuple[int, int] | None = None) -> None:
        self.game.roll(dice)

    def move(self, src: int, dst: int) -> None:
        self.game.move(src, dst)

    def undo(self) -> None:
        self.game.undo()

    def commit(self) -> None:
        self.game.commit()

    def play(self, play: Any) -> None:
        self.game.play(play)

    def resign(self, kind: str | int = "single", *, side: str = "team") -> None:
        """The box, or the team by its captain's choice (RULES 11.2), offers to resign."""
        self.game.resign(kind, player=self._side(side))

    def accept(self) -> None:
        self.game.accept()

    def reject(self) -> None:
        self.game.reject()

    @staticmethod
    def _side(side: str) -> int:
        if side not in ("box", "team"):
            raise IllegalActionError(f"side is 'box' or 'team', got {side!r}")
        return BOX if side == "box" else TEAM

    # ------------------------------------------------------------------
    # The cube

    def double(self, agree: Iterable[str] | None = None) -> None:
        """The side on roll doubles.  A team double needs ``agree`` to name every member
        still in the game (RULES 11.3); the box doubles alone."""
        def run() -> None:
            if self.game.phase is not Phase.ROLL:
                self.game.double()  # refused, with the game's reason
            if self.game.turn == TEAM:
                agreed = set(agree or ())
                missing = [m for m in self.active if m not in agreed]
                if missing:
                    raise IllegalActionError(
                        f"a team double must be unanimous (RULES 11.3): {', '.join(missing)} "
                        "did not agree")
                strangers = agreed - set(self.active)
                if strangers:
                    raise IllegalActionError(
                        f"{', '.join(sorted(strangers))} are not in the game's team")
            elif agree is not None:
                raise IllegalActionError("the box doubles alone: no team agreement is asked")
            self.game.double()
            self.answers = {}
        self._transaction(run)

    def answer(self, name: str, take: bool) -> None:
        """``name`` takes (``True``) or drops (``False``) the double offered to their side.

        The box answers a team double for itself.  Team members answer a box
        double one by one; once all have, droppers pay the stake before the
        double to the box and leave, and the takers play on (RULES 11.3).
        """
        def run() -> None:
            game = self.game
            if game.phase is not Phase.DOUBLED:
                raise IllegalActionError(
                    f"no double to answer: the game is in phase {game.phase.value!r}")
            if game.turn == TEAM:  # the team doubled: the box answers
                if name != self.box:
                    raise IllegalActionError(f"the team doubled: the box ({self.box}) answers")
                game.take() if take else game.drop()
                return
            if name not in self.active:
                raise IllegalActionError(f"{name} is not a team member in this game")
            if name in self.answers:
                raise IllegalActionError(f"{name} has already answered")
            if not isinstance(take, bool):
                raise IllegalActionError(f"an answer is True (take) or False (drop), got {take!r}")
            self.answers[name] = take
            if len(self.answers) < len(self.active):
                return
            stake = game.cube
            takers = [m for m in self.active if self.answers[m]]
            for member in self.active:
                if not self.answers[member]:
                    self._pay(member, self.box, stake)  # RULES 11.3: droppers pay and leave
            self.answers = {}
            if takers:
                self.active = takers
                game.take()
            else:
                self.active = []
                game.drop()
        self._transaction(run)

    # ------------------------------------------------------------------
    # The end of a game

    def finish_game(self) -> dict[str, int]:
        """Settle the finished game and rotate the seats (RULES 11.3, 11.4).

        Returns what each team member won (negative: paid) in this game,
        drops included.  The next game starts at once.
        """
        def run() -> dict[str, int]:
            game = self.game
            if game.result is None:
                raise IllegalActionError(
                    f"the game is not over (phase {game.phase.value!r})")
            winner = game.result.winner
            if self.active:  # after a drop by every member nothing is left to settle
                for member in self.active:
                    if winner == BOX:
                        self._pay(member, self.box, game.result.points)
                    else:
                        self._pay(self.box, member, game.result.points)
            net = {m: 0 for m in self.team}
            for payer, payee, amount in self.payments:
                if payer in net:
                    net[payer] -= amount
                if payee in net:
                    net[payee] += amount
            self.history.append({"box": self.box, "team": list(self.team), "game": game,
                                 "payments": list(self.payments), "net": dict(net)})
            if winner == BOX:  # RULES 11.4: the box stays, the captain goes to the back
                self.team = self.team[1:] + self.team[:1]
            else:  # the captain becomes the box, the old box goes to the back
                captain = self.captain
                self.team = [m for m in self.team if m != captain] + [self.box]
                self.box = captain
            self._new_game()
            return net
        return self._transaction(run)

    def __repr__(self) -> str:
        return f"<Chouette box={self.box} team={self.team} {self.game!r}>"

