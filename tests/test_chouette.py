"""Chouette (RULES 11): roll-off, captain and queue, unanimous team doubles, members
answering the box's double alone, settlement and rotation; the ledger sums to zero."""

from __future__ import annotations

import copy
import random

import pytest
from backgammon.chouette import BOX, TEAM, Chouette, roll_off
from backgammon.errors import IllegalActionError
from backgammon.game import Phase
from backgammon.rules import Rules
from test_game import full_state


class Dice:
    """A dice source that hands out given numbers (randint-compatible)."""

    def __init__(self, values):
        self.values = list(values)

    def randint(self, a, b):
        return self.values.pop(0)


def snapshot(ch: Chouette) -> dict:
    """Everything the chouette holds; its game by identity and by state."""
    out = {}
    for key, value in ch.__dict__.items():
        if key == "_dice":
            out[key] = (id(value), tuple(value._pending))
        elif key == "_game":
            out[key] = (id(value), {k: v for k, v in full_state(value).items() if k != "_dice"})
        elif key == "_history":
            out[key] = [(h.box, h.team, id(h.game), h.payments, dict(h.net)) for h in value]
        else:
            out[key] = copy.deepcopy(value)
    return out


def refused(ch: Chouette, action: str, *args, error=IllegalActionError, **kwargs) -> None:
    before = snapshot(ch)
    game = ch.game
    with pytest.raises(error):
        getattr(ch, action)(*args, **kwargs)
    assert snapshot(ch) == before
    assert ch.game is game  # a caller's reference stays the live game


def test_rules_11_1_roll_off_fixes_box_captain_and_queue():
    ch = Chouette(["ann", "bob", "cy", "dee"], rng=Dice([3, 6, 5, 1]))
    assert (ch.box, ch.captain, ch.team) == ("bob", "cy", ("cy", "ann", "dee"))


def test_rules_11_1_ties_roll_again_among_themselves():
    # ann 4, bob 4, cy 2: ann and bob roll again 1 and 5 -> bob, ann, cy
    assert roll_off(["ann", "bob", "cy"], iter([4, 4, 2, 1, 5]).__next__) == ["bob", "ann", "cy"]


def test_needs_three_distinct_players():
    with pytest.raises(ValueError):
        Chouette(["a", "b"])
    with pytest.raises(ValueError):
        Chouette.seated("a", ["b", "a"])


def opening_box_first(ch: Chouette) -> None:
    ch.roll((3, 1))  # the box (player 0) wins the opening
    ch.move(8, 5)
    ch.move(6, 5)
    ch.commit()
    ch.roll((6, 5))  # the team plays 24/13
    ch.move(24, 18)
    ch.move(18, 13)
    ch.commit()  # box on roll again


def test_rules_11_3_box_double_each_member_alone_droppers_pay_and_leave():
    ch = Chouette.seated("bob", ("cy", "ann", "dee"))
    opening_box_first(ch)
    ch.double()
    ch.answer("cy", True)
    ch.answer("ann", False)
    refused(ch, "answer", "ann", True)   # already answered
    refused(ch, "answer", "bob", True)   # the box does not answer its own double
    ch.answer("dee", True)
    # ann paid the stake before the double (1) and left; cy and dee play on for 2
    assert ch.ledger == {"bob": 1, "cy": 0, "ann": -1, "dee": 0}
    assert ch.active == ("cy", "dee") and ch.game.cube == 2 and ch.game.cube_owner == TEAM
    ch.roll((2, 1))
    ch.move(13, 11)
    ch.move(11, 10)
    ch.commit()
    ch.resign("gammon", side="box")  # the box resigns a gammon on the team's turn
    ch.accept()
    net = ch.finish_game()
    # each remaining member wins cube 2 x gammon 2 = 4 from the box
    assert net == {"cy": 4, "ann": -1, "dee": 4}
    assert ch.ledger == {"bob": 1 - 8, "cy": 4, "ann": -1, "dee": 4}
    assert sum(ch.ledger.values()) == 0
    # RULES 11.4: the team won: captain cy takes the box, ann captains, bob goes to the back
    assert (ch.box, ch.team) == ("cy", ("ann", "dee", "bob"))


def test_rules_11_3_everyone_drops():
    ch = Chouette.seated("bob", ["cy", "ann"])
    opening_box_first(ch)
    ch.double()
    ch.answer("cy", False)
    ch.answer("ann", False)
    assert ch.game.phase is Phase.OVER and ch.game.result.winner == BOX
    assert ch.finish_game() == {"cy": -1, "ann": -1}
    assert ch.ledger == {"bob": 2, "cy": -1, "ann": -1}
    # the box won: bob stays, captain cy goes to the back
    assert (ch.box, ch.team) == ("bob", ("ann", "cy"))


def test_rules_11_3_team_double_must_be_unanimous_and_box_answers():
    ch = Chouette.seated("bob", ("cy", "ann", "dee"))
    ch.roll((1, 3))  # the team wins the opening
    ch.move(8, 5)
    ch.move(6, 5)
    ch.commit()
    ch.roll((6, 5))
    ch.move(24, 18)
    ch.move(18, 13)
    ch.commit()  # the team is on roll
    refused(ch, "double", agree=["cy", "ann"])          # dee did not agree
    refused(ch, "double", agree=["cy", "ann", "dee", "zed"])
    ch.double(agree=("cy", "ann", "dee"))
    refused(ch, "answer", "cy", True)  # the box answers a team double
    ch.answer("bob", False)
    assert ch.finish_game() == {"cy": 1, "ann": 1, "dee": 1}  # the box pays 1 to each
    assert ch.ledger == {"bob": -3, "cy": 1, "ann": 1, "dee": 1}
    assert (ch.box, ch.team) == ("cy", ("ann", "dee", "bob"))


def test_rules_11_2_captain_moves_and_box_doubles_alone():
    ch = Chouette.seated("bob", ["cy", "ann"])
    opening_box_first(ch)
    refused(ch, "double", agree=["cy"])  # the box needs nobody's agreement
    refused(ch, "finish_game")           # the game is going on
    refused(ch, "answer", "cy", True)    # no double offered


def test_beaver_rule_is_refused():
    with pytest.raises(ValueError):
        Chouette.seated("a", ["b", "c"], rules=Rules(beaver=True))


def test_random_chouette_ledger_sums_to_zero():
    rng = random.Random(9)
    ch = Chouette(["a", "b", "c", "d"], rng=4)
    for _ in range(6):
        steps = 0
        while ch.game.result is None and steps < 400:
            steps += 1
            g = ch.game
            acts = g.legal_actions()
            if g.phase is Phase.DOUBLED:
                if g.turn == TEAM:
                    ch.answer(ch.box, rng.random() < 0.5)
                else:
                    for m in list(ch.active):
                        ch.answer(m, rng.random() < 0.5)
            elif "double" in acts and rng.random() < 0.1:
                ch.double(agree=list(ch.active) if g.turn == TEAM else None)
            elif "roll" in acts:
                ch.roll()
            elif "move" in acts:
                ch.move(*rng.choice(g.legal_moves()))
            else:
                ch.commit()
        if ch.game.result is None:
            ch.resign("single", side="team")
            ch.accept()
        ch.finish_game()
        assert sum(ch.ledger.values()) == 0
    assert len(ch.history) == 6
