"""Scenario tests of backgammon.Match (RULES 9.4, 10.1, 10.2), scores worked out by hand."""

from __future__ import annotations

import pytest
from backgammon.errors import IllegalActionError, InvalidRecordError, InvalidRulesError
from backgammon.game import Phase
from backgammon.match import Match
from backgammon.rules import Rules
from test_game import assert_refused, full_state


def win(match: Match, winner: int, kind: str = "single") -> None:
    """The loser resigns ``kind`` right after the opening roll; the winner accepts."""
    game = match.game
    game.roll((3, 1))  # player 0 plays first
    game.resign(kind, player=1 - winner)
    game.accept(player=winner)


def double_drop(match: Match, doubler: int) -> None:
    """Player ``doubler`` doubles at their first chance and the other drops."""
    game = match.game
    game.roll((3, 1) if doubler == 1 else (1, 3))  # the other side moves first
    game.move(8, 5)
    game.move(6, 5)
    game.commit()
    game.double(player=doubler)
    game.drop(player=1 - doubler)


def refuse_next_game(match: Match) -> None:
    before_games = match.games
    before = full_state(match.game)
    with pytest.raises(IllegalActionError):
        match.next_game()
    assert match.games == before_games and full_state(match.game) == before


def test_rules_10_1_first_to_reach_n_wins_and_crawford_game_refuses_double():
    m = Match(5, rng=1)
    win(m, 0, "gammon")
    assert m.score == (2, 0) and m.winner is None
    m.next_game()
    assert not m.crawford_game
    win(m, 0, "gammon")
    assert m.score == (4, 0)  # player 0 reaches 4 = N-1
    m.next_game()
    assert m.crawford_game and not m.post_crawford  # RULES 10.2
    g = m.game
    g.roll((3, 1))
    g.move(8, 5)
    g.move(6, 5)
    g.commit()
    err = assert_refused(g, "double")  # player 1, trailing, may not double in the Crawford game
    assert "Crawford" in str(err)
    g.resign("single", player=0)
    g.accept()
    assert m.score == (4, 1)
    m.next_game()
    assert not m.crawford_game and m.post_crawford  # doubling resumes
    double_drop(m, 1)  # player 1 doubles, player 0 drops: 1 point to player 1
    assert m.score == (4, 2)
    m.next_game()
    assert not m.crawford_game  # only one Crawford game per match
    win(m, 0)
    assert m.score == (5, 2) and m.winner == 0 and m.over
    refuse_next_game(m)


def test_rules_10_1_passing_n_wins():
    m = Match(3, rng=1)
    win(m, 1, "backgammon")  # 3 points in one game
    assert m.score == (0, 3) and m.winner == 1


def test_rules_10_2_crawford_when_the_trailer_is_player_1_and_jump_to_n_minus_1():
    m = Match(3, rng=1)
    win(m, 1, "gammon")  # 0-2: player 1 jumps straight to N-1
    m.next_game()
    assert m.crawford_game
    assert m.game.crawford and not m.game.can_double(0)


def test_rules_10_2_double_match_point_after_crawford():
    m = Match(3, rng=1)
    win(m, 0, "gammon")  # 2-0
    m.next_game()
    assert m.crawford_game
    win(m, 1, "gammon")  # 2-2: both at N-1
    m.next_game()
    assert not m.crawford_game and m.post_crawford
    assert m.game.phase is Phase.OPENING


def test_no_crawford_rule_and_one_point_match():
    m = Match(3, rng=1, crawford=False)
    win(m, 0, "gammon")
    m.next_game()
    assert not m.crawford_game
    m = Match(1, rng=1)
    assert not m.crawford_game  # nobody reached N-1 = 0: they started there


def test_next_game_refused_while_playing():
    m = Match(5, rng=1)
    refuse_next_game(m)
    m.game.roll((3, 1))
    refuse_next_game(m)


def test_rules_9_4_match_refuses_jacoby_and_automatic_doubles():
    with pytest.raises(InvalidRulesError):
        Match(5, Rules(jacoby=True))
    with pytest.raises(InvalidRulesError):
        Match(5, Rules(automatic_doubles=1))
    with pytest.raises(ValueError):
        Match(0)


def test_match_game_scores_gammon_in_full_and_records_every_game():
    m = Match(7, rng=2)
    double_drop(m, 0)  # 1-0
    m.next_game()
    g = m.game
    g.roll((3, 1))
    g.resign("gammon", player=1)
    g.accept()
    assert m.score == (3, 0)  # 1 + gammon 2
    assert len(m.games) == 2 and [x.result.points for x in m.games] == [1, 2]
    assert m.games[1].score == (1, 0)


def test_match_replay():
    m = Match(5, rng=3)
    double_drop(m, 1)
    m.next_game()
    win(m, 0, "gammon")
    copy = Match(5, rng=0)
    copy.replay([g.actions for g in m.games])
    assert copy.score == m.score == (2, 1)


def test_match_record_methods():
    m = Match(5, rng=3, names=("A", "B"))
    double_drop(m, 1)
    m.next_game()
    m.game.resign("gammon", player=1)  # before the opening roll
    m.game.accept()
    assert Match.from_mat(m.to_mat()).score == (2, 1)
    back = Match.from_json(m.to_json())
    assert back.score == (2, 1) and back.names == ("A", "B")
    with pytest.raises(InvalidRecordError, match="money"):
        Match.from_mat(" 0 point match\n Game 1\n A : 0     B : 0\n")
