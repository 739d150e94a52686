"""Error behaviour of the public API (notes/API.md, issue 2).

Every malformed input must raise one of the library's own exceptions (subclasses of
``backgammon.BackgammonError``, the precise subclass the contract names), never crash, never a
bare ValueError / TypeError / IndexError / OverflowError, and never change the position it was
asked about.

Where the contract is silent the expectation chosen here is marked "beyond the contract" with
the reason. Messages are matched only where the contract says what they contain (batch errors
name the bad row).
"""

import base64
import random

import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

import backgammon as bg
from backgammon import (
    BackgammonError,
    GameOverError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidPositionError,
    Position,
)

INITIAL = [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0]

COMMON = dict(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                           HealthCheck.data_too_large],
)

B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def snapshot(pos):
    return (pos.to_array().tolist(), pos.position_id(), hash(pos), repr(pos),
            pos.pip_counts(), pos.borne_off())


def assert_unchanged(pos, snap):
    assert snapshot(pos) == snap
    assert pos == Position.from_array(snap[0])


def expect(exc_type, fn, *args, match=None, **kwargs):
    """pytest.raises with the exact family check: the error is ours, of the named class."""
    with pytest.raises(exc_type, match=match) as info:
        fn(*args, **kwargs)
    assert isinstance(info.value, BackgammonError)
    return info.value


def engine_still_works():
    """After errors the engine's shared state must still be usable."""
    pos = Position.initial()
    assert len(pos.legal_plays((3, 1))) == 16
    assert pos.successors((6, 6)).shape == (len(pos.legal_plays((6, 6))), 26)
    assert bg.perft(pos, 1) == 447


# ---------------------------------------------------------------------------------------------
# The hierarchy
# ---------------------------------------------------------------------------------------------

def test_error_hierarchy():
    assert issubclass(BackgammonError, ValueError)
    for cls in (InvalidPositionError, InvalidDiceError, IllegalPlayError, GameOverError):
        assert issubclass(cls, BackgammonError)
    import backgammon.errors as errors
    assert errors.InvalidPositionError is InvalidPositionError
    assert errors.InvalidDiceError is InvalidDiceError
    assert errors.IllegalPlayError is IllegalPlayError
    assert errors.GameOverError is GameOverError
    assert errors.BackgammonError is BackgammonError


# ---------------------------------------------------------------------------------------------
# Malformed arrays
# ---------------------------------------------------------------------------------------------

def _with(i, v, base=INITIAL):
    a = list(base)
    a[i] = v
    return a


BAD_ARRAYS = {
    "empty": [],
    "len1": [0],
    "len25": INITIAL[:25],
    "len27": INITIAL + [0],
    "len52": INITIAL * 2,
    "2d_list": [INITIAL],
    "2d_array_1x26": np.array([INITIAL]),
    "2d_array_2x26": np.array([INITIAL, INITIAL]),
    "2d_array_26x1": np.array(INITIAL).reshape(26, 1),
    "0d_array": np.array(5),
    "array_len27": np.array(INITIAL + [0]),
    "fraction_float": _with(6, 4.5),
    "fraction_float_small": _with(3, 0.25),
    "float_array_fraction": np.array(_with(6, 4.5), dtype=np.float64),
    "nan": _with(3, float("nan")),
    "inf": _with(3, float("inf")),
    "neg_inf": _with(3, float("-inf")),
    "complex": _with(3, 1 + 2j),
    "string": "0" * 26,
    "bytes_text": b"abcdefghijklmnopqrstuvwxyz",
    "list_of_str": [str(v) for v in INITIAL],
    "one_str": _with(6, "5"),
    "one_none": _with(6, None),
    "nested_list_element": _with(6, [5]),
    "ragged": [[1, 2]] + INITIAL[1:],
    "none": None,
    "int": 42,
    "object": object(),
    "dict": {i: v for i, v in enumerate(INITIAL)},
    "int8_overflow_pos": _with(6, 128),
    "int8_overflow_neg": _with(12, -129),
    "wraps_to_2": _with(6, 258),               # 258 & 0xFF == 2: must not wrap
    "wraps_to_minus_1": _with(3, 255),         # 255 as int8 == -1: must not wrap
    "huge_pos": _with(6, 2 ** 63),
    "huge_pos_2": _with(6, 2 ** 64 + 5),
    "huge_neg": _with(6, -2 ** 70),
    "int16_array_258": np.array(_with(6, 258), dtype=np.int16),
    "int64_array_wrap": np.array(_with(6, 2 ** 40 + 5), dtype=np.int64),
    "uint8_255": np.array(_with(3, 255, [0] * 26), dtype=np.uint8),
    "uint64_huge": np.array(_with(3, 2 ** 63 + 1, [0] * 26), dtype=np.uint64),
    "mover_16_one_point": _with(6, 16, [0] * 26),
    "mover_16_initial_plus_1": _with(6, 6),
    "mover_16_with_bar": _with(25, 1),
    "opp_16_one_point": _with(19, -16, [0] * 26),
    "opp_16_initial_plus_1": _with(19, -6),
    "opp_16_with_bar": _with(0, -1),
    "mover_15_plus_opp_on_bar_16": _with(0, -16, [0] * 25 + [15]),
    "own_bar_negative": _with(25, -1),
    "own_bar_very_negative": _with(25, -15, [0] * 26),
    "opp_bar_positive": _with(0, 1),
    "opp_bar_positive_15": _with(0, 15, [0] * 26),
    "bool_array": np.zeros(26, dtype=bool),
    "object_array_fraction": np.array(_with(6, 4.5), dtype=object),
}


@pytest.mark.parametrize("name", sorted(BAD_ARRAYS))
def test_from_array_rejects(name):
    value = BAD_ARRAYS[name]
    before = value.copy() if isinstance(value, np.ndarray) else None
    expect(InvalidPositionError, Position.from_array, value)
    if before is not None:                       # the input is not modified
        assert np.array_equal(value, before, equal_nan=value.dtype.kind == "f")
    engine_still_works()


ACCEPTED_ARRAYS = {
    "list": INITIAL,
    "tuple": tuple(INITIAL),
    "generator": (v for v in INITIAL),
    "range_like_iter": iter(INITIAL),
    "int8": np.array(INITIAL, dtype=np.int8),
    "int16": np.array(INITIAL, dtype=np.int16),
    "int32": np.array(INITIAL, dtype=np.int32),
    "int64": np.array(INITIAL, dtype=np.int64),
    "big_endian_int32": np.array(INITIAL, dtype=">i4"),
    "non_contiguous": np.repeat(np.array(INITIAL, dtype=np.int64), 2)[::2],
    "reversed_view": np.array(INITIAL[::-1], dtype=np.int8)[::-1],
    "readonly": np.frombuffer(np.array(INITIAL, dtype=np.int8).tobytes(), dtype=np.int8),
    "numpy_scalars_list": [np.int64(v) for v in INITIAL],
    "mixed_numpy_scalars": [np.int8(v) if i % 2 else np.uint64(max(v, 0)) if v >= 0
                            else np.int32(v) for i, v in enumerate(INITIAL)],
}


@pytest.mark.parametrize("name", sorted(ACCEPTED_ARRAYS))
def test_from_array_accepts_integer_forms(name):
    pos = Position.from_array(ACCEPTED_ARRAYS[name])
    assert pos == Position.initial()
    assert pos.to_array().tolist() == INITIAL


def test_from_array_accepts_unsigned_when_no_opponent_checkers():
    board = [0] * 26
    board[6] = 15
    pos = Position.from_array(np.array(board, dtype=np.uint8))
    assert pos.to_array().tolist() == board


# Elements for the fuzzer. Integers are kept separate from everything else so that the
# validity of a generated list can be decided here.
_not_integers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).filter(
        lambda x: x != x or x in (float("inf"), float("-inf")) or not float(x).is_integer()),
    st.text(max_size=3),
    st.none(),
    st.lists(st.integers(-3, 3), max_size=2),
    st.just(1j),
)
_integers = st.one_of(
    st.integers(-16, 16),
    st.integers(-2 ** 70, 2 ** 70),
    st.sampled_from([-129, -128, 127, 128, 255, 256, 257, 258, 2 ** 31, 2 ** 63, 2 ** 64 + 2]),
    st.integers(-15, 15).map(np.int64),
)


def _board_is_valid(values):
    if len(values) != 26:
        return False
    if not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in values):
        return False
    v = [int(x) for x in values]
    return (v[25] >= 0 and v[0] <= 0 and sum(x for x in v[1:26] if x > 0) <= 15
            and -sum(x for x in v[0:25] if x < 0) <= 15)


@st.composite
def valid_boards(draw):
    a = [0] * 26
    for s in draw(st.lists(st.integers(1, 25), max_size=15)):
        a[s] += 1
    free = [0] + [p for p in range(1, 25) if a[p] == 0]
    for s in draw(st.lists(st.sampled_from(free), max_size=15)):
        a[s] -= 1
    return a


@st.composite
def fuzzed_boards(draw):
    kind = draw(st.sampled_from(["mutated", "mutated", "random_len", "junk"]))
    if kind == "mutated":
        a = draw(valid_boards())
        for _ in range(draw(st.integers(1, 3))):
            i = draw(st.integers(0, 25))
            a[i] = draw(st.one_of(st.integers(-17, 17), _integers, _not_integers))
        return a
    if kind == "random_len":
        n = draw(st.sampled_from([0, 1, 24, 25, 26, 26, 26, 27, 30]))
        return draw(st.lists(st.integers(-3, 3), min_size=n, max_size=n))
    return draw(st.lists(st.one_of(_integers, _not_integers), min_size=26, max_size=26))


@pytest.mark.slow
@settings(max_examples=400, **COMMON)
@given(fuzzed_boards(), st.sampled_from(["list", "tuple", "int64", "int8", "object"]))
def test_from_array_fuzz(values, form):
    # form "object": a numpy object array of ints. Beyond the contract whether it is accepted;
    # the engine may take it or reject it with InvalidPositionError, nothing else.
    if form == "tuple":
        arg = tuple(values)
    elif form in ("int64", "int8", "object"):
        try:
            arg = np.array(values, dtype=form)
        except (ValueError, TypeError, OverflowError):
            arg = values                        # numpy itself refuses: test the list instead
        else:
            if form == "int8" or form == "int64":
                # numpy accepted: the array's own values are what the engine sees
                values = [int(x) for x in arg.tolist()]
    else:
        arg = values
    note(f"values={values!r} form={form}")
    lenient = form == "object" and isinstance(arg, np.ndarray)
    if lenient and _board_is_valid(values):
        try:
            pos = Position.from_array(arg)
        except InvalidPositionError:
            return
        assert pos.to_array().tolist() == [int(v) for v in values]
    elif _board_is_valid(values) and any(int(v) for v in values):
        pos = Position.from_array(arg)
        assert pos.to_array().tolist() == [int(v) for v in values]
    elif _board_is_valid(values):
        # No checkers of either side: beyond the contract (no game reaches it); the engine may
        # accept it or reject it as an invalid position, but nothing else.
        try:
            Position.from_array(arg)
        except InvalidPositionError:
            pass
    else:
        expect(InvalidPositionError, Position.from_array, arg)


# ---------------------------------------------------------------------------------------------
# Dice
# ---------------------------------------------------------------------------------------------

BAD_DICE = {
    "zero": (0, 3),
    "seven": (7, 1),
    "negative": (-1, 2),
    "both_zero": (0, 0),
    "one_die": (1,),
    "three_dice": (1, 2, 3),
    "four_dice": (2, 2, 2, 2),
    "empty": (),
    "text": "71",          # dice as text ("31") are read: these are not dice
    "text_dash": "3-0",
    "text_three": "311",
    "text_long": "3" * 10_000,
    "bytes": b"31",
    "fraction": (1.5, 2),
    "float_nan": (float("nan"), 2),
    "die_text": (3, "1"),
    "none": None,
    "none_die": (None, 1),
    "int": 31,
    "huge": (2 ** 70, 1),
    "huge_neg": (1, -2 ** 70),
    "wraps_uint8": (257, 1),                     # 257 & 0xFF == 1: must not wrap
    "numpy_seven": (np.int64(7), 1),
    "numpy_zero": (np.int8(0), np.int8(3)),
    "numpy_3": np.array([1, 2, 3]),
    "numpy_2d": np.array([[3, 1]]),
    "numpy_float": np.array([3.5, 1.0]),
    "nested": ((3, 1), (2, 2)),
    "object": object(),
}

DICE_METHODS = {
    "legal_plays": lambda pos, d: pos.legal_plays(d),
    "successors": lambda pos, d: pos.successors(d),
    "legal_moves": lambda pos, d: pos.legal_moves(d),
    "legal_moves_played": lambda pos, d: pos.legal_moves(d, [(8, 5)]),
    "play": lambda pos, d: pos.play([(8, 5), (6, 5)], dice=d),
}


@pytest.mark.parametrize("method,name", [
    (m, n) for m in sorted(DICE_METHODS) for n in sorted(BAD_DICE)
    if not (m == "play" and n == "none")          # play(..., dice=None) means: any roll
])
def test_bad_dice_rejected(method, name):
    pos = Position.initial()
    snap = snapshot(pos)
    expect(InvalidDiceError, DICE_METHODS[method], pos, BAD_DICE[name])
    assert_unchanged(pos, snap)


GOOD_DICE_31 = {
    "tuple": (3, 1),
    "reversed": (1, 3),
    "list": [3, 1],
    "numpy_int64": (np.int64(3), np.int64(1)),
    "numpy_mixed": (np.int8(1), np.uint16(3)),
    "numpy_array": np.array([3, 1]),
    "numpy_array_uint8": np.array([1, 3], dtype=np.uint8),
}


@pytest.mark.parametrize("name", sorted(GOOD_DICE_31))
def test_numpy_and_other_dice_forms_accepted(name):
    dice = GOOD_DICE_31[name]
    pos = Position.initial()
    expected = sorted(p.result.to_array().tolist() for p in pos.legal_plays((3, 1)))
    assert sorted(p.result.to_array().tolist() for p in pos.legal_plays(dice)) == expected
    assert sorted(pos.successors(dice).tolist()) == expected
    assert set(pos.legal_moves(dice)) == set(pos.legal_moves((3, 1)))
    assert pos.play([(8, 5), (6, 5)], dice=dice) == pos.play([(8, 5), (6, 5)], dice=(3, 1))


_DICE_TEXT = re.compile(r"\s*([1-6])\s*[-,/]?\s*([1-6])\s*")   # "31", "3-1", "3 1", "3,1", "3/1"


def _dice_is_valid(d):
    if isinstance(d, str):
        return _DICE_TEXT.fullmatch(d) is not None
    if isinstance(d, bytes) or not isinstance(d, (tuple, list)):
        return False
    return len(d) == 2 and all(
        isinstance(x, (int, np.integer)) and not isinstance(x, bool) and 1 <= x <= 6 for x in d)


def _dice_pair(d):
    """The two dice of a valid ``d`` (text by the pattern above)."""
    if isinstance(d, str):
        return tuple(int(x) for x in _DICE_TEXT.fullmatch(d).groups())
    return int(d[0]), int(d[1])


_die_values = st.one_of(
    st.integers(-2, 9),
    st.integers(-2, 9).map(np.int64),
    st.integers(1, 6).map(np.uint8),
    st.sampled_from([2 ** 31, 2 ** 32 + 1, 2 ** 63, 2 ** 64 + 3, -2 ** 64]),
    st.floats().filter(lambda x: x != x or not float(x).is_integer()),
    st.text(max_size=2),
    st.none(),
)
_dice_values = st.one_of(
    st.lists(_die_values, min_size=0, max_size=4).map(tuple),
    st.lists(_die_values, min_size=2, max_size=2),
    st.text(max_size=3),
    st.integers(),
    st.none(),
)


@settings(max_examples=300, **COMMON)
@given(_dice_values)
def test_dice_fuzz(dice):
    pos = Position.initial()
    snap = snapshot(pos)
    if _dice_is_valid(dice):
        d = _dice_pair(dice)
        assert len(pos.legal_plays(dice)) == len(pos.legal_plays(d))
        assert np.array_equal(pos.successors(dice), pos.successors(d))
    else:
        expect(InvalidDiceError, pos.legal_plays, dice)
        expect(InvalidDiceError, pos.successors, dice)
        expect(InvalidDiceError, pos.legal_moves, dice)
    assert_unchanged(pos, snap)


# ---------------------------------------------------------------------------------------------
# Position IDs
# ---------------------------------------------------------------------------------------------

def encode_id(opp, me):
    """gnubg Position ID from per-side counts (each side: 24 points from its own ace, then bar;
    the side NOT on roll first). Counts are not checked, so broken IDs can be built."""
    bits = []
    for side in (opp, me):
        assert len(side) == 25
        for c in side:
            bits += [1] * c + [0]
    # 14 base64 characters hold 84 bits; a valid ID uses at most 80 (15 + 15 + 50), but a
    # broken one (16 checkers and 15 more) may need the last 4, which gnubg leaves zero.
    assert len(bits) <= 84
    key = 0
    for i, b in enumerate(bits):
        key |= b << i
    return base64.b64encode(key.to_bytes(11, "little")).decode("ascii")[:14]


def _counts(board):
    opp = [max(-board[25 - i], 0) for i in range(1, 25)] + [-board[0]]
    me = [max(board[i], 0) for i in range(1, 25)] + [board[25]]
    return opp, me


def test_encoder_matches_engine():
    assert encode_id(*_counts(INITIAL)) == "4HPwATDgc/ABMA"
    rng = random.Random(7)
    pos = Position.initial()
    for _ in range(60):
        plays = pos.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
        pos = plays[rng.randrange(len(plays))].result.swapped()
        if pos.outcome() is not None:
            break
        assert encode_id(*_counts(pos.to_array().tolist())) == pos.position_id()


def _bad_ids():
    ids = {
        "empty": "",
        "len13": "4HPwATDgc/ABM",
        "len15": "4HPwATDgc/ABMAA",
        "padded": "4HPwATDgc/ABMA==",
        "len28": "4HPwATDgc/ABMA4HPwATDgc/ABMA",
        "bang": "4HPwATDgc/AB!A",
        "urlsafe_dash": "4HPwATDgc-ABMA",
        "urlsafe_underscore": "4HPwATDgc_ABMA",
        "inner_space": "4HPwATDg c/ABMA"[:14],
        "non_ascii": "4HPwATDgc/ABMé",
        "dot": "4HPwATDgc.ABMA",
        "all_ones": "//////////////",      # no 0-bits: the 80 bits run out
        "pad_char_inside": "4HPwATD=c/ABMA",
    }
    zero = [0] * 25
    me16 = list(zero)
    me16[5] = 16
    ids["mover_16_one_point"] = encode_id(zero, me16)
    opp16 = list(zero)
    opp16[5] = 16
    ids["opp_16_one_point"] = encode_id(opp16, zero)
    spread = list(zero)
    spread[0], spread[12], spread[24] = 6, 6, 4
    ids["mover_16_spread_with_bar"] = encode_id(zero, spread)
    opp_init, me_init = _counts(INITIAL)
    me_plus = list(me_init)
    me_plus[5] += 1
    ids["initial_plus_one_mover"] = encode_id(opp_init, me_plus)
    opp_plus = list(opp_init)
    opp_plus[24] += 1
    ids["initial_plus_one_opp_bar"] = encode_id(opp_plus, me_init)
    # both sides on one point: the opponent's index i (its point i+1) is our point 24-i, which
    # is our index 23-i
    opp1, me1 = list(zero), list(zero)
    opp1[0], me1[23] = 2, 3        # both on our 24-point
    ids["both_on_point_24"] = encode_id(opp1, me1)
    opp2, me2 = list(zero), list(zero)
    opp2[18], me2[5] = 1, 1        # opponent on its 19 = our 6; we on our 6
    ids["both_on_point_6"] = encode_id(opp2, me2)
    opp3, me3 = list(opp_init), list(me_init)
    opp3[11] = 1                   # an opponent checker on its 12 = our 13, where we have 5
    opp3[5] -= 1                   # (taken from its 6-point: still 15 checkers)
    ids["initial_with_clash_on_13"] = encode_id(opp3, me3)
    return ids


BAD_IDS = _bad_ids()


@pytest.mark.parametrize("name", sorted(BAD_IDS))
def test_bad_position_ids(name):
    expect(InvalidPositionError, Position.from_position_id, BAD_IDS[name])
    engine_still_works()


@pytest.mark.parametrize("value", [None, 12345, ["4HPwATDgc/ABMA"], 4.5])
def test_position_id_wrong_type(value):
    # Not text at all: the contract lists "bad Position ID text" under InvalidPositionError;
    # a non-string is treated the same way rather than as a bare TypeError.
    expect(InvalidPositionError, Position.from_position_id, value)


@settings(max_examples=400, **COMMON)
@given(st.one_of(st.text(alphabet=B64, min_size=14, max_size=14),
                 st.text(alphabet=B64, min_size=10, max_size=18),
                 st.text(max_size=16)))
def test_position_id_fuzz(text):
    try:
        pos = Position.from_position_id(text)
    except InvalidPositionError:
        return
    # accepted: it must be a valid position whose own ID reads back to it
    a = pos.to_array().tolist()
    assert a[25] >= 0 and a[0] <= 0
    assert sum(v for v in a if v > 0) <= 15 and -sum(v for v in a if v < 0) <= 15
    assert Position.from_position_id(pos.position_id()) == pos


# ---------------------------------------------------------------------------------------------
# Illegal plays and illegal prefixes
# ---------------------------------------------------------------------------------------------

ILLEGAL_STEPS_31 = {
    "wrong_distance": [(8, 4), (6, 5)],          # only with dice: it is a 4-1 play
    "incomplete": [(8, 5)],
    "empty": [],
    "too_many": [(8, 5), (6, 5), (6, 5)],
    "five_steps": [(8, 5)] * 5,
    "no_checker_there": [(7, 4), (6, 5)],
    "onto_closed_point": [(13, 12), (8, 5)],      # opponent holds our 12 with 5 checkers
    "backwards": [(5, 8), (6, 5)],
    "same_die_twice": [(24, 23), (24, 23)],
    "bar_without_checker": [(25, 22), (6, 5)],
    "bear_off_not_home": [(3, 0), (6, 5)],
    "point_26": [(26, 23), (6, 5)],
    "negative_point": [(8, 5), (0, -1)],
    "from_zero": [(0, -3), (6, 5)],
}


@pytest.mark.parametrize("name,with_dice", [
    (n, w) for n in sorted(ILLEGAL_STEPS_31) for w in (True, False)
    if not (n == "wrong_distance" and not w)      # 8/4 6/5 is a legal play of 4-1
])
def test_illegal_plays(name, with_dice):
    pos = Position.initial()
    snap = snapshot(pos)
    kwargs = {"dice": (3, 1)} if with_dice else {}
    expect(IllegalPlayError, pos.play, ILLEGAL_STEPS_31[name], **kwargs)
    assert_unchanged(pos, snap)


# Not a sequence of (from, to) pairs at all. Beyond the contract: these are "not a complete
# legal play", so IllegalPlayError is the reasonable error (not TypeError/IndexError).
MALFORMED_STEPS = {
    "none": None,
    "int": 5,
    "text": "8/5 6/5",
    "one_number_steps": [(8,), (6,)],
    "triples": [(8, 5, 1), (6, 5, 1)],
    "text_numbers": [("8", "5"), ("6", "5")],
    "float_numbers": [(8.5, 5), (6, 5)],
    "none_step": [None, (6, 5)],
    "flat_list": [8, 5, 6, 5],
}


@pytest.mark.parametrize("name", sorted(MALFORMED_STEPS))
def test_malformed_steps(name):
    pos = Position.initial()
    snap = snapshot(pos)
    expect(IllegalPlayError, pos.play, MALFORMED_STEPS[name], dice=(3, 1))
    expect(IllegalPlayError, pos.play, MALFORMED_STEPS[name])
    expect(IllegalPlayError, pos.legal_moves, (3, 1), MALFORMED_STEPS[name])
    assert_unchanged(pos, snap)


def test_bool_steps_are_not_points():
    # One checker on our 2-point: 2/1 1/off is the 1-1 play, but True is not point 1.
    a = [0] * 26
    a[2], a[24] = 1, -1
    pos = Position.from_array(a)
    assert pos.play([(2, 1), (1, 0)], dice=(1, 1)).outcome() is not None
    snap = snapshot(pos)
    expect(IllegalPlayError, pos.play, [(2, True), (True, 0)], dice=(1, 1))
    expect(IllegalPlayError, pos.legal_moves, (1, 1), [(2, True)])
    assert_unchanged(pos, snap)


def test_play_of_another_position_rejected():
    pos = Position.initial()
    other = pos.play([(8, 5), (6, 5)]).swapped()
    play = next(p for p in pos.legal_plays((3, 1)) if p.moves and (8, 5) in p.moves)
    snap = snapshot(other)
    # a Play belongs to its own position (contract: "a Play of this position")
    expect(IllegalPlayError, other.play, play)
    expect(IllegalPlayError, other.play, play, dice=(3, 1))
    assert_unchanged(other, snap)


ILLEGAL_PREFIXES_31 = {
    "wrong_distance": [(8, 4)],
    "no_checker_there": [(7, 4)],
    "closed_point": [(13, 12)],
    "same_die_twice": [(24, 23), (24, 23)],
    "past_complete": [(8, 5), (6, 5), (6, 5)],
    "bar_without_checker": [(25, 22)],
}


@pytest.mark.parametrize("name", sorted(ILLEGAL_PREFIXES_31))
def test_illegal_prefix_in_legal_moves(name):
    pos = Position.initial()
    snap = snapshot(pos)
    expect(IllegalPlayError, pos.legal_moves, (3, 1), ILLEGAL_PREFIXES_31[name])
    assert_unchanged(pos, snap)


def test_prefix_that_blocks_the_other_die_rejected():
    # RULES 4.3: a first step after which the other die cannot be played is not a legal prefix
    # when a way to play both exists. We have checkers on 24 and 13; the opponent holds our 18,
    # 7 and 3. With 6-4 the only way to play both dice is 24/20/14: 24/18 and 13/7 are closed,
    # and after 13/9 no 6 is left (24/18, 9/3 closed). So 13/9 is legal by itself but is not a
    # legal start of the turn.
    board = [0] * 26
    board[24] = 1
    board[13] = 1
    board[18] = board[7] = board[3] = -2
    pos = Position.from_array(board)
    snap = snapshot(pos)
    assert [tuple(m) for m in pos.legal_moves((6, 4))] == [(24, 20)]
    assert [tuple(m) for m in pos.legal_moves((4, 6), [(24, 20)])] == [(20, 14)]
    expect(IllegalPlayError, pos.legal_moves, (6, 4), [(13, 9)])
    expect(IllegalPlayError, pos.play, [(13, 9)], dice=(6, 4))
    expect(IllegalPlayError, pos.play, [(24, 20)], dice=(6, 4))
    assert pos.play([(24, 20), (20, 14)], dice=(6, 4)).to_array()[14] == 1
    assert_unchanged(pos, snap)


# A small independent walk: random legal plays from the opening, both sides alive.
@st.composite
def live_positions(draw):
    rng = random.Random(draw(st.integers(0, 2 ** 32 - 1)))
    pos = Position.initial()
    for _ in range(draw(st.integers(0, 120))):
        plays = pos.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
        nxt = plays[rng.randrange(len(plays))].result.swapped()
        if nxt.outcome() is not None:
            break
        pos = nxt
    return pos


_step = st.tuples(st.integers(0, 25), st.integers(0, 25))


@settings(max_examples=200, **COMMON)
@given(live_positions(), st.tuples(st.integers(1, 6), st.integers(1, 6)),
       st.integers(0, 2 ** 32 - 1), st.lists(_step, max_size=4), st.integers(0, 4))
def test_play_fuzz_against_legal_moves(pos, dice, seed, junk, keep):
    """Random step lists (a legal walk cut short, with junk after it): play() accepts exactly
    the sequences that legal_moves walks to completion, and raises IllegalPlayError otherwise."""
    rng = random.Random(seed)
    snap = snapshot(pos)
    prefix = []
    while len(prefix) < keep:
        nxt = pos.legal_moves(dice, prefix)
        if not nxt:
            break
        prefix.append(tuple(rng.choice(list(nxt))))
    steps = prefix + [tuple(s) for s in junk[: max(0, 4 - len(prefix))]]
    note(f"board={snap[0]} dice={dice} steps={steps}")
    # walk the steps through legal_moves
    walkable = True
    for k in range(len(steps)):
        if tuple(steps[k]) not in {tuple(m) for m in pos.legal_moves(dice, steps[:k])}:
            walkable = False
            break
    complete = walkable and pos.legal_moves(dice, steps) == []
    if complete:
        res = pos.play(steps, dice=dice)
        assert res in pos.legal_plays(dice)
    else:
        expect(IllegalPlayError, pos.play, steps, dice=dice)
        if not walkable:
            expect(IllegalPlayError, pos.legal_moves, dice, steps)
    assert_unchanged(pos, snap)


# ---------------------------------------------------------------------------------------------
# Game over
# ---------------------------------------------------------------------------------------------

GAME_OVER = {
    # the opponent bore off its last checker: our turn in the swapped view
    "opponent_done": [0, 0, 0, 0, 0, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    "opponent_done_we_on_bar": [0] * 25 + [1],
    "mover_done": [-1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -5, 0, 0, 0, 0, 0, 0, -3, 0, 0, 0, 0, 0, 0],
    "mover_done_opp_in_home": [0, -2] + [0] * 24,
}

GAME_OVER_CALLS = {
    "legal_plays": lambda pos: pos.legal_plays((3, 1)),
    "legal_plays_double": lambda pos: pos.legal_plays((6, 6)),
    "successors": lambda pos: pos.successors((3, 1)),
    # beyond the contract: legal_moves also asks for plays
    "legal_moves": lambda pos: pos.legal_moves((3, 1)),
    "batch": lambda pos: bg.batch_successors(np.stack([pos.to_array()]), [(3, 1)]),
}


@pytest.mark.parametrize("call", sorted(GAME_OVER_CALLS))
@pytest.mark.parametrize("name", sorted(GAME_OVER))
def test_game_over(name, call):
    pos = Position.from_array(GAME_OVER[name])
    assert pos.outcome() is not None
    snap = snapshot(pos)
    expect(GameOverError, GAME_OVER_CALLS[call], pos)
    assert_unchanged(pos, snap)
    engine_still_works()


@pytest.mark.parametrize("name", sorted(GAME_OVER))
def test_game_over_is_a_perft_leaf(name):
    pos = Position.from_array(GAME_OVER[name])
    for depth in (0, 1, 3):
        assert bg.perft(pos, depth) == 1           # API: a finished game is a leaf
        assert bg.perft(pos, depth, rolls=36) == 1


def test_invalid_dice_checked_with_game_over_still_ours():
    # Both problems at once: which one is reported is not specified, but it must be ours.
    pos = Position.from_array(GAME_OVER["opponent_done"])
    with pytest.raises((InvalidDiceError, GameOverError)):
        pos.legal_plays((7, 1))


# ---------------------------------------------------------------------------------------------
# batch_successors
# ---------------------------------------------------------------------------------------------

def _batch(m=13):
    rng = random.Random(m)
    boards, dice = [], []
    pos = Position.initial()
    for _ in range(m):
        d = (rng.randint(1, 6), rng.randint(1, 6))
        boards.append(pos.to_array())
        dice.append(d)
        plays = pos.legal_plays(d)
        nxt = plays[rng.randrange(len(plays))].result.swapped()
        pos = nxt if nxt.outcome() is None else Position.initial()
    return np.stack(boards).astype(np.int8), np.array(dice, dtype=np.int64)


def _names_row(i):
    # The contract says only that errors "name the bad row"; accepted wordings: "row 7",
    # "row=7", "row #7", "index 7", "boards[7]". A bare number is not enough: the message may
    # also quote the board, which is full of small numbers.
    return rf"(?i)(\brow\b|\bindex\b|\[)\s*[#=:]?\s*{i}(?!\d)"


BAD_ROW_VALUES = {           # (point, value) changed in the initial position
    "own_bar_negative": (25, -1),
    "opp_bar_positive": (0, 1),
    "mover_16": (6, 11),     # initial has 5 on our 6: 11 there gives 21 checkers
    "opp_16": (19, -11),     # likewise for the opponent
    "int8_range": (6, 100),
}


@pytest.mark.parametrize("row", [0, 7, 11])
@pytest.mark.parametrize("name", sorted(BAD_ROW_VALUES))
def test_batch_bad_row_named(name, row):
    boards, dice = _batch()
    point, value = BAD_ROW_VALUES[name]
    boards[row] = np.array(INITIAL, dtype=np.int8)
    boards[row, point] = value
    before = boards.copy()
    expect(InvalidPositionError, bg.batch_successors, boards, dice, match=_names_row(row))
    assert np.array_equal(boards, before)
    # the same through a wider integer dtype
    expect(InvalidPositionError, bg.batch_successors, boards.astype(np.int64), dice,
           match=_names_row(row))


@pytest.mark.parametrize("row", [0, 7, 11])
def test_batch_value_out_of_int8_range_named(row):
    boards, dice = _batch()
    boards[row] = np.array(INITIAL, dtype=np.int8)
    b = boards.astype(np.int64)
    b[row, 6] = 258                      # would wrap to 2 as int8
    expect(InvalidPositionError, bg.batch_successors, b, dice, match=_names_row(row))
    b = boards.astype(np.int16)
    b[row, 6] = -254                     # would wrap to 2 as int8
    expect(InvalidPositionError, bg.batch_successors, b, dice, match=_names_row(row))


@pytest.mark.parametrize("row", [0, 7, 11])
@pytest.mark.parametrize("bad", [(0, 3), (7, 1), (3, 0), (1, 7), (-1, 2), (3, 257)])
def test_batch_bad_dice_row_named(row, bad):
    boards, dice = _batch()
    dice[row] = bad
    expect(InvalidDiceError, bg.batch_successors, boards, dice, match=_names_row(row))


@pytest.mark.parametrize("row", [0, 7, 11])
def test_batch_game_over_row_named(row):
    boards, dice = _batch()
    boards[row] = np.array(GAME_OVER["opponent_done"], dtype=np.int8)
    expect(GameOverError, bg.batch_successors, boards, dice, match=_names_row(row))


def _bad_shapes():
    boards, dice = _batch(4)
    return {
        "boards_1d": (boards[0], dice[:1], InvalidPositionError),
        "boards_25_cols": (boards[:, :25], dice, InvalidPositionError),
        "boards_27_cols": (np.concatenate([boards, boards[:, :1]], axis=1), dice,
                           InvalidPositionError),
        "boards_3d": (boards[None], dice, InvalidPositionError),
        "boards_float_fraction": (boards + 0.5, dice, InvalidPositionError),
        "boards_text": ("abc", dice, InvalidPositionError),
        "boards_none": (None, dice, InvalidPositionError),
        "boards_ragged": ([boards[0].tolist(), boards[1].tolist()[:20]], dice[:2],
                          InvalidPositionError),
        "dice_1d": (boards, dice[:, 0], InvalidDiceError),
        "dice_3_cols": (boards, np.concatenate([dice, dice[:, :1]], axis=1), InvalidDiceError),
        "dice_3d": (boards, dice[None], InvalidDiceError),
        "dice_float_fraction": (boards, dice + 0.5, InvalidDiceError),
        "dice_text": (boards, "31", InvalidDiceError),
        "dice_none": (boards, None, InvalidDiceError),
        # numbers of rows disagree: either error class is reasonable (beyond the contract)
        "rows_mismatch_more_dice": (boards, np.concatenate([dice, dice]), BackgammonError),
        "rows_mismatch_fewer_dice": (boards, dice[:2], BackgammonError),
    }


BAD_SHAPES = _bad_shapes()


@pytest.mark.parametrize("name", sorted(BAD_SHAPES))
def test_batch_bad_shapes(name):
    boards, dice, exc = BAD_SHAPES[name]
    expect(exc, bg.batch_successors, boards, dice)
    engine_still_works()


def test_batch_empty():
    # beyond the contract: an empty batch is not an error, it has no rows
    results, offsets = bg.batch_successors(np.zeros((0, 26), np.int8), np.zeros((0, 2), np.int64))
    assert np.asarray(results).shape == (0, 26)
    assert np.asarray(offsets).tolist() == [0]


def test_batch_accepts_non_contiguous_and_big_endian():
    boards, dice = _batch(6)
    ref_r, ref_o = bg.batch_successors(boards, dice)
    wide = np.repeat(boards.astype(np.int64), 2, axis=1)[:, ::2]        # strided columns
    r, o = bg.batch_successors(wide, np.repeat(dice, 2, axis=0)[::2])   # strided rows
    assert np.array_equal(r, ref_r) and np.array_equal(o, ref_o)
    # dice in the other order: the same roll, so the same set of results per row
    r, o = bg.batch_successors(boards, dice[:, ::-1])
    assert np.array_equal(o, ref_o)
    for i in range(len(boards)):
        assert (sorted(map(tuple, r[o[i]:o[i + 1]].tolist()))
                == sorted(map(tuple, ref_r[ref_o[i]:ref_o[i + 1]].tolist())))
    r, o = bg.batch_successors(boards.astype(">i4"), dice.astype(">i2"))
    assert np.array_equal(r, ref_r) and np.array_equal(o, ref_o)
    r, o = bg.batch_successors(np.asfortranarray(boards), np.asfortranarray(dice))
    assert np.array_equal(r, ref_r) and np.array_equal(o, ref_o)


# ---------------------------------------------------------------------------------------------
# perft
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("depth", [-1, -2, -10 ** 9, -2 ** 70])
def test_perft_negative_depth(depth):
    # The contract names no class; any of ours (not a bare ValueError) is required.
    expect(BackgammonError, bg.perft, Position.initial(), depth)


@pytest.mark.parametrize("depth", [1.5, "1", None])
def test_perft_depth_not_integer(depth):
    expect(BackgammonError, bg.perft, Position.initial(), depth)


@pytest.mark.parametrize("rolls", [0, 1, 6, 20, 22, 35, 37, 42, -21, "21", None, (21,)])
def test_perft_bad_rolls(rolls):
    expect(BackgammonError, bg.perft, Position.initial(), 1, rolls=rolls)
    expect(BackgammonError, bg.perft, Position.initial(), 1, rolls)


def test_perft_huge_depth_on_finished_game():
    # A finished game is a leaf at any depth; a depth beyond a C int must be ours to refuse
    # (or answered), never an OverflowError. (On a finished game this cannot run for long.)
    pos = Position.from_array(GAME_OVER["opponent_done"])
    for depth in (2 ** 31, 2 ** 63, 2 ** 70):
        try:
            assert bg.perft(pos, depth) == 1
        except BackgammonError:
            pass


def test_perft_depth_zero():
    assert bg.perft(Position.initial(), 0) == 1
    assert bg.perft(Position.initial(), 0, rolls=36) == 1


# ---------------------------------------------------------------------------------------------
# After all of that, the engine and the shared positions are intact
# ---------------------------------------------------------------------------------------------

def test_errors_leave_positions_unchanged():
    pos = Position.initial()
    snap = snapshot(pos)
    attempts = [
        lambda: pos.legal_plays((0, 3)),
        lambda: pos.legal_plays("71"),
        lambda: pos.successors(None),
        lambda: pos.legal_moves((3, 1), [(8, 4)]),
        lambda: pos.play([(8, 5)], dice=(3, 1)),
        lambda: pos.play([(7, 4), (6, 5)]),
        lambda: bg.perft(pos, -1),
        lambda: bg.perft(pos, 1, rolls=20),
        lambda: bg.batch_successors(np.stack([pos.to_array()]), [(7, 1)]),
    ]
    for attempt in attempts:
        with pytest.raises(BackgammonError):
            attempt()
        assert_unchanged(pos, snap)
    assert pos == Position.initial()
    engine_still_works()


# ----------------------------------------------------------------------
# Issue 9: every public entry point bounds what it reads.  One test per class:
# integers past Python's digit limit, endless iterables, arrays checked at the
# boundary, sizes past what can run, wrong types for plain parameters.

import itertools

from backgammon import pubeval
from backgammon.errors import InvalidPlayError, RolloutError

HUGE = 10 ** 5000  # str() of it raises ValueError (Python's int-digit limit)


@pytest.mark.parametrize("name, call, exc", [
    ("position value", lambda: Position([HUGE] + [0] * 25), InvalidPositionError),
    ("gnubg board count", lambda: Position.from_gnubg_board([[HUGE] * 25] * 2),
     InvalidPositionError),
    ("die", lambda: Position.initial().legal_plays((HUGE, 1)), InvalidDiceError),
    ("step", lambda: Position.initial().legal_moves((3, 1), [(HUGE, 1)]), IllegalPlayError),
    ("repeat count", lambda: Position.initial().parse_play("8/5(" + "9" * 4301 + ")", (3, 1)),
     InvalidPlayError),
    ("rollout games", lambda: bg.rollout(Position.initial(), games=HUGE), RolloutError),
    ("rollout seed", lambda: bg.rollout(Position.initial(), seed=HUGE), RolloutError),
    ("perft depth", lambda: bg.perft(Position.initial(), HUGE), BackgammonError),
    ("perft rolls", lambda: bg.perft(Position.initial(), 1, rolls=HUGE), BackgammonError),
])
def test_integers_past_the_digit_limit_raise_our_errors(name, call, exc):
    with pytest.raises(exc) as info:
        call()
    assert len(str(info.value)) < 2000  # and the message stays readable


@pytest.mark.parametrize("name, call, exc", [
    ("Position", lambda: Position(itertools.repeat(0)), InvalidPositionError),
    ("Position.from_array", lambda: Position.from_array(itertools.count()), InvalidPositionError),
    ("from_gnubg_board outer", lambda: Position.from_gnubg_board(itertools.repeat([0] * 25)),
     InvalidPositionError),
    ("from_gnubg_board inner", lambda: Position.from_gnubg_board([itertools.repeat(0)] * 2),
     InvalidPositionError),
    ("legal_moves", lambda: Position.initial().legal_moves((3, 1), itertools.repeat((8, 5))),
     IllegalPlayError),
    ("play", lambda: Position.initial().play(itertools.repeat((8, 5))), IllegalPlayError),
    ("Play", lambda: bg.Play(Position.initial(), itertools.repeat((8, 5))), IllegalPlayError),
    ("dice", lambda: Position.initial().legal_plays(itertools.repeat(3)), InvalidDiceError),
    ("rollout position", lambda: bg.rollout(itertools.repeat(1)), InvalidPositionError),
    ("format_play", lambda: bg.notation.format_play(INITIAL, itertools.repeat((8, 5))),
     IllegalPlayError),
    ("play_chains", lambda: bg.notation.play_chains(itertools.repeat((8, 5))), IllegalPlayError),
])
def test_endless_iterables_fail_at_once(name, call, exc):
    with pytest.raises(exc):
        call()


@pytest.mark.parametrize("name, boards", [
    ("int64 261 would wrap to 5", np.array([list(INITIAL[:25]) + [261]], dtype=np.int64)),
    ("floats would be truncated", np.array([INITIAL], dtype=np.float64) + 0.5),
    ("an empty board", np.zeros((1, 26), dtype=np.int8)),
    ("a 3-D array would be reshaped", np.array([[INITIAL, INITIAL]])),
    ("one board, not a batch", np.array(INITIAL)),
    ("26 columns short", np.zeros((2, 25), dtype=np.int8)),
    ("ragged rows", [[0] * 26, [0] * 3]),
    ("text", "4HPwATDgc/ABMA"),
    ("bools", np.ones((1, 26), dtype=bool)),
    ("too many checkers", np.array([[15] * 26], dtype=np.int8)),
])
def test_pubeval_scores_validates_arrays_at_the_boundary(name, boards):
    with pytest.raises(InvalidPositionError):
        pubeval.scores(boards)


def test_pubeval_scores_accepts_every_integer_dtype_and_an_empty_batch():
    want = pubeval.score(Position.initial())
    for dtype in (np.int8, np.int16, np.int32, np.int64):
        assert pubeval.scores(np.array([INITIAL], dtype=dtype)).tolist() == [want]
    assert pubeval.scores(np.zeros((0, 26), dtype=np.int8)).shape == (0,)


@pytest.mark.parametrize("call", [
    lambda: pubeval.score("4HPwATDgc/ABMA"),
    lambda: pubeval.is_race(list(INITIAL)),
    lambda: pubeval.best_play(None, (3, 1)),
    lambda: pubeval.scores(np.array([INITIAL]), race=np.array([1, 0])),
])
def test_pubeval_wrong_types_raise_type_error(call):
    with pytest.raises(TypeError):
        call()


@pytest.mark.parametrize("name, call, exc", [
    ("rollout games 2**63", lambda: bg.rollout(Position.initial(), games=2 ** 63), RolloutError),
    ("rollout workers", lambda: bg.rollout(Position.initial(), games=10, workers=10 ** 6),
     RolloutError),
    ("rollout in_flight", lambda: bg.rollout(Position.initial(), games=10, in_flight=2 ** 40),
     RolloutError),
    ("rollout chunk_games", lambda: bg.rollout(Position.initial(), games=10, chunk_games=2 ** 63),
     RolloutError),
    ("perft rolls array", lambda: bg.perft(Position.initial(), 1, rolls=np.array([21, 36])),
     BackgammonError),
    ("perft rolls bool", lambda: bg.perft(Position.initial(), 1, rolls=True), BackgammonError),
    ("perft depth float", lambda: bg.perft(Position.initial(), 2.0), BackgammonError),
    ("notation of a megabyte", lambda: Position.initial().parse_play("8/5 " * 250_000, (3, 1)),
     InvalidPlayError),
    ("notation not text", lambda: Position.initial().parse_play(b"8/5 6/5", (3, 1)),
     InvalidPlayError),
])
def test_sizes_and_plain_parameters_are_checked(name, call, exc):
    with pytest.raises(exc):
        call()


@pytest.mark.parametrize("last_play", [
    object(), "24/18 13/11", (24, 18), type("FakePlay", (), {"moves": ((24, 18),)})()])
def test_svg_last_play_must_be_a_play(last_play):
    from backgammon.display import svg

    with pytest.raises(IllegalPlayError, match="last_play is a Play"):
        svg.board(Position.initial(), last_play=last_play)


def test_shown_never_raises():
    from backgammon._show import shown

    class Broken:
        def __repr__(self):
            raise RuntimeError("no repr")

    import sys

    if getattr(sys, "get_int_max_str_digits", lambda: 0)():  # Python's digit limit is on
        assert shown(HUGE).startswith("<an integer of more than")
        assert "too long to print" in shown([1, HUGE])
    assert len(shown(HUGE)) <= 203
    assert shown(Broken()) == "<a Broken>"
    assert shown("x" * 1000, 10) == "'xxxxxxxxx..."
