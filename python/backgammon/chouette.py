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
    >>> ch.box, ch.team, dict(ch.ledger)
    ('ann', ('cy', 'bob'), {'ann': 2, 'bob': -1, 'cy': -1})
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Sequence
from types import MappingProxyType
from typing import Any, Mapping, NamedTuple

from backgammon.errors import IllegalActionError, InvalidSetupError
from backgammon.game import DiceSource, Game, Phase
from backgammon.match import MAX_NAME
from backgammon.rules import Rules
from backgammon._show import shown

__all__ = ["BOX", "MAX_PLAYERS", "ROLL_OFF_ROUNDS", "TEAM", "Chouette", "ChouetteGame",
           "roll_off"]

BOX, TEAM = 0, 1
"""The game's players: the box is player 0, the team player 1."""

MAX_PLAYERS = 64
"""The most players a chouette seats."""

ROLL_OFF_ROUNDS = 64
"""How many times tied players roll again before the dice source is called broken: a
fair die ties two players 64 times in a row with probability 6**-64."""


def roll_off(players: Sequence[str], die: Callable[[], int]) -> list[str]:
    """The order of a roll-off (RULES 11.1): highest die first; tied players roll again
    among themselves for their places.  A tie that lasts :data:`ROLL_OFF_ROUNDS`
    rounds (a constant dice source) raises :class:`InvalidSetupError`.

        >>> rolls = iter([3, 6, 5, 1])
        >>> roll_off(["a", "b", "c", "d"], lambda: next(rolls))
        ['b', 'c', 'a', 'd']
        >>> roll_off(["a", "b"], lambda: 4)
        Traceback (most recent call last):
        ...
        backgammon.errors.InvalidSetupError: the roll-off stayed tied for 64 rounds: is the dice source constant?
    """
    return _roll_off(list(players), die, 0)


def _roll_off(players: list[str], die: Callable[[], int], rounds: int) -> list[str]:
    if rounds >= ROLL_OFF_ROUNDS:
        raise InvalidSetupError(f"the roll-off stayed tied for {ROLL_OFF_ROUNDS} rounds: "
                                "is the dice source constant?")
    throws = [(die(), name) for name in players]
    order: list[str] = []
    for value in sorted({v for v, _ in throws}, reverse=True):
        tied = [name for v, name in throws if v == value]
        order.extend(tied if len(tied) == 1 else
                     _roll_off(tied, die, rounds + 1 if len(tied) == len(players) else 0))
    return order


class ChouetteGame(NamedTuple):
    """One settled game: who was in the ``box`` and the ``team`` (queue order), the
    :class:`Game`, the ``payments`` (payer, payee, amount) and each member's ``net``."""

    box: str
    team: tuple[str, ...]
    game: Game
    payments: tuple[tuple[str, str, int], ...]
    net: Mapping[str, int]


def _transaction(method: Callable[..., Any]) -> Callable[..., Any]:
    """Run a chouette action as a transaction in O(current game): the chouette's own
    fields are small values or copied containers, the history only grows, and the
    current game is restored in place, so a caller's reference to it stays live."""

    @functools.wraps(method)
    def wrapper(self: Chouette, *args: Any, **kwargs: Any) -> Any:
        saved = dict(self.__dict__)
        ledger, history = dict(self._ledger), len(self._history)
        game = self._game
        game_state = dict(game.__dict__)
        outer = self._dice.begin()
        try:
            result = method(self, *args, **kwargs)
        except BaseException:
            self.__dict__.clear()
            self.__dict__.update(saved)
            self._ledger.clear()
            self._ledger.update(ledger)
            del self._history[history:]
            game.__dict__.clear()
            game.__dict__.update(game_state)
            self._dice.end(outer, ok=False)
            raise
        self._dice.end(outer, ok=True)
        return result

    return wrapper


class Chouette:
    """A chouette of three or more players (RULES 11).

    ``Chouette(players, rng=...)`` seats them by a roll-off; :meth:`seated`
    takes a known box and team.  Checker play and resignations go through
    :meth:`roll`, :meth:`move`, :meth:`undo`, :meth:`commit`, :meth:`play`,
    :meth:`resign`, :meth:`accept`, :meth:`reject`; the cube through
    :meth:`double` and :meth:`answer`; :meth:`finish_game` settles and rotates.
    ``rng`` is any dice source :class:`~backgammon.game.DiceSource` takes.

    The state is read-only: names and tuples, :attr:`ledger` a read-only
    view; only the actions change it, each a transaction that leaves
    everything (the current :attr:`game` object included) as it was when
    refused.
    """

    def __init__(self, players: Iterable[str], *, rules: Rules | None = None,
                 rng: Any = None) -> None:
        dice = rng if isinstance(rng, DiceSource) else DiceSource(rng)
        names = self._check_names(players)
        outer = dice.begin()
        try:
            order = roll_off(names, dice.die)
        except BaseException:
            dice.end(outer, ok=False)
            raise
        dice.end(outer, ok=True)
        self._setup(order[0], order[1:], rules, dice)

    @classmethod
    def seated(cls, box: str, team: Iterable[str], *, rules: Rules | None = None,
               rng: Any = None) -> Chouette:
        """A chouette with ``box`` in the box and ``team`` in queue order, captain first."""
        ch = cls.__new__(cls)
        if isinstance(team, (str, bytes)):
            raise TypeError(f"team is a sequence of names, got {shown(team)}"[:300])
        names = cls._check_names([box, *itertools.islice(team, MAX_PLAYERS)])
        dice = rng if isinstance(rng, DiceSource) else DiceSource(rng)
        ch._setup(names[0], names[1:], rules, dice)
        return ch

    @staticmethod
    def _check_names(players: Iterable[str]) -> list[str]:
        if isinstance(players, (str, bytes)):
            raise TypeError(f"players are a sequence of names, got {shown(players)}"[:300])
        try:
            names = list(itertools.islice(iter(players), MAX_PLAYERS + 1))
        except TypeError:
            raise TypeError(f"players are a sequence of names, got {shown(players)}"[:300]) from None
        if not all(isinstance(n, str) for n in names):
            raise TypeError(f"player names are strings, got {shown(names)}"[:300])
        if len(names) < 3:
            raise InvalidSetupError(f"a chouette has 3 or more players (RULES 11), got {shown(names)}")
        if len(names) > MAX_PLAYERS:
            raise InvalidSetupError(f"a chouette seats at most {MAX_PLAYERS} players")
        if any(len(n) > MAX_NAME for n in names):
            raise InvalidSetupError(f"a name has at most {MAX_NAME} characters")
        if len(set(names)) != len(names):
            raise InvalidSetupError(f"players need distinct names, got {shown(names)}")
        return names

    def _setup(self, box: str, team: list[str], rules: Rules | None, dice: DiceSource) -> None:
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules, got {shown(rules)}")
        if rules.beaver:
            raise InvalidSetupError("this chouette has no beavers: every member answers alone")
        self._rules = rules
        self._dice = dice
        self._box = box
        self._team: tuple[str, ...] = tuple(team)
        self._ledger = {name: 0 for name in [box, *team]}
        self._history: list[ChouetteGame] = []
        self._new_game()

    def _new_game(self) -> None:
        self._game = Game(self.rules, rng=self._dice)
        self._active: tuple[str, ...] = self._team
        self._answers: tuple[tuple[str, bool], ...] = ()
        self._payments: tuple[tuple[str, str, int], ...] = ()

    # ------------------------------------------------------------------
    # Read-only state

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def game(self) -> Game:
        """The current game (the box is player 0, the team player 1)."""
        return self._game

    @property
    def box(self) -> str:
        return self._box

    @property
    def team(self) -> tuple[str, ...]:
        """The team in queue order, captain first."""
        return self._team

    @property
    def active(self) -> tuple[str, ...]:
        """The team members still in the current game (a drop leaves it)."""
        return self._active

    @property
    def answers(self) -> Mapping[str, bool]:
        """The answers given so far to the box's double (read-only)."""
        return MappingProxyType(dict(self._answers))

    @property
    def payments(self) -> tuple[tuple[str, str, int], ...]:
        """The payments (payer, payee, amount) of the current game so far."""
        return self._payments

    @property
    def ledger(self) -> Mapping[str, int]:
        """Each player's running total (a read-only view; it sums to zero)."""
        return MappingProxyType(self._ledger)

    @property
    def history(self) -> tuple[ChouetteGame, ...]:
        """Every settled game, in order."""
        return tuple(self._history)

    @property
    def dice_source(self) -> DiceSource:
        return self._dice

    @property
    def captain(self) -> str:
        """Who moves the team's checkers: the first member still in the game."""
        return self._active[0] if self._active else self._team[0]

    @property
    def players(self) -> list[str]:
        return [self._box, *self._team]

    def _pay(self, payer: str, payee: str, amount: int) -> None:
        self._ledger[payer] -= amount
        self._ledger[payee] += amount
        self._payments = self._payments + ((payer, payee, amount),)

    # ------------------------------------------------------------------
    # Checker play and resignations: the game's own actions

    def roll(self, dice: tuple[int, int] | None = None) -> None:
        self._game.roll(dice)

    def move(self, src: int, dst: int) -> None:
        self._game.move(src, dst)

    def undo(self) -> None:
        self._game.undo()

    def commit(self) -> None:
        self._game.commit()

    def play(self, play: Any) -> None:
        self._game.play(play)

    def resign(self, kind: str | int = "single", *, side: str = "team") -> None:
        """The box, or the team by its captain's choice (RULES 11.2), offers to resign."""
        self._game.resign(kind, player=self._side(side))

    def accept(self) -> None:
        self._game.accept()

    def reject(self) -> None:
        self._game.reject()

    @staticmethod
    def _side(side: str) -> int:
        if side not in ("box", "team"):
            raise IllegalActionError(f"side is 'box' or 'team', got {shown(side)}"[:300])
        return BOX if side == "box" else TEAM

    # ------------------------------------------------------------------
    # The cube

    @_transaction
    def double(self, agree: Iterable[str] | None = None) -> None:
        """The side on roll doubles.  A team double needs ``agree`` to name every member
        still in the game (RULES 11.3); the box doubles alone."""
        game = self._game
        if game.phase is not Phase.ROLL:
            game.double()  # refused, with the game's reason
        if game.turn == TEAM:
            if isinstance(agree, (str, bytes)):
                raise TypeError(f"agree is a collection of names, got {shown(agree)}"[:300])
            agreed = set(itertools.islice(agree or (), MAX_PLAYERS + 1))
            missing = [m for m in self._active if m not in agreed]
            if missing:
                raise IllegalActionError(
                    f"a team double must be unanimous (RULES 11.3): {', '.join(missing)} "
                    "did not agree")
            strangers = agreed - set(self._active)
            if strangers:
                raise IllegalActionError(
                    f"{', '.join(sorted(map(repr, strangers)))} are not in the game's team"[:300])
        elif agree is not None:
            raise IllegalActionError("the box doubles alone: no team agreement is asked")
        game.double()
        self._answers = ()

    @_transaction
    def answer(self, name: str, take: bool) -> None:
        """``name`` takes (``True``) or drops (``False``) the double offered to their side.

        The box answers a team double for itself.  Team members answer a box
        double one by one; once all have, droppers pay the stake before the
        double to the box and leave, and the takers play on (RULES 11.3).
        """
        game = self._game
        if not isinstance(take, bool):
            raise TypeError(f"an answer is True (take) or False (drop), got {shown(take)}"[:300])
        if game.phase is not Phase.DOUBLED:
            raise IllegalActionError(
                f"no double to answer: the game is in phase {shown(game.phase.value)}")
        if game.turn == TEAM:  # the team doubled: the box answers
            if name != self._box:
                raise IllegalActionError(f"the team doubled: the box ({self._box}) answers")
            game.take() if take else game.drop()
            return
        if name not in self._active:
            raise IllegalActionError(f"{shown(name)} is not a team member in this game"[:300])
        answers = dict(self._answers)
        if name in answers:
            raise IllegalActionError(f"{name} has already answered")
        answers[name] = take
        self._answers = tuple(answers.items())
        if len(answers) < len(self._active):
            return
        stake = game.cube
        takers = tuple(m for m in self._active if answers[m])
        for member in self._active:
            if not answers[member]:
                self._pay(member, self._box, stake)  # RULES 11.3: droppers pay and leave
        self._answers = ()
        if takers:
            self._active = takers
            game.take()
        else:
            self._active = ()
            game.drop()

    # ------------------------------------------------------------------
    # The end of a game

    @_transaction
    def finish_game(self) -> dict[str, int]:
        """Settle the finished game and rotate the seats (RULES 11.3, 11.4).

        Returns what each team member won (negative: paid) in this game,
        drops included.  The next game starts at once.
        """
        game = self._game
        if game.result is None:
            raise IllegalActionError(f"the game is not over (phase {shown(game.phase.value)})")
        winner = game.result.winner
        for member in self._active:  # after a drop by every member nothing is left
            if winner == BOX:
                self._pay(member, self._box, game.result.points)
            else:
                self._pay(self._box, member, game.result.points)
        net = {m: 0 for m in self._team}
        for payer, payee, amount in self._payments:
            if payer in net:
                net[payer] -= amount
            if payee in net:
                net[payee] += amount
        self._history.append(ChouetteGame(self._box, self._team, game, self._payments,
                                          MappingProxyType(dict(net))))
        if winner == BOX:  # RULES 11.4: the box stays, the captain goes to the back
            self._team = self._team[1:] + self._team[:1]
        else:  # the captain becomes the box, the old box goes to the back
            captain = self.captain
            self._team = tuple(m for m in self._team if m != captain) + (self._box,)
            self._box = captain
        self._new_game()
        return net

    def __repr__(self) -> str:
        return f"<Chouette box={self.box} team={list(self.team)} {shown(self.game)}>"
