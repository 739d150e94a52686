# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled core of ``backgammon``: thin wrappers over ``movegen.h``.

Private: users import :mod:`backgammon`.  Boards cross this boundary as
26-byte ``bytes`` objects (two's-complement int8, the public board
convention) or as ``int8`` numpy arrays.  Errors are raised here, with the
exception classes of :mod:`backgammon.errors`.
"""
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.pycapsule cimport PyCapsule_New, PyCapsule_GetPointer
from libc.stdint cimport int8_t, int16_t, uint8_t, int64_t
from libc.stdlib cimport free
from libc.string cimport memcpy, memset, memcmp

cimport numpy as cnp
import numpy as np

from backgammon.errors import GameOverError, InvalidDiceError, InvalidPositionError

from movegen cimport *

cnp.import_array()

NPTS = BG_NPTS

# One generator, reused by the calls that keep the GIL (they are short).  A
# call that finds it busy (re-entered from a finaliser run by the garbage
# collector, or from another thread while this one waits inside an
# allocation) takes a fresh one.  Calls that release the GIL take their own.
cdef bg_gen *_G = bg_gen_new()
cdef bint _G_busy = False
if _G == NULL:
    raise MemoryError()


cdef bg_gen *_acquire() except NULL:
    global _G_busy
    cdef bg_gen *g
    if not _G_busy:
        _G_busy = True
        g = _G
        g.out.n = 0
        g.want_moves = 0
        return g
    g = bg_gen_new()
    if g == NULL:
        raise MemoryError()
    return g


cdef void _release(bg_gen *g) noexcept:
    global _G_busy
    if g == _G:
        _G.want_moves = 0
        _G_busy = False
    else:
        bg_gen_free(g)

_VALIDATION_MESSAGES = {
    BG_E_OWN_BAR: "the on-roll player's bar a[25] must be >= 0",
    BG_E_OPP_BAR: "the opponent's bar a[0] must be <= 0",
    BG_E_OWN_COUNT: "the on-roll player has more than 15 checkers",
    BG_E_OPP_COUNT: "the opponent has more than 15 checkers",
    BG_E_RANGE: "a point holds more than 15 checkers",
}


def validation_error(int code):
    """The message for a nonzero code of :func:`validate`, or None."""
    return _VALIDATION_MESSAGES.get(code)


cdef inline const int8_t *_board_ptr(bytes board) except NULL:
    """The bytes of a valid board: the core never sees a malformed one."""
    cdef const int8_t *b
    cdef int code
    if len(board) != BG_NPTS:
        raise InvalidPositionError(f"a board has {BG_NPTS} bytes, got {len(board)}")
    b = <const int8_t *>PyBytes_AS_STRING(board)
    code = bg_validate(b)
    if code != BG_OK:
        raise InvalidPositionError(f"{_VALIDATION_MESSAGES[code]}: {list(board)}")
    return b


def validate(bytes board):
    """0 if the 26-byte board is valid, else an error code (see validation_error)."""
    if len(board) != BG_NPTS:
        raise InvalidPositionError(f"a board has {BG_NPTS} bytes, got {len(board)}")
    return bg_validate(<const int8_t *>PyBytes_AS_STRING(board))


def sides(bytes board):
    """0 while both sides have checkers; bit 1: the mover has none, bit 2: the opponent."""
    return bg_sides(_board_ptr(board))


cdef int _die(object x, object dice) except -1:
    cdef long v
    try:
        v = x.__index__()
    except (AttributeError, TypeError, OverflowError):
        raise InvalidDiceError(f"dice must be two integers from 1 to 6, got {dice!r}") from None
    if v < 1 or v > 6:
        raise InvalidDiceError(f"dice must be two integers from 1 to 6, got {dice!r}")
    return <int>v


cdef int _parse_dice(object dice, int *d1, int *d2) except -1:
    if isinstance(dice, (str, bytes)):
        raise InvalidDiceError(f"dice must be two integers from 1 to 6, got {dice!r}")
    try:
        a, b = dice
    except (TypeError, ValueError):
        raise InvalidDiceError(f"dice must be two integers from 1 to 6, got {dice!r}") from None
    d1[0] = _die(a, dice)
    d2[0] = _die(b, dice)
    return 0


def parse_dice(dice):
    """``(d1, d2)`` as plain ints, order kept; InvalidDiceError if not two dice."""
    cdef int d1, d2
    _parse_dice(dice, &d1, &d2)
    return d1, d2


cdef int _check_playing(const int8_t *b) except -1:
    cdef int s = bg_sides(b)
    if s != BG_BOTH_PLAYING:
        who = "both sides have" if s == BG_BOTH_DONE else (
            "the player on roll has" if s == BG_OWN_DONE else "the opponent has")
        raise GameOverError(f"the game is over: {who} borne off all checkers")
    return 0


cdef object _rows(bg_gen *g, int64_t start, int64_t n):
    cdef cnp.npy_intp dims[2]
    dims[0] = n
    dims[1] = BG_NPTS
    arr = cnp.PyArray_SimpleNew(2, dims, cnp.NPY_INT8)
    if n:
        memcpy(cnp.PyArray_DATA(arr), g.out.pos + start * BG_NPTS, n * BG_NPTS)
    return arr


def successors(bytes board, dice):
    """The distinct resulting boards of a roll, an ``int8`` array ``(n, 26)``."""
    cdef const int8_t *b = _board_ptr(board)
    cdef int d1, d2
    cdef int64_t n
    cdef bg_gen *g
    _parse_dice(dice, &d1, &d2)
    _check_playing(b)
    g = _acquire()
    try:
        n = bg_generate(g, b, d1, d2)
        if n < 0:
            raise MemoryError()
        return _rows(g, 0, n)
    finally:
        _release(g)


def plays(bytes board, int d1, int d2):
    """``(results, moves, ndice)``: boards ``(n, 26)``, steps ``(n, 8)`` uint8
    as (from, to) pairs, and the number of dice every play uses.  The dice
    must already be valid."""
    cdef const int8_t *b = _board_ptr(board)
    cdef int64_t n
    cdef cnp.npy_intp dims[2]
    cdef bg_gen *g
    if d1 < 1 or d1 > 6 or d2 < 1 or d2 > 6:
        raise InvalidDiceError(f"dice must be two integers from 1 to 6, got {(d1, d2)!r}")
    _check_playing(b)
    g = _acquire()
    try:
        g.want_moves = 1
        n = bg_generate(g, b, d1, d2)
        if n < 0:
            raise MemoryError()
        results = _rows(g, 0, n)
        dims[0] = n
        dims[1] = 8
        moves = cnp.PyArray_SimpleNew(2, dims, cnp.NPY_UINT8)
        memcpy(cnp.PyArray_DATA(moves), g.out.moves, n * 8)
        return results, moves, g.depth
    finally:
        _release(g)


def reach(bytes board, int die, int k):
    """The boards reachable by exactly ``k`` steps of ``die`` (no maximal rule),
    as a list of bytes."""
    cdef const int8_t *b = _board_ptr(board)
    cdef int64_t n, i
    cdef bg_gen *g
    if die < 1 or die > 6 or k < 0 or k > 4:
        raise InvalidDiceError(f"reach needs a die 1..6 and 0..4 steps, got {die}, {k}")
    g = _acquire()
    try:
        n = bg_reach(g, b, die, k)
        if n < 0:
            raise MemoryError()
        return [PyBytes_FromStringAndSize(<char *>(g.out.pos + i * BG_NPTS), BG_NPTS)
                for i in range(n)]
    finally:
        _release(g)


def step(bytes board, int src, int die):
    """The board after one checker step from ``src`` (25 = bar) with ``die``,
    or None when that step is not legal by itself."""
    cdef const int8_t *b = _board_ptr(board)
    cdef int8_t out[26]
    if bg_step(b, src, die, out) < 0:
        return None
    return PyBytes_FromStringAndSize(<char *>out, BG_NPTS)


def swapped(bytes board):
    """The same board seen by the other player."""
    cdef int8_t out[26]
    bg_swap(_board_ptr(board), out)
    return PyBytes_FromStringAndSize(<char *>out, BG_NPTS)


def perft(bytes board, int depth, bint rolls36):
    """Leaves of the play tree of ``depth`` plies (see backgammon.perft)."""
    cdef const int8_t *b = _board_ptr(board)
    cdef bg_gen *g
    cdef int64_t r
    if depth < 0:
        raise ValueError("depth must be >= 0")
    g = bg_gen_new()
    if g == NULL:
        raise MemoryError()
    with nogil:
        r = bg_perft_rec(g, b, depth, rolls36)
    bg_gen_free(g)
    if r < 0:
        raise MemoryError()
    return r


cdef void _free_capsule(object cap) noexcept:
    free(PyCapsule_GetPointer(cap, NULL))


def batch_successors(const int8_t[:, ::1] boards, const uint8_t[:, ::1] dice):
    """Core of :func:`backgammon.batch_successors` on checked-shape arrays.

    Returns ``(results, offsets)``, or raises naming the first bad row
    (validated in the same pass that generates, without the GIL).
    """
    cdef int64_t m = boards.shape[0], i, bad = -1, n, r = 0
    cdef bg_gen *g
    cdef cnp.npy_intp dims[2]
    cdef cnp.npy_intp odims[1]
    cdef int64_t *off
    if boards.shape[1] != BG_NPTS or dice.shape[1] != 2 or dice.shape[0] != m:
        raise InvalidPositionError("boards must be (m, 26) and dice (m, 2)")
    odims[0] = m + 1
    offsets = cnp.PyArray_SimpleNew(1, odims, cnp.NPY_INT64)
    off = <int64_t *>cnp.PyArray_DATA(offsets)
    g = bg_gen_new()
    if g == NULL:
        raise MemoryError()
    with nogil:
        if bg_buf_reserve(&g.out, m * 16 + 16) < 0:
            r = -1
        else:
            for i in range(m):
                off[i] = g.out.n
                r = bg_generate_row(g, &boards[i, 0], dice[i, 0], dice[i, 1])
                if r < 0:
                    bad = i
                    break
            off[m] = g.out.n
    if r < 0:
        bg_gen_free(g)
        if r == -1:
            raise MemoryError()
        _raise_bad_row(bad, <int>(-r - 100), boards, dice)
    n = g.out.n
    dims[0] = n
    dims[1] = BG_NPTS
    results = cnp.PyArray_SimpleNewFromData(2, dims, cnp.NPY_INT8, g.out.pos)
    cnp.set_array_base(results, PyCapsule_New(g.out.pos, NULL, _free_capsule))
    g.out.pos = NULL
    bg_gen_free(g)
    return results, offsets


cdef _raise_bad_row(int64_t row, int code, const int8_t[:, ::1] boards, const uint8_t[:, ::1] dice):
    board = np.asarray(boards[row]).tolist()
    if code == BG_E_DICE:
        raise InvalidDiceError(
            f"row {row}: dice must be two integers from 1 to 6, got {np.asarray(dice[row]).tolist()}")
    if code == BG_E_GAME_OVER:
        raise GameOverError(f"row {row}: the game is over, a side has no checkers: {board}")
    raise InvalidPositionError(f"row {row}: {_VALIDATION_MESSAGES[code]}: {board}")


# ----------------------------------------------------------------------
# pubeval and playouts (playout.h)

from playout cimport *
from libc.stdlib cimport malloc, calloc

cdef bg_pubeval _PE


def set_pubeval_weights(race, contact):
    """Installs pubeval's two weight vectors (122 numbers each); done once
    by :mod:`backgammon.pubeval` at import."""
    cdef double w[122]
    cdef int i, k
    for k, vector in ((1, race), (0, contact)):
        if len(vector) != 122:
            raise ValueError(f"pubeval has 122 weights, got {len(vector)}")
        for i in range(122):
            w[i] = float(vector[i])
        bg_pubeval_set(&_PE, k, w)
    _PE.ready = 1


cdef int _need_pubeval() except -1:
    if not _PE.ready:
        raise RuntimeError("pubeval weights are not installed (import backgammon.pubeval)")
    return 0


def is_race(bytes board):
    """PUBEVAL.md 5: whether the positive side's checkers have all passed the other's."""
    return bool(bg_is_race(_board_ptr(board)))


def pubeval_scores(const int8_t[:, ::1] boards, int race):
    """pubeval scores of boards for their positive side; race 1/0, or -1 to
    decide it from each board itself.  Boards are validated."""
    cdef int64_t m = boards.shape[0], i
    cdef int code, flag
    cdef cnp.npy_intp dims[1]
    _need_pubeval()
    if boards.shape[1] != BG_NPTS:
        raise InvalidPositionError(f"boards must have shape (m, 26), got {tuple(boards.shape)}")
    for i in range(m):
        code = bg_validate(&boards[i, 0])
        if code != BG_OK:
            raise InvalidPositionError(
                f"row {i}: {_VALIDATION_MESSAGES[code]}: {np.asarray(boards[i]).tolist()}")
    dims[0] = m
    out = cnp.PyArray_SimpleNew(1, dims, cnp.NPY_FLOAT64)
    cdef double *o = <double *>cnp.PyArray_DATA(out)
    with nogil:
        for i in range(m):
            flag = race if race >= 0 else bg_is_race(&boards[i, 0])
            o[i] = bg_pubeval_score(&_PE, &boards[i, 0], flag)
    return out


def _stats_array():
    return np.zeros((BG_STRATA, BG_ST_FIELDS), dtype=np.int64)


def playout(bytes board, uint64_t seed, int64_t first_game, int64_t ngames,
            int policy, bint stratify, Nets nets=None):
    """Statistics ``(1296, 9)`` int64 of games first_game.. of a rollout with a
    built-in policy (0 random, 1 pubeval, 2 the net ``nets``); the GIL is
    released."""
    cdef const int8_t *b = _board_ptr(board)
    cdef int r
    cdef int64_t[:, ::1] stats
    cdef const bg_evaluator *ev = NULL
    _check_playing(b)
    if policy == BG_POLICY_PUBEVAL:
        _need_pubeval()
    elif policy == BG_POLICY_NET:
        if nets is None:
            raise ValueError("the net policy needs nets")
        ev = &nets.ev
    elif policy != BG_POLICY_RANDOM:
        raise ValueError(f"unknown policy code {policy}")
    if ngames < 0 or first_game < 0:
        raise ValueError("game numbers must be >= 0")
    out = _stats_array()
    stats = out
    with nogil:
        r = bg_playout_range(b, seed, first_game, ngames, policy, &_PE, stratify, &stats[0, 0], ev)
    if r == -1:
        raise MemoryError()
    if r == BG_E_TOO_LONG:
        raise RuntimeError(f"a game passed {BG_MAX_PLIES} plies")
    return out


def playout_batched(bytes board, uint64_t seed, int64_t first_game, int64_t ngames,
                    bint stratify, evaluate, int64_t in_flight):
    """Like :func:`playout` with a Python policy: games advance in lockstep,
    ``in_flight`` at a time, and ``evaluate(candidates)`` is called once per
    ply with the ``(m, 26)`` int8 candidates of every game that has a choice;
    it must return ``m`` finite float64 scores (checked by the caller's
    ``evaluate``).  The highest score wins; ties go to the first play."""
    cdef const int8_t *b = _board_ptr(board)
    cdef int64_t G, s, next_game, active, total, j, n, pick, row
    cdef int d1, d2, points
    cdef bg_gen *g
    cdef int64_t[:, ::1] stats
    cdef int8_t *boards = NULL
    cdef int64_t *game = NULL
    cdef int64_t *ply = NULL
    cdef int64_t *cstart = NULL
    cdef int64_t *ccount = NULL
    cdef int *stratum = NULL
    cdef bg_rng *rng = NULL
    cdef double *sc
    cdef double best
    cdef cnp.npy_intp dims[2]
    _check_playing(b)
    if ngames < 0 or first_game < 0 or in_flight < 1:
        raise ValueError("game numbers must be >= 0 and in_flight >= 1")
    out = _stats_array()
    stats = out
    G = min(in_flight, ngames)
    if G == 0:
        return out
    g = bg_gen_new()
    boards = <int8_t *>malloc(G * BG_NPTS)
    game = <int64_t *>malloc(G * sizeof(int64_t))
    ply = <int64_t *>malloc(G * sizeof(int64_t))
    cstart = <int64_t *>malloc(G * sizeof(int64_t))
    ccount = <int64_t *>malloc(G * sizeof(int64_t))
    stratum = <int *>malloc(G * sizeof(int))
    rng = <bg_rng *>malloc(G * sizeof(bg_rng))
    try:
        if (g == NULL or boards == NULL or game == NULL or ply == NULL or cstart == NULL
                or ccount == NULL or stratum == NULL or rng == NULL):
            raise MemoryError()
        next_game = first_game
        for s in range(G):
            memcpy(boards + s * BG_NPTS, b, BG_NPTS)
            game[s] = next_game
            ply[s] = 0
            bg_rng_seed(&rng[s], seed, <uint64_t>next_game)
            next_game += 1
        active = G
        while active:
            # roll and generate for every game in flight
            g.out.n = 0
            total = 0
            for s in range(G):
                if game[s] < 0:
                    ccount[s] = 0
                    continue
                bg_game_roll(&rng[s], game[s], ply[s], stratify, &d1, &d2)
                if ply[s] == 0:
                    stratum[s] = 36 * ((d1 - 1) * 6 + (d2 - 1))
                elif ply[s] == 1:
                    stratum[s] += (d1 - 1) * 6 + (d2 - 1)
                cstart[s] = g.out.n
                n = bg_generate(g, boards + s * BG_NPTS, d1, d2)
                if n < 0:
                    raise MemoryError()
                ccount[s] = n
                if n > 1:
                    total += n
            # one call for every candidate of every game that has a choice
            sc = NULL
            if total:
                dims[0] = total
                dims[1] = BG_NPTS
                cands = cnp.PyArray_SimpleNew(2, dims, cnp.NPY_INT8)
                row = 0
                for s in range(G):
                    if ccount[s] > 1:
                        memcpy(<int8_t *>cnp.PyArray_DATA(cands) + row * BG_NPTS,
                               g.out.pos + cstart[s] * BG_NPTS, ccount[s] * BG_NPTS)
                        row += ccount[s]
                scores = evaluate(cands)
                if (not isinstance(scores, np.ndarray) or scores.dtype != np.float64
                        or scores.ndim != 1 or scores.shape[0] != total
                        or not scores.flags.c_contiguous):
                    raise ValueError(f"evaluate must give {total} float64 scores in a 1-D array")
                sc = <double *>cnp.PyArray_DATA(scores)
            # apply the choices
            row = 0
            for s in range(G):
                if game[s] < 0:
                    continue
                pick = 0
                if ccount[s] > 1:
                    best = sc[row]
                    for j in range(1, ccount[s]):
                        if sc[row + j] > best:
                            best = sc[row + j]
                            pick = j
                    row += ccount[s]
                res = g.out.pos + (cstart[s] + pick) * BG_NPTS
                points = bg_finished(res)
                if points:
                    if ply[s] & 1:
                        points = -points
                    bg_record(&stats[0, 0], stratum[s], points, ply[s] + 1)
                    if next_game < first_game + ngames:
                        memcpy(boards + s * BG_NPTS, b, BG_NPTS)
                        game[s] = next_game
                        ply[s] = 0
                        bg_rng_seed(&rng[s], seed, <uint64_t>next_game)
                        next_game += 1
                    else:
                        game[s] = -1
                        active -= 1
                else:
                    bg_swap(res, boards + s * BG_NPTS)
                    ply[s] += 1
                    if ply[s] >= BG_MAX_PLIES:
                        raise RuntimeError(f"a game passed {BG_MAX_PLIES} plies")
    finally:
        bg_gen_free(g)
        free(boards)
        free(game)
        free(ply)
        free(cstart)
        free(ccount)
        free(stratum)
        free(rng)
    return out


def pubeval_choice(bytes board, dice):
    """The index, in successors order, of the play the playout loop's pubeval
    policy picks for this roll (the same code path as rollouts)."""
    cdef const int8_t *b = _board_ptr(board)
    cdef int d1, d2
    cdef int64_t n, pick
    cdef bg_gen *g
    cdef bg_rng r
    _parse_dice(dice, &d1, &d2)
    _check_playing(b)
    _need_pubeval()
    g = _acquire()
    try:
        n = bg_generate(g, b, d1, d2)
        if n < 0:
            raise MemoryError()
        pick = bg_choose(g, n, b, BG_POLICY_PUBEVAL, &_PE, &r)
        return pick
    finally:
        _release(g)


# ----------------------------------------------------------------------
# The neural evaluator (nn.h), TD self-play (train.h) and duels (playout.h)

from nn cimport *

NN_INPUTS = BG_NN_NIN
NN_OUTPUTS = BG_NN_NOUT
NN_MAX_HIDDEN = BG_NN_MAXH
NN_ENCODING = BG_NN_ENCODING
# AVX2 kernels when the CPU has them (results are identical either way);
# BACKGAMMON_NO_AVX2=1 keeps the baseline ones.
import os as _os
NN_AVX2 = bool(bg_nn_init_cpu(_os.environ.get("BACKGAMMON_NO_AVX2") != "1"))


def nn_use_avx2(bint allow):
    """Switches the AVX2 kernels on (when the CPU has them) or off; for tests
    and benchmarks, not while other threads evaluate.  Returns the state."""
    global NN_AVX2
    NN_AVX2 = bool(bg_nn_init_cpu(allow))
    return NN_AVX2


from bearoff cimport bg_bearoff, bg_bearoff_applies, bg_bearoff_probs


cdef int _bearoff_exact(const void *ctx, const int8_t *b, float *out) noexcept nogil:
    """bg_exact_fn of the nets: the bear-off database's exact chances."""
    if bg_bearoff_applies(b):
        bg_bearoff_probs(<const bg_bearoff *>ctx, b, out)
        return 1
    return 0


cdef class Nets:
    """The contact and race nets over padded float32 arrays.

    ``arrays`` is ``(w1, b1, w2, b2)`` of the contact net then of the race
    net: ``w1`` ``(204, hpad)`` input-major, ``b1`` ``(hpad,)``, ``w2``
    ``(5, hpad)``, ``b2`` ``(5,)``, hpad a multiple of 8 whose columns past
    ``hidden[c]`` are zero.  The core reads (and training writes) the arrays
    in place, so they are kept here.  Evaluation only reads: one Nets may
    serve any number of threads at once; training needs its own copy.
    """
    cdef bg_nn nn
    cdef bg_evaluator ev
    cdef bg_mlp_rw rw[2]
    cdef readonly tuple arrays
    cdef readonly tuple hidden

    def __init__(self, arrays, hidden):
        cdef float[:, ::1] w1, w2
        cdef float[::1] b1, b2
        cdef int c, hpad
        arrays = tuple(arrays)
        hidden = tuple(int(h) for h in hidden)
        if len(arrays) != 8 or len(hidden) != 2:
            raise ValueError("Nets needs 8 arrays and 2 hidden sizes")
        for c in range(2):
            w1 = arrays[4 * c]
            b1 = arrays[4 * c + 1]
            w2 = arrays[4 * c + 2]
            b2 = arrays[4 * c + 3]
            hpad = w1.shape[1]
            if (w1.shape[0] != BG_NN_NIN or hpad % 8 or hpad > BG_NN_MAXH or hpad < 8
                    or b1.shape[0] != hpad or w2.shape[0] != BG_NN_NOUT or w2.shape[1] != hpad
                    or b2.shape[0] != BG_NN_NOUT or not 0 < hidden[c] <= hpad < hidden[c] + 8):
                raise ValueError("net arrays of the wrong shapes")
            self.nn.net[c].nin = BG_NN_NIN
            self.nn.net[c].nhid = hidden[c]
            self.nn.net[c].hpad = hpad
            self.nn.net[c].w1 = &w1[0, 0]
            self.nn.net[c].b1 = &b1[0]
            self.nn.net[c].w2 = &w2[0, 0]
            self.nn.net[c].b2 = &b2[0]
            self.rw[c].w1 = &w1[0, 0]
            self.rw[c].b1 = &b1[0]
            self.rw[c].w2 = &w2[0, 0]
            self.rw[c].b2 = &b2[0]
        self.arrays = arrays
        self.hidden = hidden
        self.ev.nn = &self.nn
        # positions the bear-off database covers get its exact chances, in
        # evaluation, move choice and as training targets
        self.ev.exact_ctx = _bearoff_db()
        self.ev.exact = _bearoff_exact

    def evaluate(self, const int8_t[:, ::1] boards):
        """The five probabilities ``(m, 5)`` float32 of each board for its
        player on roll, before rolling.  Rows are validated first; a finished
        board (one side has no checkers) gets its exact result."""
        cdef int64_t m = boards.shape[0], i
        cdef int code
        cdef cnp.npy_intp dims[2]
        cdef float *o
        if boards.shape[1] != BG_NPTS:
            raise InvalidPositionError(f"boards must have shape (m, 26), got {tuple(boards.shape)}")
        for i in range(m):
            code = bg_validate(&boards[i, 0])
            if code != BG_OK:
                raise InvalidPositionError(
                    f"row {i}: {_VALIDATION_MESSAGES[code]}: {np.asarray(boards[i]).tolist()}")
            if bg_sides(&boards[i, 0]) == BG_BOTH_DONE:
                raise GameOverError(f"row {i}: neither side has checkers: "
                                    f"{np.asarray(boards[i]).tolist()}")
        dims[0] = m
        dims[1] = BG_NN_NOUT
        out = cnp.PyArray_SimpleNew(2, dims, cnp.NPY_FLOAT32)
        o = <float *>cnp.PyArray_DATA(out)
        with nogil:
            for i in range(m):
                bg_eval(&self.ev, &boards[i, 0], o + i * BG_NN_NOUT)
        return out

    def choose(self, bytes before, const int8_t[:, ::1] cands):
        """``(pick, probs)``: the index of the play the net policy picks among
        the resulting boards ``cands`` (seen by the mover, who played from
        ``before``; the move choice of rollouts and duels), and ``(n, 5)``
        float32 probabilities of each for the opponent, then on roll."""
        cdef const int8_t *b = _board_ptr(before)
        cdef int64_t n = cands.shape[0], pick
        cdef cnp.npy_intp dims[2]
        cdef float *o
        if cands.shape[1] != BG_NPTS or n < 1:
            raise InvalidPositionError("candidates must be a non-empty (n, 26) array")
        dims[0] = n
        dims[1] = BG_NN_NOUT
        out = cnp.PyArray_SimpleNew(2, dims, cnp.NPY_FLOAT32)
        o = <float *>cnp.PyArray_DATA(out)
        with nogil:
            pick = bg_nn_choose(&self.ev, &cands[0, 0], n, b, o, NULL)
        return pick, out

    def choose_groups(self, const int8_t[:, ::1] befores, const int8_t[:, ::1] cands,
                      const int64_t[::1] offsets):
        """:meth:`choose` for many groups at once (as batch_successors gives
        them): group i's plays are ``cands[offsets[i]:offsets[i + 1]]``,
        played from ``befores[i]`` (rows already valid).  Returns ``(picks,
        probs)``: ``(m,)`` int64 absolute row indices and ``(n, 5)`` float32."""
        cdef int64_t m = befores.shape[0], n = cands.shape[0], i
        cdef cnp.npy_intp dims[2]
        cdef cnp.npy_intp pdims[1]
        cdef float *o
        cdef int64_t *pk
        if (befores.shape[1] != BG_NPTS or cands.shape[1] != BG_NPTS
                or offsets.shape[0] != m + 1):
            raise InvalidPositionError("befores (m, 26), cands (n, 26) and offsets (m + 1,) needed")
        if m and (offsets[0] != 0 or offsets[m] != n):
            raise InvalidPositionError("offsets must run from 0 to n")
        for i in range(m):
            if offsets[i + 1] <= offsets[i]:
                raise InvalidPositionError(f"group {i} has no plays")
            if bg_validate(&befores[i, 0]) != BG_OK:
                raise InvalidPositionError(f"row {i} of befores is not a valid board")
        dims[0] = n
        dims[1] = BG_NN_NOUT
        out = cnp.PyArray_SimpleNew(2, dims, cnp.NPY_FLOAT32)
        o = <float *>cnp.PyArray_DATA(out)
        pdims[0] = m
        picks = cnp.PyArray_SimpleNew(1, pdims, cnp.NPY_INT64)
        pk = <int64_t *>cnp.PyArray_DATA(picks)
        with nogil:
            for i in range(m):
                pk[i] = offsets[i] + bg_nn_choose(
                    &self.ev, &cands[offsets[i], 0], offsets[i + 1] - offsets[i],
                    &befores[i, 0], o + offsets[i] * BG_NN_NOUT, NULL)
        return picks, out

    def td_games(self, bytes start, uint64_t seed, int64_t first_game, int64_t ngames, float lr):
        """TD(0) self-play games first_game.. from ``start``, updating these
        nets in place (the GIL is released); returns the plies played."""
        cdef const int8_t *b = _board_ptr(start)
        cdef int64_t r
        _check_playing(b)
        if ngames < 0 or first_game < 0:
            raise ValueError("game numbers must be >= 0")
        with nogil:
            r = bg_td_games(&self.ev, self.rw, b, seed, first_game, ngames, lr)
        if r == -1:
            raise MemoryError()
        if r == BG_E_TOO_LONG:
            raise RuntimeError(f"a game passed {BG_MAX_PLIES} plies")
        return r


def nn_encode(bytes board):
    """The nonzero inputs of a board: ``(indices, values)``."""
    cdef const int8_t *b = _board_ptr(board)
    cdef int16_t idx[BG_NN_MAXNZ]
    cdef float val[BG_NN_MAXNZ]
    cdef int n = bg_nn_encode(b, idx, val), i
    return [idx[i] for i in range(n)], [val[i] for i in range(n)]


def nn_scan_agrees(bytes board):
    """Whether the vectorised board scan of nn.h equals the portable one."""
    cdef const int8_t *b = _board_ptr(board)
    cdef bg_nn_scan_t x, y
    memset(&x, 0, sizeof(x))
    memset(&y, 0, sizeof(y))
    bg_nn_scan(b, &x)
    bg_nn_scan_plain(b, &y)
    return memcmp(&x, &y, sizeof(x)) == 0


def nn_is_race(bytes board):
    return bool(bg_nn_is_race(_board_ptr(board)))


cdef int _player(int policy, Nets nets, bg_player *p) except -1:
    p.policy = policy
    p.ev = NULL
    if policy == BG_POLICY_NET:
        if nets is None:
            raise ValueError("the net policy needs nets")
        p.ev = &nets.ev
    elif policy == BG_POLICY_PUBEVAL:
        _need_pubeval()
    elif policy != BG_POLICY_RANDOM:
        raise ValueError(f"unknown policy code {policy}")
    return 0


def duel(bytes start, uint64_t seed, int64_t first_pair, int64_t npairs,
         int policy_a, Nets nets_a, int policy_b, Nets nets_b):
    """Statistics (11,) int64 of duplicate-dice pairs first_pair.. of a duel
    between built-in policies (see bg_duel_range); the GIL is released."""
    cdef const int8_t *b = _board_ptr(start)
    cdef bg_player pa, pb
    cdef int r
    cdef int64_t[::1] st
    _check_playing(b)
    _player(policy_a, nets_a, &pa)
    _player(policy_b, nets_b, &pb)
    if npairs < 0 or first_pair < 0:
        raise ValueError("pair numbers must be >= 0")
    out = np.zeros(BG_DU_FIELDS, dtype=np.int64)
    st = out
    with nogil:
        r = bg_duel_range(b, seed, first_pair, npairs, &pa, &pb, &_PE, &st[0])
    if r == -1:
        raise MemoryError()
    if r == BG_E_TOO_LONG:
        raise RuntimeError(f"a game passed {BG_MAX_PLIES} plies")
    return out


def duel_batched(bytes start, uint64_t seed, int64_t first_pair, int64_t npairs,
                 int policy_a, Nets nets_a, evaluate_a, int policy_b, Nets nets_b, evaluate_b,
                 int64_t in_flight):
    """:func:`duel` where either side may be a Python batch callable (code
    -1 with ``evaluate_*``; see :func:`playout_batched` for its contract):
    games advance in lockstep, ``in_flight`` at a time, and each callable is
    called once per ply with the candidates of every game where it moves and
    has a choice.  The dice and statistics are those of :func:`duel`."""
    cdef const int8_t *b = _board_ptr(start)
    cdef bg_player pl[2]
    cdef int64_t G, s, nxt, total_games, active, n, pick, j, k, side
    cdef int64_t row[2]
    cdef int64_t tot[2]
    cdef int d1, d2, points, pa, mover
    cdef bg_gen *g = NULL
    cdef bg_gen *g1 = NULL
    cdef int8_t *boards = NULL
    cdef int8_t *picked = NULL
    cdef int64_t *game = NULL
    cdef int64_t *ply = NULL
    cdef int64_t *cstart = NULL
    cdef int64_t *ccount = NULL
    cdef int64_t *chosen = NULL
    cdef int *who = NULL
    cdef int64_t *pair_sum = NULL
    cdef uint8_t *pair_done = NULL
    cdef bg_rng *rng = NULL
    cdef double *sc[2]
    cdef double best
    cdef cnp.npy_intp dims[2]
    cdef int64_t[::1] st
    evals = (evaluate_a, evaluate_b)
    _check_playing(b)
    if npairs < 0 or first_pair < 0 or in_flight < 1:
        raise ValueError("pair numbers must be >= 0 and in_flight >= 1")
    for side, code, nets in ((0, policy_a, nets_a), (1, policy_b, nets_b)):
        if code == -1:
            if evals[side] is None:
                raise ValueError("a callable side needs its evaluate")
            pl[side].policy = -1
            pl[side].ev = NULL
        else:
            _player(code, nets, &pl[side])
    out = np.zeros(BG_DU_FIELDS, dtype=np.int64)
    st = out
    total_games = 2 * npairs
    G = min(in_flight, total_games)
    if G == 0:
        return out
    g = bg_gen_new()
    g1 = bg_gen_new()
    boards = <int8_t *>malloc(G * BG_NPTS)
    picked = <int8_t *>malloc(G * 32)
    game = <int64_t *>malloc(G * sizeof(int64_t))
    ply = <int64_t *>malloc(G * sizeof(int64_t))
    cstart = <int64_t *>malloc(G * sizeof(int64_t))
    ccount = <int64_t *>malloc(G * sizeof(int64_t))
    chosen = <int64_t *>malloc(G * sizeof(int64_t))
    who = <int *>malloc(G * sizeof(int))
    rng = <bg_rng *>malloc(G * sizeof(bg_rng))
    pair_sum = <int64_t *>calloc(npairs, sizeof(int64_t))
    pair_done = <uint8_t *>calloc(npairs, 1)
    try:
        if (g == NULL or g1 == NULL or picked == NULL or boards == NULL or game == NULL or ply == NULL or cstart == NULL
                or ccount == NULL or chosen == NULL or who == NULL or rng == NULL
                or pair_sum == NULL or pair_done == NULL):
            raise MemoryError()
        nxt = 0          # games numbered 2 * pair + seat, pair counted from first_pair
        for s in range(G):
            memcpy(boards + s * BG_NPTS, b, BG_NPTS)
            game[s] = nxt
            ply[s] = 0
            bg_rng_seed(&rng[s], seed, <uint64_t>(first_pair + nxt // 2))
            nxt += 1
        active = G
        while active:
            g.out.n = 0
            tot[0] = tot[1] = 0
            for s in range(G):
                ccount[s] = 0
                if game[s] < 0:
                    continue
                bg_game_roll(&rng[s], first_pair + game[s] // 2, ply[s], 0, &d1, &d2)
                # seat 0: a moves at even plies; seat 1: b does
                mover = 0 if (ply[s] & 1) == (game[s] & 1) else 1
                who[s] = mover
                if pl[mover].policy != -1:
                    # a built-in side chooses at once, from its own buffer
                    g1.out.n = 0
                    n = bg_generate(g1, boards + s * BG_NPTS, d1, d2)
                    if n < 0:
                        raise MemoryError()
                    pick = bg_choose_ev(g1, n, boards + s * BG_NPTS, pl[mover].policy, &_PE,
                                        pl[mover].ev, &rng[s])
                    memcpy(picked + s * 32, g1.out.pos + pick * BG_NPTS, BG_NPTS)
                    chosen[s] = -2
                    continue
                cstart[s] = g.out.n
                n = bg_generate(g, boards + s * BG_NPTS, d1, d2)
                if n < 0:
                    raise MemoryError()
                ccount[s] = n
                chosen[s] = -1
                if n > 1:
                    tot[mover] += n
                else:
                    chosen[s] = 0
            keep = [None, None]
            for side in range(2):
                sc[side] = NULL
                if tot[side] == 0:
                    continue
                dims[0] = tot[side]
                dims[1] = BG_NPTS
                cands = cnp.PyArray_SimpleNew(2, dims, cnp.NPY_INT8)
                j = 0
                for s in range(G):
                    if game[s] >= 0 and who[s] == side and chosen[s] == -1:
                        memcpy(<int8_t *>cnp.PyArray_DATA(cands) + j * BG_NPTS,
                               g.out.pos + cstart[s] * BG_NPTS, ccount[s] * BG_NPTS)
                        j += ccount[s]
                scores = evals[side](cands)
                if (not isinstance(scores, np.ndarray) or scores.dtype != np.float64
                        or scores.ndim != 1 or scores.shape[0] != tot[side]
                        or not scores.flags.c_contiguous):
                    raise ValueError(f"evaluate must give {tot[side]} float64 scores in a 1-D array")
                keep[side] = scores
                sc[side] = <double *>cnp.PyArray_DATA(scores)
            row[0] = row[1] = 0
            for s in range(G):
                if game[s] < 0:
                    continue
                pick = chosen[s]
                if pick == -1:
                    side = who[s]
                    pick = 0
                    best = sc[side][row[side]]
                    for j in range(1, ccount[s]):
                        if sc[side][row[side] + j] > best:
                            best = sc[side][row[side] + j]
                            pick = j
                    row[side] += ccount[s]
                if pick == -2:
                    res = picked + s * 32
                else:
                    res = g.out.pos + (cstart[s] + pick) * BG_NPTS
                points = bg_finished(res)
                if points:
                    pa = points if who[s] == 0 else -points
                    st[BG_DU_GAMES] += 1
                    st[BG_DU_PLIES] += ply[s] + 1
                    st[BG_DU_SUM] += pa
                    if pa > 0:
                        st[BG_DU_A_WIN] += 1
                        if pa >= 2:
                            st[BG_DU_A_GAMMON] += 1
                        if pa >= 3:
                            st[BG_DU_A_BACKGAMMON] += 1
                    else:
                        st[BG_DU_B_WIN] += 1
                        if pa <= -2:
                            st[BG_DU_B_GAMMON] += 1
                        if pa <= -3:
                            st[BG_DU_B_BACKGAMMON] += 1
                    k = game[s] // 2
                    pair_sum[k] += pa
                    pair_done[k] += 1
                    if pair_done[k] == 2:
                        st[BG_DU_PAIRS] += 1
                        st[BG_DU_SUM_PAIR2] += pair_sum[k] * pair_sum[k]
                    if nxt < total_games:
                        memcpy(boards + s * BG_NPTS, b, BG_NPTS)
                        game[s] = nxt
                        ply[s] = 0
                        bg_rng_seed(&rng[s], seed, <uint64_t>(first_pair + nxt // 2))
                        nxt += 1
                    else:
                        game[s] = -1
                        active -= 1
                else:
                    bg_swap(res, boards + s * BG_NPTS)
                    ply[s] += 1
                    if ply[s] >= BG_MAX_PLIES:
                        raise RuntimeError(f"a game passed {BG_MAX_PLIES} plies")
    finally:
        bg_gen_free(g)
        bg_gen_free(g1)
        free(picked)
        free(boards)
        free(game)
        free(ply)
        free(cstart)
        free(ccount)
        free(chosen)
        free(who)
        free(rng)
        free(pair_sum)
        free(pair_done)
    return out
# The one-sided bear-off database (bearoff.h, issue 10)
#
# Built once, at first use, under a lock and with the GIL released (about
# 0.2 s); afterwards only read, so C code may use it from any thread without
# the GIL.  It lives as long as the module.  Other core code in this module
# gets the tables with `_bearoff_db()` and hands the pointer to C:
#
#     cdef const bg_bearoff *db = _bearoff_db()     # builds on first use; MemoryError
#     with nogil:
#         if bg_bearoff_applies(b):
#             bg_bearoff_probs(db, b, out)            # out: float[5], gnubg's outputs

from bearoff cimport *
import threading

cdef bg_bearoff _BO
cdef bint _BO_READY = False
_BO_LOCK = threading.Lock()


cdef const bg_bearoff *_bearoff_db() except NULL:
    """The built database (built here on first use, once, thread-safe)."""
    global _BO_READY
    cdef int r
    if not _BO_READY:
        with _BO_LOCK:
            if not _BO_READY:
                with nogil:
                    r = bg_bearoff_build(&_BO)
                if r != 0:
                    raise MemoryError("no memory for the bear-off database (14 MB)")
                _BO_READY = True
    return &_BO


BEAROFF_NPOS = BG_BO_NPOS
BEAROFF_TURNS = BG_BO_TURNS


cdef int _bearoff_home(bytes home, int8_t *h) except -1:
    """home: 6 bytes, checkers on points 1..6, each >= 0 and 15 at most in all."""
    cdef int i, total = 0
    if len(home) != 6:
        raise InvalidPositionError(f"a home board is 6 counts (points 1 to 6), got {len(home)}")
    for i in range(6):
        h[i] = <int8_t>(<unsigned char>home[i])
        if h[i] < 0:
            raise InvalidPositionError(f"a point holds 0 or more checkers: {list(home)}")
        total += h[i]
    if total > 15:
        raise InvalidPositionError(f"a side has at most 15 checkers, got {total}: {list(home)}")
    return 0


def bearoff_index(bytes home):
    """The database index (0..54263) of a one-sided home board (6 int8 bytes)."""
    cdef int8_t h[6]
    _bearoff_home(home, h)
    return bg_bearoff_index(h)


def bearoff_home(int index):
    """The home board (6 counts, points 1..6) of a database index."""
    cdef int8_t h[6]
    if index < 0 or index >= BG_BO_NPOS:
        raise InvalidPositionError(f"a bear-off index is 0 to {BG_BO_NPOS - 1}, got {index}")
    bg_bearoff_home(index, h)
    return tuple(h[i] for i in range(6))


def bearoff_turns(bytes home, bint first):
    """float32 (BEAROFF_TURNS,): P(all off, or with `first` the first checker
    off, in exactly t turns); a copy."""
    cdef int8_t h[6]
    cdef const bg_bearoff *db = _bearoff_db()
    _bearoff_home(home, h)
    cdef int i = bg_bearoff_index(h)
    cdef const float *row = (db.first if first else db.off) + <size_t>i * BG_BO_TURNS
    out = np.empty(BG_BO_TURNS, dtype=np.float32)
    cdef float[::1] o = out
    memcpy(&o[0], row, BG_BO_TURNS * sizeof(float))
    return out


def bearoff_mean(bytes home, bint first):
    """The expected turns to bear off all (or with `first` the first checker)."""
    cdef int8_t h[6]
    cdef const bg_bearoff *db = _bearoff_db()
    _bearoff_home(home, h)
    cdef int i = bg_bearoff_index(h)
    return float(db.mean_first[i] if first else db.mean[i])


def bearoff_applies(bytes board):
    """Whether the database answers this (validated) board: both sides have
    checkers, none on a bar, own on 1..6, opposing on 19..24."""
    return bool(bg_bearoff_applies(_board_ptr(board)))


def bearoff_probs(const int8_t[:, ::1] boards):
    """float32 (m, 5): gnubg's five outputs for the side on roll of each
    board, before rolling.  Every row is validated and must be a bear-off
    (raises InvalidPositionError naming the first that is not)."""
    cdef int64_t m = boards.shape[0], i
    cdef int code
    cdef const bg_bearoff *db = _bearoff_db()
    cdef cnp.npy_intp dims[2]
    if boards.shape[1] != BG_NPTS:
        raise InvalidPositionError(f"boards must have shape (m, 26), got {tuple(boards.shape)}")
    for i in range(m):
        code = bg_validate(&boards[i, 0])
        if code != BG_OK:
            raise InvalidPositionError(
                f"row {i}: {_VALIDATION_MESSAGES[code]}: {np.asarray(boards[i]).tolist()}")
        if not bg_bearoff_applies(&boards[i, 0]):
            raise InvalidPositionError(
                f"row {i}: not a bear-off (both sides need checkers, none on a bar, all "
                f"home): {np.asarray(boards[i]).tolist()}")
    dims[0] = m
    dims[1] = 5
    out = cnp.PyArray_SimpleNew(2, dims, cnp.NPY_FLOAT32)
    cdef float *o = <float *>cnp.PyArray_DATA(out)
    with nogil:
        for i in range(m):
            bg_bearoff_probs(db, &boards[i, 0], o + 5 * i)
    return out


def bearoff_tables():
    """Read-only views of the whole database: off and first float32
    (54264, 32), mean and mean_first float32 (54264,)."""
    cdef const bg_bearoff *db = _bearoff_db()
    cdef cnp.npy_intp d2[2]
    cdef cnp.npy_intp d1[1]
    d2[0] = BG_BO_NPOS
    d2[1] = BG_BO_TURNS
    d1[0] = BG_BO_NPOS
    views = (cnp.PyArray_SimpleNewFromData(2, d2, cnp.NPY_FLOAT32, <void *>db.off),
             cnp.PyArray_SimpleNewFromData(2, d2, cnp.NPY_FLOAT32, <void *>db.first),
             cnp.PyArray_SimpleNewFromData(1, d1, cnp.NPY_FLOAT32, <void *>db.mean),
             cnp.PyArray_SimpleNewFromData(1, d1, cnp.NPY_FLOAT32, <void *>db.mean_first))
    for v in views:
        v.flags.writeable = False   # the module's own memory, never freed
    return views


def bearoff_build_fresh():
    """Builds a private database and frees it (GIL released), for
    benchmarks; returns its expected turns of 15 checkers on the 6-point
    (a check of the work)."""
    cdef bg_bearoff tmp
    cdef int r
    cdef float m
    with nogil:
        r = bg_bearoff_build(&tmp)
    if r != 0:
        raise MemoryError("no memory for the bear-off database (14 MB)")
    m = tmp.mean[BG_BO_NPOS - 1]
    bg_bearoff_free(&tmp)
    return float(m)
