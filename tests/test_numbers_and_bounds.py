"""Numbers read as ASCII digits only, the errors of our
hierarchy for odd records and tables, bounds on scores, and what each fix promises.

The expected answers are worked out by hand in the comments: a number written
with other Unicode digits ("²", "⒌", "₃", "٣") is no number in any format the
library reads, so each is refused with an error of the hierarchy naming the field.
"""

from __future__ import annotations

import doctest
import importlib

import numpy as np
import pytest
from backgammon.cube import met
from backgammon.errors import BackgammonError, InvalidRecordError, MatchEquityError
from backgammon.formats.mat import read_mat
from backgammon.formats.sgf import read_sgf

ODD_DIGITS = ["²", "⒌", "₃", "٣", "1_0", "+1", "3²", "߃"]  # ߃: N'Ko digit three


@pytest.mark.parametrize("name", ["backgammon._numbers", "backgammon.cube.met"])
def test_module_examples(name):
    module = importlib.import_module(name)
    assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0


# ---------------------------------------------------------------- SGF


@pytest.mark.parametrize("odd", ODD_DIGITS)
@pytest.mark.parametrize("template, field", [
    ("(;GM[6]MI[length:{}])", "MI length"),
    ("(;GM[6]MI[length:0][game:{}])", "MI game"),
    ("(;GM[6]MI[length:0][ws:{}])", "MI ws"),
    ("(;GM[6]MI[length:0]RE[W+{}R])", "RE points"),
    ("(;GM[6]MI[length:0]RE[W+{}])", "RE points"),
    ("(;GM[6]MI[length:0];CV[{}]AE[a:y]AW[a]AB[x])", "CV"),
])
def test_sgf_numbers_are_ascii_digits(template, field, odd):
    with pytest.raises(InvalidRecordError, match=field):
        read_sgf(template.format(odd))


def test_sgf_ascii_numbers_still_read():
    # RE[W+1R] on a money game not started: White wins 1 by a resignation
    record = read_sgf("(;GM[6]MI[length:0][game:0][ws:0][bs:0]RE[W+1R])")
    assert record.games[0].result.points == 1 and record.games[0].result.winner == 0


@pytest.mark.parametrize("text", [
    "(;GM[6]MI[length:0];PL[W]DI[66])",       # the opening roll a double, no move after
    "(;GM[6]MI[length:3];PL[B]DI[11])",       # the same in a match game
    "(;GM[6]MI[length:0]PL[W]DI[33])",        # on the root node
])
def test_sgf_first_roll_double_alone_is_our_error(text):
    # RULES 2.1: the opening dice are never equal; with no move after it the game is
    # started only after the loop over the nodes, which must name the game too
    with pytest.raises(InvalidRecordError, match=r"game 1.*double"):
        read_sgf(text)


# ---------------------------------------------------------------- .mat


MAT = " 3 point match\n\n Game 1\n Ann : {s0}                        Bob : {s1}\n" \
      "  1) 31: 8/5 6/5\n"


@pytest.mark.parametrize("odd", ODD_DIGITS)
def test_mat_numbers_are_ascii_digits(odd):
    for text in (MAT.format(s0=odd, s1=0), MAT.format(s0=0, s1=odd),
                 f' {odd} point match\n\n Game 1\n A : 0     B : 0\n',
                 '; [CubeLimit "{}"]\n'.format(odd) + MAT.format(s0=0, s1=0),
                 MAT.format(s0=0, s1=0) + f"  2)  Doubles => {odd}\n",
                 MAT.format(s0=0, s1=0).replace("Game 1", f"Game {odd}")):
        with pytest.raises(InvalidRecordError):
            read_mat(text)


def test_mat_cubelimit_names_the_field():
    with pytest.raises(InvalidRecordError, match="CubeLimit"):
        read_mat('; [CubeLimit "²"]\n' + MAT.format(s0=0, s1=0))


def test_mat_ascii_numbers_still_read():
    record = read_mat(MAT.format(s0=0, s1=0))
    assert record.match_length == 3 and record.games[0].position.pip_counts() == (167, 163)


# ---------------------------------------------------------------- other readers


@pytest.mark.parametrize("odd", ["٣", "+1", " 1", "1_0", "²"])
def test_xgid_numbers_are_ascii_digits(odd):
    from backgammon.formats.xgid import decode_xgid

    start = "-b----E-C---eE---c-e----B-"
    decode_xgid(f"XGID={start}:0:0:1:52:0:0:0:5:10")  # the plain one reads
    with pytest.raises(InvalidRecordError, match="match length"):
        decode_xgid(f"XGID={start}:0:0:1:52:0:0:0:{odd}:10")


@pytest.mark.parametrize("text", ["٢٤/١٨ ١٣/١١", "24/18 13/١١", "8/5(٢)"])
def test_play_notation_digits_are_ascii(text):
    from backgammon.errors import InvalidPlayError
    from backgammon.position import Position

    with pytest.raises(InvalidPlayError):
        Position.initial().parse_play(text, (6, 2) if "24" in text or "٢٤" in text else (3, 3))


@pytest.mark.parametrize("moves", [[[8.7, 5]], [["8", 5]], [["٨", 5]]])
def test_json_record_points_are_integers(moves):
    import json

    from backgammon.formats.record import read_json
    from backgammon.game import Game

    game = Game(rng=1)
    game.roll((3, 1))
    game.play("8/5 6/5")
    data = json.loads(game.to_json())
    for item in data["games"][0]["actions"]:
        if item["action"] == "play":
            item["moves"] = moves
    with pytest.raises(InvalidRecordError):
        Game.from_json(json.dumps(data))
    assert read_json  # the same reader


def test_met_xml_entries_are_ascii():
    text = met.default_table().to_json()
    xml = _met_xml(met.default_table()).replace("<me>0.5</me>", "<me>٠.٥</me>", 1)
    assert "٠.٥" in xml and text
    with pytest.raises(MatchEquityError, match="not a match winning chance"):
        met.MatchEquityTable.from_gnubg_xml(xml)


def _met_xml(table) -> str:
    rows = "".join("<row>" + "".join(f"<me>{v}</me>" for v in row) + "</row>"
                   for row in table.pre_crawford)
    post = "".join(f"<me>{v}</me>" for v in table.post_crawford)
    return (f"<?xml version='1.0' encoding='UTF-8'?><met><info><name>t</name>"
            f"<length>{table.length}</length></info><pre-crawford-table type='explicit'>"
            f"{rows}</pre-crawford-table><post-crawford-table player='both' "
            f"type='explicit'><row>{post}</row></post-crawford-table></met>")


@pytest.mark.parametrize("encoding", ["foo-bar", "rot13", "hex", "utf-7", "big5", "idna",
                                      "base64", "zlib", "utf-32-xx"])
def test_met_xml_odd_encodings(encoding):
    text = _met_xml(met.default_table()).replace("UTF-8", encoding).encode("ascii")
    with pytest.raises(MatchEquityError):
        met.MatchEquityTable.from_gnubg_xml(text)


def test_met_xml_round_trip_still_reads():
    table = met.MatchEquityTable.from_gnubg_xml(_met_xml(met.default_table()).encode())
    assert table.pre_crawford == met.default_table().pre_crawford


# ---------------------------------------------------------------- the command line


@pytest.mark.parametrize("argv", [["perft", "٢"], ["perft", "2", "--rolls", "٢١"],
                                  ["rollout", "--games", "1_0"],
                                  ["rollout", "--max-seconds", "٣.٥"]])
def test_cli_numbers_are_ascii(argv, capsys):
    from backgammon.cli import main

    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    assert "ASCII" in capsys.readouterr().err


@pytest.mark.parametrize("record", [
    ("x.sgf", "(;GM[6]MI[length:²])"),
    ("x.sgf", "(;GM[6]MI[length:0];PL[W]DI[66])"),
    ("x.mat", MAT.format(s0="⒌", s1=0)),
])
def test_cli_analyse_prints_a_clean_error(record, tmp_path, capsys):
    from backgammon.cli import main

    path = tmp_path / record[0]
    path.write_text(record[1], encoding="utf-8")
    assert main(["analyse", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("backgammon: error: ") and "Traceback" not in err


def test_errors_are_of_the_hierarchy():
    assert issubclass(InvalidRecordError, BackgammonError)
    assert np  # numpy is used by the score tests below


# ---------------------------------------------------------------- scores and the cube


@pytest.mark.parametrize("score", ["ab", (2 ** 40, 3), (3, 2 ** 40), (0, 3), (3, -1),
                                   (3.0, 5), (True, 5), (3,), (3, 4, 5), None.__class__])
def test_cube_decision_refuses_bad_scores_naming_score(score):
    import backgammon as bg

    with pytest.raises(MatchEquityError, match="score"):
        bg.cube_decision(bg.Position.initial(), score=score)


def test_huge_away_is_not_reported_as_a_clamped_int():
    # 2**40 was clamped to C's INT_MAX and reported as "away = 2147483647"
    for call in (lambda: met.equity(2 ** 40, 3), lambda: met.gammon_values(3, 2 ** 40)):
        with pytest.raises(MatchEquityError) as e:
            call()
        assert "2147483647" not in str(e.value) and "beyond the longest match" in str(e.value)


@pytest.mark.parametrize("kind", [np.int8, np.int16, np.int32, np.int64, np.uint16])
def test_numpy_integers_are_counts_and_scores(kind):
    import backgammon as bg
    from backgammon.match import Match
    from backgammon.rules import Rules

    assert met.equity(kind(2), kind(1)) == met.equity(2, 1) == 0.32264
    assert met.gammon_values(kind(3), kind(5), cube=kind(2)) == met.gammon_values(3, 5, cube=2)
    d = bg.cube_decision(bg.Position.initial(), score=(kind(3), kind(5)), cube=kind(2),
                         owner="own")
    assert d == bg.cube_decision(bg.Position.initial(), score=(3, 5), cube=2, owner="own")
    assert type(d.score[0]) is int and type(d.cube) is int
    assert Match(kind(5)).length == 5 and type(Match(kind(5)).length) is int
    rules = Rules(max_cube=kind(16))
    assert rules.max_cube == 16 and type(rules.max_cube) is int and rules == Rules(max_cube=16)


def test_cube_decision_on_a_finished_position_is_game_over():
    import backgammon as bg
    from backgammon.errors import GameOverError

    board = [0] * 26
    board[1] = -1  # the player on roll has borne off all 15: the game is over
    finished = bg.Position.from_array(board)
    assert finished.outcome() is not None
    with pytest.raises(GameOverError):
        bg.cube_decision(finished)
    with pytest.raises(GameOverError):
        bg.cube_decision(finished.swapped(), score=(3, 5))


# ---------------------------------------------------------------- the MET past 25 points


TABLE = met.default_table()
N = TABLE.length


def _grid(limit: int) -> list[list[float]]:
    return [[TABLE.equity(a, b) for b in range(1, limit + 1)] for a in range(1, limit + 1)]


def test_met_extension_is_symmetric_and_monotone():
    # a player further away never has the better chance, and the two chances of a
    # score sum to 1, over every score to 80-away, inside the table and past it
    grid = _grid(80)
    for a in range(80):
        for b in range(80):
            assert grid[a][b] + grid[b][a] == pytest.approx(1.0, abs=1e-6)
            if a + 1 < 80:
                assert grid[a + 1][b] <= grid[a][b] + 1e-15, (a + 1, b + 1)
            if b + 1 < 80:
                assert grid[a][b + 1] >= grid[a][b] - 1e-15, (a + 1, b + 1)
    for a in range(1, 80):  # equal aways are even chances, exactly
        assert grid[a][a] == 0.5


def test_met_extension_post_crawford_and_crawford_fall_monotonically():
    post = [TABLE.equity(a, 1, post_crawford=True) for a in range(1, 200)]
    crawford = [TABLE.equity(a, 1) for a in range(2, 200)]
    assert post == sorted(post, reverse=True) and crawford == sorted(crawford, reverse=True)
    assert post[N - 1] == TABLE.post_crawford[N - 1]  # the table itself up to 25
    # every two points past the table both fall by the same ratio
    ratio = TABLE.extension.ratio
    assert 0 < ratio < 1
    assert post[N + 1] == pytest.approx(post[N - 1] * ratio, rel=1e-12)
    assert crawford[N + 4] == pytest.approx(crawford[N] * ratio ** 2, rel=1e-12)
    # the Crawford trailer (no cube this game) has less than the post-Crawford one
    assert all(c <= p for c, p in zip(crawford[N:], post[N + 1:]))


def test_met_extension_is_continuous_at_the_table_edge():
    # the first step past the table is no bigger than twice the step into its last
    # row: the z-score of row 25 scaled by sqrt(26/25) moves each entry by a few
    # percent of itself, as the table's own steps do
    for b in range(2, N + 1):
        inside = TABLE.equity(N - 1, b) - TABLE.equity(N, b)
        past = TABLE.equity(N, b) - TABLE.equity(N + 1, b)
        assert 0 <= past <= 2 * inside + 1e-4, b
    # and at the edge the formula gives the table's own numbers: the ratio of aways
    # maps 25-away onto the last row, whose quantile times sqrt(25/25) is itself
    from backgammon.cube.met import _extended
    for b in range(2, N + 1):
        assert _extended(TABLE.extension.edge_z, N, N, b) == pytest.approx(
            TABLE.equity(N, b), abs=1e-12)


def test_met_extension_follows_the_normal_model_far_out():
    # Far from the table the chance is Phi(lead / (s sqrt(points))) with the spread
    # s of the table's last row near the diagonal (about 1.84 for Kazaross-XG2):
    # 900-away vs 1000-away, a lead of 100 over 1900 points
    from statistics import NormalDist

    z = NormalDist().inv_cdf(TABLE.equity(N, N - 1))
    s = -1 / (z * (2 * N - 1) ** 0.5)  # from 25-away vs 24-away: trailing by 1 of 49
    expected = NormalDist().cdf(100 / (s * 1900 ** 0.5))
    assert TABLE.equity(900, 1000) == pytest.approx(expected, abs=0.01)
    assert TABLE.equity(32767, 32767) == 0.5
    assert 0.0 <= TABLE.equity(32767, 2) < 1e-12


def test_met_extension_core_agrees_with_python():
    from backgammon import _bgcore
    from backgammon.cube import cubeful as cf

    core = _bgcore.cube_table(TABLE)
    chances = (0.6, 0.2, 0.01, 0.1, 0.0)
    for score in [(26, 3), (3, 26), (30, 31), (100, 90), (32767, 32767), (26, 1), (1, 40),
                  (2, 300), (5000, 4000), (27, 2)]:
        for post in (False, True):
            if post and 1 not in score:
                continue
            for owner in ("centred", "own", "opponent"):
                a = _bgcore.cube_match_equity(chances, *score, 1, owner, 0.68, post, 64, core)
                b = cf.match_equity(chances, *score, 1, owner, 0.68, post, 64, TABLE)
                assert a == pytest.approx(b, abs=1e-12), (score, post, owner)


def test_a_long_match_analyses_and_rolls_out():
    import backgammon as bg
    from backgammon.match import Match

    m = Match(31, rng=5)
    g = m.game
    g.roll((3, 1))
    g.play("8/5 6/5")
    d = g.cube_decision()
    assert d.score == (31, 31) and 0.45 < d.no_double < 0.55
    r = bg.rollout(g, games=36, cube=True, seed=1)
    assert r.match and 0 <= r.cubeful.value <= 1
    g.roll((6, 6))
    g.play("24/18(2) 13/7(2)")
    g.double()
    g.drop()
    analysis = bg.analyse(m)
    assert analysis.decisions  # the cube decisions at 31-away were analysed


def test_a_short_table_is_not_extended():
    small = met.MatchEquityTable(name="toy", pre_crawford=((0.5, 0.7), (0.3, 0.5)),
                                 post_crawford=(0.5, 0.45))
    assert small.extension is None
    with pytest.raises(MatchEquityError, match="too short to extend"):
        small.equity(3, 2)


# ---------------------------------------------------------------- Ctrl-C in the row loops


def _stops_early(make_work, rows: int, most: int) -> None:
    """Ctrl-C stops the work long before it would end: its latency after the signal
    is under a third of the whole work's time, measured just before (not a speed
    assertion: before the row loops polled, the latency was the rest of the work).
    ``make_work(rows)`` gives the work; rows double (up to ``most``) until it takes
    a second (or ``most`` rows), so the comparison means something on a fast machine too."""
    import signal
    import time

    from test_interrupts import EndedBeforeTheSignal, _interrupted

    if not hasattr(signal, "pthread_kill"):
        pytest.skip("needs signal.pthread_kill (POSIX)")
    while True:
        work = make_work(rows)
        start = time.perf_counter()
        work()
        whole = time.perf_counter() - start
        if whole >= 1.0 or rows >= most:
            break
        rows *= 2
    # an idle fast machine may finish the largest work in under a second (pubeval: 32 Mi
    # rows in 0.7 s): a quarter second still dwarfs a poll's latency (milliseconds)
    assert whole >= 0.25, f"{rows} rows took only {whole:.2f} s"
    # the signal a quarter of the way through: in the row loop, past the checks of the
    # whole array, and early enough that a run faster than the timing one still gets it
    for _ in range(3):   # a run that beats its timing run by 4x ends first: take more rows
        try:
            latency = _interrupted(work, delay=whole / 4)
            break
        except EndedBeforeTheSignal:
            rows = min(rows * 2, most)
            work = make_work(rows)
    else:
        pytest.fail(f"{rows} rows ended before the signal three times")
    assert latency < min(0.5, whole / 4), (latency, whole, rows)  # the old loops: whole / 2


def _start_rows(rows: int) -> np.ndarray:
    import backgammon as bg

    return np.tile(bg.Position.initial().to_array().astype(np.int8), (rows, 1))


@pytest.mark.ctrl_c
@pytest.mark.slow
def test_pubeval_scores_stop_on_ctrl_c():
    from backgammon import pubeval

    def make(rows):  # 26 bytes a row: at most 32 Mi rows, 870 MB
        boards = _start_rows(rows)
        return lambda: pubeval.scores(boards)

    _stops_early(make, 1 << 22, 1 << 25)
    assert pubeval.scores(_start_rows(2)).shape == (2,)  # usable afterwards


@pytest.mark.ctrl_c
@pytest.mark.slow
def test_batch_successors_stop_on_ctrl_c():
    import backgammon as bg

    def make(rows):  # 6-6 from the start, 11 plays of 26 bytes a row: at most 4 Mi rows
        boards = _start_rows(rows)
        dice = np.tile(np.array([[6, 6]], np.uint8), (rows, 1))
        return lambda: bg.batch_successors(boards, dice)

    _stops_early(make, 1 << 18, 1 << 22)
    results, offsets = bg.batch_successors(_start_rows(2), [(6, 6), (6, 6)])
    assert offsets.tolist() == [0, 11, 22]


def test_pubeval_scores_refuse_an_empty_row_by_index():
    from backgammon import pubeval
    from backgammon.errors import InvalidPositionError

    boards = np.zeros((3, 26), np.int8)
    boards[0, 6] = 5
    boards[0, 19] = -5
    boards[2] = boards[0]
    with pytest.raises(InvalidPositionError, match="row 1: no checkers"):
        pubeval.scores(boards)


# ---------------------------------------------------------------- SGF money with beavers


def test_sgf_money_session_with_beavers_round_trips():
    import warnings

    from backgammon.formats.sgf import write_sgf
    from backgammon.game import Game
    from backgammon.rules import Rules

    rules = Rules(beaver=True)
    # game 1: Ann 5-3 8/3 6/3, Bob doubles, Ann beavers (cube 4, Ann's), Bob rolls 6-6 ...
    g1 = Game(rules, rng=3)
    g1.roll((5, 3)); g1.play("8/3 6/3")
    g1.double(); g1.beaver()
    g1.roll((6, 6)); g1.play("24/18(2) 13/7(2)")
    g1.double(); g1.drop()           # Ann redoubles to 8, Bob passes: Ann wins 4
    g2 = Game(rules, rng=4)
    g2.roll((4, 2)); g2.play("8/4 6/4")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing is lost any more
        text = write_sgf([g1, g2])
    record = read_sgf(text)
    assert [g.rules for g in record.games] == [rules, rules]
    assert [g.actions for g in record.games] == [g1.actions, g2.actions]
    assert record.games[0].result.points == 4 and record.games[0].result.winner == 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert write_sgf(record.games) == text   # and writes the same text again


# ---------------------------------------------------------------- memory bounded by the input


def _peak_per_char(read, text: str) -> float:
    import gc
    import tracemalloc

    gc.collect()
    tracemalloc.start()
    try:
        record = read(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(record.games) > 1000
    return peak / len(text)


# Bytes of peak memory per input character, generous: a replayed game holds about
# 0.5 KB (a Game with its position and a dice source sharing the record's one
# Random); each used to hold its own random.Random (2.5 KB), so 3 characters of
# "(;)" cost 1.2 KB each and 4 MB of empty games took 2 GB (issue 17).
SGF_BYTES_PER_CHAR = 600
MAT_BYTES_PER_CHAR = 80


@pytest.mark.parametrize("tree", ["(;)", "(;GM[6])", "(;GM[6]MI[length:0])"])
def test_sgf_memory_is_bounded_per_character(tree):
    assert _peak_per_char(read_sgf, tree * 2000) < SGF_BYTES_PER_CHAR


def test_mat_memory_is_bounded_per_character():
    text = " 0 point match\n\n" + "".join(f" Game {i + 1}\n A : 0   B : 0\n"
                                           for i in range(2000))
    assert _peak_per_char(read_mat, text) < MAT_BYTES_PER_CHAR


def test_records_bound_the_number_of_games():
    from backgammon.formats import mat, sgf

    with pytest.raises(InvalidRecordError, match="more than 100,000 game trees"):
        read_sgf("(;)" * (sgf.MAX_GAMES + 1))
    text = " 0 point match\n\n" + " Game 1\n A : 0   B : 0\n" * (mat.MAX_GAMES + 1)
    with pytest.raises(InvalidRecordError, match="at most 100,000"):
        read_mat(text)


def test_a_record_s_money_games_share_one_dice_source():
    record = read_sgf("(;GM[6])(;GM[6])")
    a, b = (g._dice.source for g in record.games)
    assert a is b


# ---------------------------------------------------------------- saved results: integers only


def test_saved_analysis_counts_are_integers():
    import json

    import backgammon as bg
    from backgammon.match import Match

    m = Match(3, rng=2)
    m.game.roll((3, 1)); m.game.play("8/5 6/5"); m.game.double(); m.game.drop()
    data = json.loads(bg.analyse(m).to_json())
    assert bg.Analysis.from_json(json.dumps(data)).names == tuple(data["names"])
    for bad in (["1", 0], [0.5, 0]):
        data["forced"] = bad
        with pytest.raises(InvalidRecordError, match="forced"):
            bg.Analysis.from_json(json.dumps(data))


def test_saved_rollout_of_plays_counts_are_integers():
    import backgammon as bg
    from backgammon.rollout.plays import PlaysRollout
    from backgammon.errors import RolloutError

    result = bg.rollout_plays(bg.Position.initial(), (3, 1), top=2, games=36, seed=1,
                              policy="random", workers=1)
    data = result.to_dict()
    assert PlaysRollout.from_dict(data).games == 36
    for key, bad in (("games", 36.0), ("games", "36"), ("seed", "1"), ("dice", ["3", 1])):
        with pytest.raises(RolloutError, match=key):
            PlaysRollout.from_dict({**data, key: bad})


def test_the_table_reaches_the_longest_match():
    from backgammon.game import MAX_MATCH_LENGTH

    assert met.MAX_AWAY == MAX_MATCH_LENGTH
    assert 0 < met.equity(MAX_MATCH_LENGTH, MAX_MATCH_LENGTH - 1) < 0.5
    with pytest.raises(MatchEquityError, match="longest match"):
        met.equity(MAX_MATCH_LENGTH + 1, 3)


def test_a_game_set_up_takes_numpy_integers_and_refuses_floats():
    import backgammon as bg
    from backgammon.game import Game

    game = Game.from_position(bg.Position.initial(), turn=np.int64(1), cube=np.int32(2),
                              cube_owner=np.int8(0))
    assert (game.turn, game.cube, game.cube_owner) == (1, 2, 0)
    assert all(type(v) is int for v in (game.turn, game.cube, game.cube_owner))
    with pytest.raises(TypeError):
        Game.from_position(bg.Position.initial(), cube=2.0, cube_owner=0)
    with pytest.raises(BackgammonError):
        Game.from_position(bg.Position.initial(), turn=1.0)
