"""Hypothesis state machines driving random legal and illegal actions through Game,
Match and Chouette.  After every step: a refused action changed nothing, the cube is a
power of two up to 64 (and max_cube), scores only grow, the ledgers sum to zero, and
the gnubg ID and XGID round-trip."""

from __future__ import annotations

import random
import warnings

import pytest

from backgammon.chouette import TEAM, Chouette
from backgammon.errors import IllegalActionError
from backgammon.formats.record import read_json, write_json
from backgammon.game import Game, Phase
from backgammon.match import Match
from backgammon.rules import ROLL_AGAIN, Rules
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from test_game import full_state

ACTIONS = ["roll", "move", "undo", "commit", "play", "double", "take", "drop", "beaver",
           "resign", "accept", "reject", "flag"]
dice = st.tuples(st.integers(0, 7), st.integers(0, 7))
money_rules = st.builds(
    Rules, cube=st.booleans(), max_cube=st.sampled_from([1, 2, 4, 8, 64]),
    jacoby=st.booleans(), beaver=st.booleans(), backgammon_value=st.sampled_from([2, 3]),
    opening=st.sampled_from(["opening_dice", ROLL_AGAIN]),
    over_the_board=st.booleans(),  # RULES 12.4: random illegal plays recorded, then flagged
).map(lambda r: r.replace(automatic_doubles=2) if r.cube and r.jacoby else r)
SETTINGS = settings(max_examples=100, stateful_step_count=100, deadline=None,
                    suppress_health_check=list(HealthCheck))


def act(game: Game, data: st.DataObject, action: str) -> None:
    """Try ``action`` with drawn arguments: mostly sensible ones, sometimes nonsense."""
    kwargs = {}
    if data.draw(st.integers(0, 9)) == 0:
        kwargs["player"] = data.draw(st.sampled_from([0, 1, 2]))
    args: tuple = ()
    if action == "roll":
        args = (data.draw(st.one_of(st.none(), dice, st.tuples(st.integers(1, 6),
                                                              st.integers(1, 6)))),)
    elif action == "move":
        legal = game.legal_moves()
        if legal and data.draw(st.booleans()):
            args = data.draw(st.sampled_from(legal))
        else:
            args = (data.draw(st.integers(-1, 26)), data.draw(st.integers(-1, 26)))
    elif action == "play":
        if game.phase is Phase.MOVE and not game.steps and data.draw(st.booleans()):
            args = (data.draw(st.sampled_from(list(game.position.legal_plays(game.dice)))),)
        else:
            args = ([(data.draw(st.integers(0, 25)), data.draw(st.integers(0, 25)))],)
    elif action == "resign":
        args = (data.draw(st.sampled_from(["single", "gammon", "backgammon", 2, "all"])),)
    before = full_state(game)
    try:
        getattr(game, action)(*args, **kwargs)
    except IllegalActionError:
        assert full_state(game) == before, f"refused {action}{args} changed the game"


def check_game(game: Game) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _check_game(game)


def _check_game(game: Game) -> None:
    assert game.cube in (1, 2, 4, 8, 16, 32, 64) and game.cube <= game.rules.max_cube
    if game.phase is Phase.OVER:
        assert game.result is not None and game.result.points >= 1
        assert game.legal_actions() == []
    else:
        assert game.result is None and game.legal_actions()
        assert game.position.outcome() is None
    gid = game.gnubg_id()
    assert Game.from_gnubg_id(gid, rules=game.rules).gnubg_id() == gid
    if game.phase in (Phase.ROLL, Phase.MOVE, Phase.DOUBLED) and not game.steps:
        xgid = game.xgid()
        assert Game.from_xgid(xgid, rules=game.rules).xgid() == xgid


def sensible_action(game: Game, data: st.DataObject, *, resign: bool) -> None:
    """One legal action drawn at random (resignations only if ``resign``)."""
    legal = [a for a in game.legal_actions() if resign or a != "resign"]
    if not legal:
        return
    choice = data.draw(st.sampled_from(legal))
    if choice == "move":
        game.move(*data.draw(st.sampled_from(game.legal_moves())))
    elif choice == "play":
        game.play(data.draw(st.sampled_from(list(game.position.legal_plays(game.dice)))))
    elif choice == "resign":
        who = data.draw(st.sampled_from([0, 1])) if game.phase is Phase.OPENING else None
        game.resign(data.draw(st.sampled_from(["single", "gammon", "backgammon"])),
                    player=who)
    else:
        getattr(game, choice)()


def interesting(game: Game) -> bool:
    """States where records have gone wrong before: steps not committed, a
    double or a resignation pending, the end."""
    return bool(game.steps) or game.phase in (Phase.DOUBLED, Phase.RESIGNED, Phase.OVER)


def check_record(game: Game) -> None:
    """The JSON record replays to the same game (a server never loses a record)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        again = read_json(write_json([game])).games[0]
        assert again.gnubg_id() == game.gnubg_id() and again.phase is game.phase
    assert again.steps == game.steps
    assert again.result == game.result and again.actions == game.actions
    assert again.flaggable == game.flaggable


RECORD_CHECKS = 4  # replays are slow: a few interesting states a run, and the last


def play_turns(game: Game, n: int, pick: random.Random) -> None:
    """Up to ``n`` whole turns of random legal plays, so that games reach the bear-off."""
    for _ in range(n):
        if game.phase is Phase.OPENING or game.phase is Phase.ROLL:
            game.roll()
        if game.phase is not Phase.MOVE or game.steps:
            return
        game.play(pick.choice(list(game.position.legal_plays(game.dice))))


class GameMachine(RuleBasedStateMachine):
    """Money games one after another under random rules."""

    @initialize(rules=money_rules, seed=st.integers(0, 2**32))
    def start(self, rules, seed):
        self.rules = rules
        self.seed = seed
        self.game = Game(rules, rng=seed)
        self.ledger = [0, 0]
        self.record_checks = RECORD_CHECKS

    @rule(action=st.sampled_from(ACTIONS), data=st.data())
    def action(self, action, data):
        act(self.game, data, action)

    @rule(data=st.data())
    def sensible(self, data):
        """A legal action, so that games get somewhere."""
        sensible_action(self.game, data, resign=False)

    @rule(n=st.integers(1, 40), seed=st.integers(0, 2**16))
    def turns(self, n, seed):
        play_turns(self.game, n, random.Random(seed))

    @rule()
    def next_game(self):
        if self.game.over:
            r = self.game.result
            self.ledger[r.winner] += r.points
            self.ledger[1 - r.winner] -= r.points
            self.game = Game(self.rules, rng=self.seed + 1)

    @invariant()
    def consistent(self):
        check_game(self.game)
        assert sum(self.ledger) == 0
        if self.record_checks and interesting(self.game):
            self.record_checks -= 1
            check_record(self.game)

    def teardown(self):
        if hasattr(self, "game"):
            check_record(self.game)


class MatchMachine(RuleBasedStateMachine):
    """Matches: scores only grow, Crawford has no cube, the winner stops the match."""

    @initialize(length=st.integers(1, 7), seed=st.integers(0, 2**32), crawford=st.booleans())
    def start(self, length, seed, crawford):
        self.match = Match(length, rng=seed, crawford=crawford)
        self.last = (0, 0)
        self.record_checks = RECORD_CHECKS

    @rule(action=st.sampled_from(ACTIONS), data=st.data())
    def action(self, action, data):
        act(self.match.game, data, action)

    @rule(data=st.data())
    def sensible(self, data):
        sensible_action(self.match.game, data, resign=True)

    @rule(n=st.integers(1, 40), seed=st.integers(0, 2**16))
    def turns(self, n, seed):
        play_turns(self.match.game, n, random.Random(seed))

    @rule()
    def next_game(self):
        m = self.match
        before = (len(m.games), m.score)
        try:
            m.next_game()
        except IllegalActionError:
            assert (len(m.games), m.score) == before
            assert not m.game.over or m.over

    @invariant()
    def consistent(self):
        m = self.match
        check_game(m.game)
        s = m.score
        assert s[0] >= self.last[0] and s[1] >= self.last[1]  # scores only grow
        self.last = s
        assert sum(g.result.points for g in m.games if g.result) == s[0] + s[1]
        assert sum(g.crawford for g in m.games) <= 1
        if m.game.crawford:
            assert not m.game.can_double(0) and not m.game.can_double(1)
            assert m.length - 1 in m.game.score
        if m.over:
            assert max(s) >= m.length
        if self.record_checks and interesting(m.game):
            self.record_checks -= 1
            check_record(m.game)

    def teardown(self):
        if not hasattr(self, "match"):
            return
        m = self.match
        with warnings.catch_warnings():  # the whole match's record replays
            warnings.simplefilter("ignore")
            record = read_json(write_json(m))
            assert record.match is not None and record.match.score == m.score
            assert [g.gnubg_id() for g in record.games] == [g.gnubg_id() for g in m.games]


class ChouetteMachine(RuleBasedStateMachine):
    """Chouettes: every payment is between the box and a member; the ledger sums to zero."""

    @initialize(n=st.integers(3, 5), seed=st.integers(0, 2**32))
    def start(self, n, seed):
        self.ch = Chouette([f"p{i}" for i in range(n)], rng=seed)

    @rule(data=st.data())
    def step(self, data):
        ch, g = self.ch, self.ch.game
        try:
            if g.phase is Phase.DOUBLED:
                who = ch.box if g.turn == TEAM else data.draw(st.sampled_from(ch.players))
                ch.answer(who, data.draw(st.booleans()))
            elif g.phase is Phase.OVER:
                ch.finish_game()
            elif g.phase is Phase.RESIGNED:
                ch.accept() if data.draw(st.booleans()) else ch.reject()
            elif "double" in g.legal_actions() and data.draw(st.integers(0, 5)) == 0:
                agree = data.draw(st.lists(st.sampled_from(ch.players), unique=True))
                ch.double(agree=agree if g.turn == TEAM else None)
            elif data.draw(st.integers(0, 30)) == 0:
                ch.resign(data.draw(st.sampled_from(["single", "gammon"])),
                          side=data.draw(st.sampled_from(["box", "team"])))
            elif g.phase in (Phase.OPENING, Phase.ROLL):
                ch.roll()
            elif g.legal_moves():
                ch.move(*data.draw(st.sampled_from(g.legal_moves())))
            else:
                ch.commit()
        except IllegalActionError:
            pass

    @invariant()
    def zero_sum(self):
        assert sum(self.ch.ledger.values()) == 0
        assert set(self.ch.active) <= set(self.ch.team)


# slow: about 20 s each; CI runs them on its main Python only (.ci/run)
TestGameMachine = pytest.mark.slow(SETTINGS(GameMachine).TestCase)
TestMatchMachine = pytest.mark.slow(SETTINGS(MatchMachine).TestCase)
TestChouetteMachine = settings(SETTINGS, max_examples=20)(ChouetteMachine).TestCase
