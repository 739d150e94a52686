# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled core of ``backgammon``: thin wrappers over ``movegen.h``.

Private: users import :mod:`backgammon`.  Boards cross this boundary as
26-byte ``bytes`` objects (two's-complement int8, the public board
convention) or as ``int8`` numpy arrays.  Errors are raised here, with the
exception classes of :mod:`backgammon.errors`.
"""
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.exc cimport PyErr_CheckSignals, PyErr_Occurred
from cpython.pycapsule cimport PyCapsule_New, PyCapsule_GetPointer
from libc.stdint cimport int8_t, uint8_t, int64_t
from libc.stdlib cimport free
from libc.string cimport memcpy

cimport numpy as cnp
import threading

import numpy as np

from backgammon._show import shown
from backgammon.errors import GameOverError, InvalidDiceError, InvalidPositionError, RolloutError

from movegen cimport *

cnp.import_array()

cdef extern from "Python.h":
    # declared without an exception clause: called from a nogil callback,
    # which leaves the exception set for the loop's caller to raise
    int _check_signals "PyErr_CheckSignals" () nogil

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


# ----------------------------------------------------------------------
# Stopping long loops (cancel.h): Ctrl-C and cancel tokens
#
# A wrapper of a long nogil loop sets up a bg_cancel with _cancel_init, hands
# it to the loop, and calls _raise_cancelled when the loop returns
# BG_E_CANCELLED.  In the main thread the loop polls Python's signal
# handlers, so Ctrl-C raises KeyboardInterrupt there; in any thread it stops
# when the job's Cancel token is set (a rollout's worker threads share one).

class Cancelled(Exception):
    """A loop stopped because its :class:`Cancel` token was set."""


cdef class Cancel:
    """A stop flag shared by the C loops of one job: ``set()`` stops them all
    at their next check (a game, a perft node).  Pickles as a fresh token, so
    a job sent to another process is simply not cancellable from here."""

    cdef int flag

    def set(self):
        bg_cancel_set(&self.flag)

    def is_set(self):
        return self.flag != 0

    def __reduce__(self):
        return (Cancel, ())


cdef int _poll_signals(void *ctx) noexcept nogil:
    # Runs the Python signal handlers; an exception one raises
    # (KeyboardInterrupt) stays set until _raise_cancelled raises it.
    cdef int r
    with gil:
        r = _check_signals()
    return r != 0


cdef int _cancel_init(bg_cancel *c, Cancel token, int64_t every) except -1:
    """Sets up ``c`` for one loop in this thread: it stops when ``token`` is
    set (None: no token) and, in the main thread, when a signal handler
    raises, polled every ``every`` units of the loop (a few ms of work)."""
    cdef int *flag = &token.flag if token is not None else NULL
    cdef bg_poll_fn poll = NULL
    if threading.get_ident() == threading.main_thread().ident:
        poll = _poll_signals
    bg_cancel_init(c, flag, poll, NULL, every)
    return 0


cdef int _raise_cancelled() except -1:
    """Raises why a loop returned BG_E_CANCELLED: the signal handler's
    exception, else Cancelled (its token was set)."""
    if PyErr_Occurred():
        return -1
    raise Cancelled("stopped: the job's cancel token was set")


cdef enum:
    # units of work between signal polls: a few milliseconds each
    _PERFT_POLL = 1024      # perft nodes, ~5 us each
    _PLAYOUT_POLL = 128     # games, ~30 us each with the built-in policies


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
        raise InvalidDiceError(f"dice must be two integers from 1 to 6, got {shown(dice)}") from None
    if v < 1 or v > 6:
        raise InvalidDiceError(f"dice must be two integers from 1 to 6, got {shown(dice)}")
    return <int>v


cdef int _parse_dice(object dice, int *d1, int *d2) except -1:
    if isinstance(dice, (str, bytes)):
        raise InvalidDiceError(f"dice must be two integers from 1 to 6, got {shown(dice)}")
    try:
        a, b = dice
    except (TypeError, ValueError):
        raise InvalidDiceError(f"dice must be two integers from 1 to 6, got {shown(dice)}") from None
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


def perft(bytes board, int depth, bint rolls36, Cancel cancel=None):
    """Leaves of the play tree of ``depth`` plies (see backgammon.perft);
    stops on Ctrl-C (main thread) or when ``cancel`` is set."""
    cdef const int8_t *b = _board_ptr(board)
    cdef bg_gen *g
    cdef int64_t r
    cdef bg_cancel c
    if depth < 0:
        raise ValueError("depth must be >= 0")
    _cancel_init(&c, cancel, _PERFT_POLL)
    g = bg_gen_new()
    if g == NULL:
        raise MemoryError()
    with nogil:
        r = bg_perft_rec(g, b, depth, rolls36, &c)
    bg_gen_free(g)
    if r == BG_E_CANCELLED:
        _raise_cancelled()
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
            int policy, bint stratify, Cancel cancel=None):
    """Statistics ``(1296, 9)`` int64 of games first_game.. of a rollout with a
    built-in policy (0 random, 1 pubeval); the GIL is released.  Stops on
    Ctrl-C (main thread) or when ``cancel`` is set."""
    cdef const int8_t *b = _board_ptr(board)
    cdef int r
    cdef int64_t[:, ::1] stats
    cdef bg_cancel c
    _check_playing(b)
    if policy == BG_POLICY_PUBEVAL:
        _need_pubeval()
    elif policy != BG_POLICY_RANDOM:
        raise ValueError(f"unknown policy code {policy}")
    if ngames < 0 or first_game < 0:
        raise ValueError("game numbers must be >= 0")
    _cancel_init(&c, cancel, _PLAYOUT_POLL)
    out = _stats_array()
    stats = out
    with nogil:
        r = bg_playout_range(b, seed, first_game, ngames, policy, &_PE, stratify,
                             &stats[0, 0], &c)
    if r == BG_E_CANCELLED:
        _raise_cancelled()
    if r == -1:
        raise MemoryError()
    if r == BG_E_TOO_LONG:
        raise RolloutError(f"a game passed {BG_MAX_PLIES:,} plies without ending")
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
            PyErr_CheckSignals()  # evaluate may be C code, which runs no handler
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
                        raise RolloutError(f"a game passed {BG_MAX_PLIES:,} plies without ending")
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
