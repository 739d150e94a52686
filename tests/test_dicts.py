"""to_dict / from_dict / to_json / from_json of the result types (issue 16, issue 19).

Each type round-trips exactly (through strict JSON too), its dict has the
fields a client reads, and a malformed dict raises our error naming the field.
"""

import json
import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import backgammon as bg
from backgammon.analysis import Decision
from backgammon.nn import RankedPlay, rank_plays

COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=60)
probability = st.floats(0.0, 1.0, allow_nan=False)
finite = st.floats(-10.0, 10.0, allow_nan=False)


def played(seed: int, plies: int) -> bg.Position:
    """A position reached by random legal plays from the opening."""
    rng = random.Random(seed)
    pos = bg.Position.initial()
    for _ in range(plies):
        plays = pos.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
        nxt = rng.choice(list(plays)).result.swapped()
        if nxt.outcome() is not None:
            break
        pos = nxt
    return pos


def strict(text: str):
    """Parses as strict JSON (no NaN / Infinity)."""
    def refuse(name):
        raise AssertionError(f"non-standard JSON constant {name}")
    return json.loads(text, parse_constant=refuse)


# ---------------------------------------------------------------- Play, Evaluation, RankedPlay

def test_play_dict_by_hand():
    play = bg.Play(bg.Position.initial(), [(8, 5), (6, 5)])
    assert play.to_dict() == {"position_id": "4HPwATDgc/ABMA", "play": "8/5 6/5",
                              "moves": [[8, 5], [6, 5]]}
    again = bg.Play.from_json(play.to_json())
    assert again == play and again.moves == play.moves


@settings(**COMMON)
@given(st.integers(0, 2**32), st.integers(0, 40), st.integers(1, 6), st.integers(1, 6))
def test_play_round_trip(seed, plies, d1, d2):
    pos = played(seed, plies)
    for play in pos.legal_plays((d1, d2)):
        again = bg.Play.from_json(play.to_json())
        assert again == play and again.moves == play.moves and again.result == play.result


@pytest.mark.parametrize("data, field", [
    ({"moves": [[8, 5], [6, 5]]}, "position_id"),
    ({"position_id": "4HPwATDgc/ABMA"}, "moves"),
    ({"position_id": "4HPwATDgc/ABMA", "moves": [[8, 5], [6, 5]], "play": "8/5 6/4"}, "play"),
    ({"position_id": "4HPwATDgc/ABMA", "moves": [[8, 5, 1]]}, "moves"),
    ({"position_id": "4HPwATDgc/ABMA", "moves": [[8, True]]}, "moves"),
    ({"position_id": "4HPwATDgc/ABMA", "moves": [[8, 5]] * 9}, "moves"),
    ({"position_id": 7, "moves": []}, "position_id"),
])
def test_play_from_dict_names_the_field(data, field):
    with pytest.raises(bg.InvalidRecordError, match=field):
        bg.Play.from_dict(data)


def test_play_from_dict_refuses_illegal_and_bad_ids():
    with pytest.raises(bg.InvalidRecordError, match="not a legal play"):
        bg.Play.from_dict({"position_id": "4HPwATDgc/ABMA", "moves": [[24, 18], [18, 12]]})
    with pytest.raises(bg.InvalidRecordError):
        bg.Play.from_dict({"position_id": "not an id!!!!!", "moves": []})
    with pytest.raises(bg.InvalidRecordError, match="dict"):
        bg.Play.from_dict([1, 2])
    with pytest.raises(bg.InvalidRecordError, match="not JSON"):
        bg.Play.from_json("{")


@settings(**COMMON)
@given(probability, probability, probability, probability, probability)
def test_evaluation_round_trip(w, wg, wb, lg, lb):
    e = bg.Evaluation(w, wg, wb, lg, lb)
    d = strict(e.to_json())
    assert d["lose"] == e.lose and d["equity"] == e.equity
    assert bg.Evaluation.from_json(e.to_json()) == e


def test_evaluation_dict_by_hand():
    # equity = 2*0.6 - 1 + 0.2 - 0.1 + 0.05 - 0.0 = 0.35 (up to rounding)
    d = bg.Evaluation(0.6, 0.2, 0.05, 0.1, 0.0).to_dict()
    assert set(d) == {"win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon",
                      "lose", "equity"}
    assert math.isclose(d["equity"], 0.35) and math.isclose(d["lose"], 0.4)


@pytest.mark.parametrize("bad", [1.5, -0.1, "0.5", None, True, float("nan")])
def test_evaluation_refuses_a_bad_probability(bad):
    data = bg.Evaluation(0.5, 0.1, 0.0, 0.1, 0.0).to_dict()
    data["win_gammon"] = bad
    with pytest.raises(bg.InvalidRecordError, match="win_gammon"):
        bg.Evaluation.from_dict(data)


def test_evaluation_json_refuses_nan_on_the_way_out():
    with pytest.raises(ValueError):
        bg.Evaluation(float("nan"), 0, 0, 0, 0).to_json()


def test_ranked_play_round_trip():
    ranked = rank_plays(bg.Position.initial(), (3, 1))
    assert len(ranked) == 16
    for r in ranked:
        d = strict(r.to_json())
        assert d["play"]["position_id"] == "4HPwATDgc/ABMA" and d["ply"] == 0
        again = RankedPlay.from_json(r.to_json())
        assert again == r and again.play.moves == r.play.moves
    with pytest.raises(bg.InvalidRecordError, match="ply"):
        RankedPlay.from_dict({**ranked[0].to_dict(), "ply": -1})


# ---------------------------------------------------------------- CubeDecision

@settings(**COMMON)
@given(st.tuples(probability, probability, probability, probability, probability),
       st.sampled_from([1, 2, 4]), st.sampled_from(["centred", "own", "opponent"]),
       st.one_of(st.none(), st.tuples(st.integers(1, 9), st.integers(1, 9))), st.booleans())
def test_cube_decision_round_trip(chances, cube, owner, score, post_crawford):
    w, wg, wb, lg, lb = chances
    # make them consistent (gammons within wins, backgammons within gammons)
    wg, lg = min(wg, w), min(lg, 1 - w)
    chances = (w, wg, min(wb, wg), lg, min(lb, lg))
    d = bg.CubeDecision.from_chances(chances, cube=cube, owner=owner, score=score,
                                     post_crawford=post_crawford and score is not None and 1 in score)
    again = bg.CubeDecision.from_json(d.to_json())
    assert again == d and again.errors == d.errors
    assert strict(d.to_json())["score"] == (None if score is None else list(score))


def test_cube_decision_dict_by_hand():
    # A certain win with the cube centred in money play: doubling cashes 1 point
    # (a drop), not doubling is worth less with the cube alive: Double, pass.
    d = bg.CubeDecision.from_chances((1.0, 0.0, 0.0, 0.0, 0.0)).to_dict()
    assert d["action"] == "Double, pass" and d["take"] is False and d["double_pass"] == 1.0
    assert d["score"] is None and d["cube"] == 1 and d["owner"] == "centred"
    assert d["errors"]["pass"] == 0.0 and d["errors"]["take"] > 0
    for field, bad in [("owner", "mine"), ("cube", 3), ("probabilities", [0.5] * 4),
                       ("errors", {"maybe": 0.0}), ("take", 1), ("score", [0, 3])]:
        with pytest.raises(bg.InvalidRecordError, match=field):
            bg.CubeDecision.from_dict({**d, field: bad})


# ---------------------------------------------------------------- DuelResult, rollouts

def test_duel_result_round_trip():
    r = bg.duel("pubeval", "random", games=20, seed=4)
    d = strict(r.to_json())
    assert d["games"] == 20 and d["a"] == "pubeval" and d["b"] == "random"
    assert d["wins"][0] + d["wins"][1] == 20
    assert set(d["ppg"]) == {"value", "stderr", "ci95"}
    assert bg.DuelResult.from_json(r.to_json()) == r
    with pytest.raises(bg.RolloutError, match="wins"):
        bg.DuelResult.from_dict({**d, "wins": [1]})
    with pytest.raises(bg.RolloutError, match="ppg"):
        bg.DuelResult.from_dict({**d, "ppg": {"value": 0.1}})


def test_candidate_row_round_trip():
    rows = bg.rollout_plays(bg.Position.initial(), (3, 1), top=3, games=72, seed=1,
                            policy="pubeval")
    for row in rows:
        d = strict(row.to_json())
        assert d["play"]["play"] == str(row.play)
        assert bg.CandidateRow.from_json(row.to_json()) == row
    assert rows[0].to_dict()["difference"] == {"value": 0.0, "stderr": 0.0, "ci95": [0.0, 0.0]}
    with pytest.raises(bg.RolloutError, match="play"):
        bg.CandidateRow.from_dict({**rows[0].to_dict(), "play": {"position_id": "x"}})


def test_rollout_result_json_round_trip():
    r = bg.rollout(bg.Position.initial(), games=72, seed=2, policy="pubeval")
    again = bg.RolloutResult.from_json(r.to_json(strata=True))
    assert again == r and (again.strata == r.strata).all()
    assert strict(r.to_json())["games"] == 72
    with pytest.raises(bg.RolloutError):
        bg.RolloutResult.from_json("[1")


# ---------------------------------------------------------------- Decision, GameResult

def test_decision_round_trip():
    m = bg.Match(1, rng=3)
    m.game.roll((3, 1))
    m.game.play("8/5 6/5")
    (d,) = bg.analyse(m).decisions
    data = strict(d.to_json())
    assert data["made"] == "8/5 6/5" and data["dice"] == [3, 1] and data["kind"] == "play"
    assert Decision.from_json(d.to_json()) == d
    with pytest.raises(bg.InvalidRecordError, match="player"):
        Decision.from_dict({**data, "player": 2})
    with pytest.raises(bg.InvalidRecordError):
        Decision.from_dict({**data, "surprise": 1})


@pytest.mark.parametrize("result", [bg.GameResult(0, 1, "single", "bearoff", 1),
                                    bg.GameResult(1, 8, "gammon", "resign", 4),
                                    bg.GameResult(1, 2, "single", "drop", 2)])
def test_game_result_round_trip(result):
    assert strict(result.to_json()) == dict(result._asdict())
    assert bg.GameResult.from_json(result.to_json()) == result


def test_game_result_of_a_played_game():
    game = bg.Game(rng=1)
    game.roll((3, 1))
    game.play("8/5 6/5")
    game.double()
    game.drop()
    # player 1 doubled, player 0 dropped: player 1 wins the cube before the double, 1 point
    assert game.result == bg.GameResult(1, 1, "single", "drop", 1)
    assert bg.GameResult.from_dict(game.result.to_dict()) == game.result


@pytest.mark.parametrize("field, bad", [("winner", 2), ("points", 0), ("kind", "triple"),
                                        ("reason", "timeout"), ("cube", 3), ("cube", True)])
def test_game_result_refuses(field, bad):
    data = bg.GameResult(0, 1, "single", "bearoff", 1).to_dict()
    with pytest.raises(bg.InvalidRecordError, match=field):
        bg.GameResult.from_dict({**data, field: bad})


def test_json_size_is_bounded():
    with pytest.raises(bg.InvalidRecordError, match="at most"):
        bg.GameResult.from_json(" " * (17 << 20))


@pytest.mark.parametrize("module", ["backgammon._dicts", "backgammon.cube.decision", "backgammon.game",
                                    "backgammon.game_types", "backgammon.nn.evaluator",
                                    "backgammon.nn.search"])
def test_docstring_examples(module):
    import doctest
    import importlib
    assert doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS).failed == 0
