"""The strength benchmark (backgammon.training.benchmark): classes, error rates, the loader, the gate.

The fixture is written by hand below: two contact decisions and one race
decision with reference equities chosen here, so every expected error rate
is worked out in the comments.  The sample under tests/data/strength holds
the first decisions of each committed set (benchmarks/strength), to check the
fast paths (batched net and pubeval choices) against the slow ones.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import backgammon as bg
from backgammon.training import benchmark
from backgammon.training.benchmark import PositionSet, error_rate, position_class
from backgammon.errors import InvalidBenchmarkError

from boards import board

SAMPLE = Path(__file__).parent / "data" / "strength"


# ----------------------------------------------------------------------
# Classes


def test_position_class_hand_worked():
    assert position_class(bg.Position.initial()) == "contact"
    # our 5 on the ace point and 1 on the 20-point: 6 in play (9 off); their
    # 2 on our 3-point are behind our checker on the 20: contact, crashed
    crashed = board({1: 5, 20: 1}, {3: 2, 19: 3, 21: 5, 24: 5})
    assert position_class(crashed) == "crashed"
    # one more of ours in play (7): contact, not crashed
    assert position_class(board({1: 6, 20: 1}, {3: 2, 19: 3, 21: 5, 24: 5})) == "contact"
    # a checker on the bar is in play: 5 on the board + 1 on the bar = 6
    assert position_class(board({1: 5, 25: 1}, {3: 2, 19: 3, 21: 5, 24: 5})) == "crashed"
    # the opponent crashed (6 in play: 2 + 4), we have all 15
    assert position_class(board({6: 5, 8: 3, 13: 5, 20: 2}, {2: 2, 22: 4})) == "crashed"
    # no contact: our rearmost (the 6-point) is below their rearmost (our 19)
    assert position_class(board({1: 2, 6: 1}, {19: 1, 24: 2})) == "race"
    # the same race with 3 checkers each is race, not crashed
    for pos in (crashed, board({6: 5, 8: 3, 13: 5, 20: 2}, {2: 2, 22: 4}),
                board({1: 2, 6: 1}, {19: 1, 24: 2}), bg.Position.initial()):
        assert position_class(pos.swapped()) == position_class(pos)


# ----------------------------------------------------------------------
# The hand-made fixture


def _equities(pos, dice, values, default):
    return [values.get(str(p), default) for p in pos.legal_plays(dice)]


@pytest.fixture
def fixture_sets():
    start = bg.Position.initial()
    # A: opening 3-1, 8/5 6/5 the best at +0.150, every other play 0.000
    a = (start, (3, 1), _equities(start, (3, 1), {"8/5 6/5": 0.150}, 0.0))
    # B: opening 6-5, 13/8 13/7 the best at +0.100, 24/13 -0.020, the rest -0.200
    b = (start, (6, 5), _equities(start, (6, 5), {"13/8 13/7": 0.100, "24/13": -0.020}, -0.200))
    # C: race, ours on the 6- and 5-points, theirs on our 18 and 24 (13 off):
    # 6-5 bears both off (a single win, +1.000) or plays 6/1 5/off (+0.600 here)
    race = board({6: 1, 5: 1}, {18: 1, 24: 1})
    c = (race, (6, 5), _equities(race, (6, 5), {"6/off 5/off": 1.000}, 0.600))
    return {"contact": PositionSet.from_decisions("contact", [a, b]),
            "race": PositionSet.from_decisions("race", [c])}


def test_fixture_plays_are_as_described(fixture_sets):
    start = bg.Position.initial()
    assert len(start.legal_plays((3, 1))) == 16 and len(start.legal_plays((6, 5))) == 7
    race = fixture_sets["race"].position(0)[0]
    assert sorted(str(p) for p in race.legal_plays((6, 5))) == ["6/1 5/off", "6/off 5/off"]
    # pubeval's opening choices, as everyone knows them
    assert str(bg.pubeval.best_play(start, (3, 1))) == "8/5 6/5"
    assert str(bg.pubeval.best_play(start, (6, 5))) == "24/13"


def reference_chooser(sets):
    """A chooser that answers with the reference best play itself."""
    table = {}
    for s in sets.values():
        for i, row in enumerate(s.best):
            pos, dice = s.position(i)
            table[(pos, dice)] = bg.Position._from_bytes(s.results[row].tobytes())
    return lambda pos, dice: table[(pos, dice)]


def test_reference_chooser_scores_zero(fixture_sets):
    for r in error_rate(reference_chooser(fixture_sets), fixture_sets).values():
        assert r.error == 0.0 and r.stderr == 0.0 and r.best_share == 1.0


def test_pubeval_by_hand(fixture_sets):
    r = error_rate("pubeval", fixture_sets)
    # A: pubeval plays 8/5 6/5, the best: loses 0.  B: it plays 24/13,
    # losing 0.100 - (-0.020) = 0.120.  Mean (0 + 0.120) / 2 = 0.060 -> 60.0;
    # sd of (0, 0.120) is 0.120 / sqrt 2, over sqrt 2 decisions: 0.060 -> 60.0.
    assert r["contact"].error == pytest.approx(60.0)
    assert r["contact"].stderr == pytest.approx(60.0)
    assert r["contact"].best_share == 0.5
    assert r["contact"].losses.tolist() == pytest.approx([0.0, 0.120])
    # C: pubeval bears both checkers off (its win score): the best, 0
    assert r["race"].error == 0.0 and r["race"].best_share == 1.0
    # over all three decisions: (0 + 120 + 0) / 3 = 40.0
    assert benchmark.combined(r).error == pytest.approx(40.0)
    assert benchmark.combined(r).decisions == 3


def test_worst_chooser_by_hand(fixture_sets):
    def worst(pos, dice):
        s = fixture_sets["race" if position_class(pos) == "race" else "contact"]
        for i in range(len(s)):
            if s.position(i) == (pos, dice):
                lo, hi = s.offsets[i], s.offsets[i + 1]
                return bg.Position._from_bytes(s.results[lo + np.argmin(s.equities[lo:hi])].tobytes())
        raise AssertionError("decision not in the fixture")

    r = error_rate(worst, fixture_sets)
    # A: 0.150 - 0.000 = 0.150; B: 0.100 - (-0.200) = 0.300; mean 0.225 -> 225.0
    assert r["contact"].error == pytest.approx(225.0)
    assert r["contact"].best_share == 0.0
    # C: 1.000 - 0.600 = 0.400 -> 400.0
    assert r["race"].error == pytest.approx(400.0)


def test_nets_on_the_fixture(fixture_sets):
    r = error_rate("net", fixture_sets)
    # the bundled nets open 3-1 with 8/5 6/5 and bear both checkers off in C
    assert r["contact"].losses[0] == 0.0 and r["race"].error == 0.0
    assert min(abs(r["contact"].losses[1] - x) for x in (0.0, 0.120, 0.300)) < 1e-12


def test_chooser_errors(fixture_sets):
    with pytest.raises(bg.BackgammonError, match="not legal"):
        error_rate(lambda pos, dice: pos, fixture_sets)   # "no move" is not a legal play here
    with pytest.raises(TypeError):
        error_rate(lambda pos, dice: 3, fixture_sets)
    with pytest.raises(ValueError, match="unknown chooser"):
        error_rate("gnubg", fixture_sets)
    with pytest.raises(ValueError):
        error_rate("pubeval", fixture_sets, ply=1)
    with pytest.raises(TypeError):
        error_rate("net", [1, 2])


def test_save_load_round_trip(fixture_sets, tmp_path):
    s = fixture_sets["contact"]
    s.save(tmp_path / "contact.npz")
    fixture_sets["race"].save(tmp_path / "race.npz")
    loaded = benchmark.load_sets(tmp_path)
    assert list(loaded) == ["contact", "race"]
    t = loaded["contact"]
    assert (t.boards == s.boards).all() and (t.results == s.results).all()
    assert t.equities == pytest.approx(s.equities)
    assert error_rate("pubeval", tmp_path)["contact"].error == pytest.approx(60.0)
    one = benchmark.load_sets(tmp_path / "race.npz")
    assert list(one) == ["race"]
    sub = s.subset([1])
    assert len(sub) == 1 and len(sub.results) == 7
    assert error_rate("pubeval", sub)["contact"].error == pytest.approx(120.0)


# ----------------------------------------------------------------------
# The loader refuses bad files


def _arrays(s: PositionSet) -> dict:
    return {"format": np.array(benchmark.FORMAT), "version": np.array("1"),
            "name": np.array(s.name), "meta": np.array("{}"), "boards": s.boards,
            "dice": s.dice, "offsets": s.offsets, "results": s.results,
            "equities": s.equities.astype(np.float32), "stderr": s.stderr.astype(np.float32)}


def _spoil(key, value):
    def change(d):
        if value is None:
            del d[key]
        else:
            d[key] = value(d[key]) if callable(value) else value
    return change


def _bad_result(r):
    r = r.copy()
    r[3, 6] -= 1   # a checker of the 4th play of A moved elsewhere...
    r[3, 5] += 1
    return r


@pytest.mark.parametrize("change, message", [
    (_spoil("format", np.array("something-else")), "not a backgammon-strength-set"),
    (_spoil("version", np.array("9")), "version 9"),
    (_spoil("meta", np.array("{not json")), "meta is not JSON"),
    (_spoil("meta", np.array("[1, 2]")), "JSON object"),
    (_spoil("name", np.array(3)), "'name'"),
    (_spoil("equities", None), "missing arrays equities"),
    (_spoil("boards", lambda b: b[:, :25]), "boards"),
    (_spoil("boards", lambda b: b.astype(np.float64)), "dtype"),
    (_spoil("dice", lambda d: d[:1]), "dice"),
    (_spoil("dice", lambda d: np.array([[3, 1], [6, 7]], np.uint8)), "dice"),
    (_spoil("offsets", lambda o: np.array([0, 16, 16, 23])[:3]), "offsets"),
    (_spoil("offsets", lambda o: np.array([0, 7, 23])), "not the legal plays"),
    (_spoil("results", _bad_result), "decision 0"),
    (_spoil("equities", lambda e: np.where(np.arange(len(e)) == 2, np.nan, e)), "finite"),
    (_spoil("equities", lambda e: e + 5.0), "within -3..3"),
    (_spoil("equities", lambda e: e[:-1]), "equities"),
    (_spoil("stderr", lambda e: e - 1.0), "negative"),
    (_spoil("boards", lambda b: np.where(np.arange(26) == 6, 9, b).astype(np.int8)),
     "row 0: the on-roll player has more than 15 checkers"),
])
def test_loader_refuses_malformed_files(fixture_sets, tmp_path, change, message):
    data = _arrays(fixture_sets["contact"])
    change(data)
    path = tmp_path / "bad.npz"
    np.savez(path, **data)
    with pytest.raises(InvalidBenchmarkError, match=message):
        PositionSet.load(path)


def test_loader_refuses_other_files(tmp_path, monkeypatch, fixture_sets):
    with pytest.raises(InvalidBenchmarkError, match="cannot read"):
        PositionSet.load(tmp_path / "missing.npz")
    (tmp_path / "text.npz").write_text("hello")
    with pytest.raises(InvalidBenchmarkError, match="not a position set"):
        PositionSet.load(tmp_path / "text.npz")
    np.save(tmp_path / "array.npy", np.zeros(3))
    with pytest.raises(InvalidBenchmarkError, match="not a position set"):
        PositionSet.load(tmp_path / "array.npy")
    np.savez(tmp_path / "pickled.npz", boards=np.array([{"a": 1}], dtype=object))
    with pytest.raises(InvalidBenchmarkError):
        PositionSet.load(tmp_path / "pickled.npz")
    fixture_sets["race"].save(tmp_path / "race.npz")
    monkeypatch.setattr(benchmark, "MAX_FILE", 100)
    with pytest.raises(InvalidBenchmarkError, match="too large"):
        PositionSet.load(tmp_path / "race.npz")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(InvalidBenchmarkError, match="no .npz"):
        benchmark.load_sets(empty)


def test_direct_construction_is_checked(fixture_sets):
    s = fixture_sets["contact"]
    with pytest.raises(InvalidBenchmarkError, match="legal plays"):
        PositionSet("x", s.boards, s.dice, s.offsets, s.results[::-1].copy(), s.equities,
                    s.stderr)
    with pytest.raises(InvalidBenchmarkError, match="equities"):
        PositionSet.from_decisions("x", [(bg.Position.initial(), (3, 1), [0.0] * 15)])
    with pytest.raises(InvalidBenchmarkError, match="at least one"):
        PositionSet.from_decisions("x", [])


# ----------------------------------------------------------------------
# The committed sample of the real sets: fast paths against slow ones


@pytest.fixture(scope="module")
def sample():
    return benchmark.load_sets(SAMPLE)


def test_sample_sets_load(sample):
    assert set(sample) == set(benchmark.CLASSES)
    for name, s in sample.items():
        assert len(s) >= 20
        assert all(position_class(b.tobytes()) == name for b in s.boards)
        assert (np.diff(s.offsets) >= 2).all()          # no forced decisions
        assert not any(bg._bgcore.bearoff_applies(b.tobytes()) for b in s.boards)
        assert s.meta["class"] == name and "reference" in s.meta


def test_sample_reference_and_pubeval(sample):
    for r in error_rate(reference_chooser(sample), sample).values():
        assert r.error == 0.0 and r.best_share == 1.0
    pub = error_rate("pubeval", sample)
    assert benchmark.combined(pub).error > 0
    # the batched pubeval choice is pubeval.best_play's, decision by decision
    slow = error_rate(bg.pubeval.best_play, sample)
    for name in sample:
        assert (slow[name].losses == pub[name].losses).all()


def test_batched_net_choice_is_rank_plays(sample):
    ev = bg.Evaluator.default()
    fast = error_rate(ev, sample)
    slow = error_rate(lambda pos, dice: pos.rank_plays(dice)[0].play, sample)
    for name in sample:
        assert (fast[name].losses == slow[name].losses).all()
        assert fast[name].error >= 0
    one = error_rate(ev, sample["race"].subset(slice(0, 5)), ply=1)["race"]
    assert one.decisions == 5 and one.error >= 0


# ----------------------------------------------------------------------
# The gate and the command line


def test_gate(sample):
    ev = bg.Evaluator.default()
    same = benchmark.gate(ev, ev, sample, pairs=50, seed=3)
    assert not same.lands and same.difference == 0.0 and same.duel.ppg.value == 0.0
    assert same.differing == 0             # the same choices everywhere
    weak = bg.Evaluator.random(hidden=(8, 8), seed=1)
    better = benchmark.gate(ev, weak, sample, pairs=100, seed=3)
    assert better.lands and better.difference < 0 and better.duel.ppg.value > 0
    # the decisions whose losses differ, counted from the two nets' own losses
    a, b = benchmark.combined(better.new).losses, benchmark.combined(better.old).losses
    total = sum(len(s) for s in sample.values())
    assert better.differing == int((a != b).sum()) and 0 < better.differing <= total
    assert f"differ on {better.differing:,} of {total:,}" in str(better)
    # the bundled nets by name, as the command line takes them
    assert benchmark.gate("net", "fast", sample, pairs=20, seed=3).new == better.new
    worse = benchmark.gate(weak, ev, sample, pairs=100, seed=3)
    assert not worse.lands
    assert "lands: yes" in str(better) and "lands: no" in str(worse)


def test_cli(sample, tmp_path, capsys):
    from backgammon.cli import main

    bg.Evaluator.random(hidden=(8, 8), seed=1).save(tmp_path / "weak.npz")
    assert main(["benchmark", str(tmp_path / "weak.npz"), "--sets", str(SAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "contact" in out and "bundled nets" in out and "pubeval" in out and "weak.npz" in out
    assert main(["benchmark", "--sets", str(SAMPLE), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"bundled nets", "pubeval"}
    assert data["pubeval"]["all"]["decisions"] == sum(len(s) for s in sample.values())
    assert math.isfinite(data["bundled nets"]["race"]["error"])
    assert main(["benchmark", "net", "--gate", str(tmp_path / "weak.npz"), "--sets", str(SAMPLE),
                 "--pairs", "100"]) == 0   # the bundled nets land over random ones
    capsys.readouterr()
    assert main(["benchmark", str(tmp_path / "weak.npz"), "--gate", "net", "--sets",
                 str(SAMPLE), "--pairs", "100"]) == 1
    assert "lands: no" in capsys.readouterr().out
    # the bundled nets by name, beside files: the fast ones score as Evaluator.fast()
    assert main(["benchmark", "fast", "--sets", str(SAMPLE), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    want = error_rate(bg.Evaluator.fast(), sample)
    assert data["fast"]["contact"]["error"] == pytest.approx(want["contact"].error)
    assert main(["benchmark", "--sets", str(tmp_path / "nothing-here.npz")]) == 2
    assert "cannot read" in capsys.readouterr().err
