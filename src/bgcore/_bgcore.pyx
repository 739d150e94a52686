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
from libc.stdint cimport int8_t, int16_t, uint8_t, int64_t
from libc.stdlib cimport free
from libc.string cimport memcpy, memset, memcmp

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
    _NET_POLL = 8           # games or duel pairs with a net, ~0.5 ms each


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
    if isinstance(dice, str):  # "31", "3-1", "3 1", "3,1", "3/1" (bounded: refused past 8)
        text = "".join(dice.split()) if len(dice) <= 8 else ""
        if len(text) == 3 and text[1] in "-,/":
            text = text[0] + text[2]
        if len(text) != 2 or text[0] not in "123456" or text[1] not in "123456":
            raise InvalidDiceError(f"dice are two integers from 1 to 6, or text such as "
                                   f"'31' or '3-1', got {shown(dice)}")
        d1[0] = ord(text[0]) - 48
        d2[0] = ord(text[1]) - 48
        return 0
    if isinstance(dice, bytes):
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
    cdef bg_cancel c
    _cancel_init(&c, None, _SUCCESSOR_POLL)
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
                if bg_cancelled(&c):  # Ctrl-C: a few ms of rows between polls
                    r = BG_E_CANCELLED
                    break
            off[m] = g.out.n
    if r < 0:
        bg_gen_free(g)
        if r == BG_E_CANCELLED:
            _raise_cancelled()
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


cdef enum:
    # rows between signal polls (a few ms of work; cancel.h)
    _PUBEVAL_POLL = 16384   # pubeval rows, ~0.15 us each
    _SUCCESSOR_POLL = 512   # batch_successors rows, ~1-5 us each


cdef inline bint _empty_board(const int8_t *b) noexcept nogil:
    cdef int k
    for k in range(BG_NPTS):
        if b[k] != 0:
            return False
    return True


def pubeval_scores(const int8_t[:, ::1] boards, int race):
    """pubeval scores of boards for their positive side; race 1/0, or -1 to
    decide it from each board itself.  Boards are validated (an empty one is
    refused) in the same pass, without the GIL; Ctrl-C stops it."""
    cdef int64_t m = boards.shape[0], i, bad = -1
    cdef int code = BG_OK, flag, r = 0
    cdef cnp.npy_intp dims[1]
    cdef bg_cancel c
    _need_pubeval()
    if boards.shape[1] != BG_NPTS:
        raise InvalidPositionError(f"boards must have shape (m, 26), got {tuple(boards.shape)}")
    dims[0] = m
    out = cnp.PyArray_SimpleNew(1, dims, cnp.NPY_FLOAT64)
    cdef double *o = <double *>cnp.PyArray_DATA(out)
    _cancel_init(&c, None, _PUBEVAL_POLL)
    with nogil:
        for i in range(m):
            code = bg_validate(&boards[i, 0])
            if code != BG_OK or _empty_board(&boards[i, 0]):
                bad = i
                break
            flag = race if race >= 0 else bg_is_race(&boards[i, 0])
            o[i] = bg_pubeval_score(&_PE, &boards[i, 0], flag)
            if bg_cancelled(&c):
                r = BG_E_CANCELLED
                break
    if r == BG_E_CANCELLED:
        _raise_cancelled()
    if bad >= 0:
        why = _VALIDATION_MESSAGES[code] if code != BG_OK else \
            "no checkers of either side on the board"
        raise InvalidPositionError(f"row {bad}: {why}: {np.asarray(boards[bad]).tolist()}")
    return out


def _stats_array():
    return np.zeros((BG_STRATA, BG_ST_FIELDS), dtype=np.int64)


def playout(bytes board, uint64_t seed, int64_t first_game, int64_t ngames,
            int policy, bint stratify, Cancel cancel=None, Nets nets=None):
    """Statistics ``(1296, 9)`` int64 of games first_game.. of a rollout with a
    built-in policy (0 random, 1 pubeval, 2 the net ``nets``); the GIL is
    released.  Stops on Ctrl-C (main thread) or when ``cancel`` is set."""
    cdef const int8_t *b = _board_ptr(board)
    cdef int r
    cdef int64_t[:, ::1] stats
    cdef bg_cancel c
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
    _cancel_init(&c, cancel, _NET_POLL if policy == BG_POLICY_NET else _PLAYOUT_POLL)
    out = _stats_array()
    stats = out
    with nogil:
        r = bg_playout_range(b, seed, first_game, ngames, policy, &_PE, stratify,
                             &stats[0, 0], ev, &c)
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


# ----------------------------------------------------------------------
# The neural evaluator (nn.h), TD self-play (train.h) and duels (playout.h)

from nn cimport *

NN_INPUTS = BG_NN_NIN
NN_INPUTS_BY_ENCODING = {1: BG_NN_NIN, 2: BG_NN_NIN2, 3: BG_NN_NIN3, 4: BG_NN_NIN4}
NN_FEATURES_BY_ENCODING = {1: BG_NN_NFEAT, 2: BG_NN_NFEAT2, 3: BG_NN_NFEAT3, 4: BG_NN_NFEAT4}
bg_nn3_init()   # encoding 3's escape table, once, before any evaluation
NN_MAX_NETS = BG_NN_MAXNETS
NN_OUTPUTS = BG_NN_NOUT
NN_MAX_KEEP = BG_NN_MAXKEEP
NN_MAX_HIDDEN = BG_NN_MAXH
NN_MAX_MIDDLE = BG_NN_MAXMID
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
    """The contact, race and (optionally) crashed nets over padded float32 arrays.

    ``arrays`` is ``(w1, b1, w2, b2, wm, bm)`` of each net in the order
    contact, race, crashed: ``w1`` ``(inputs, hpad)`` input-major, ``b1``
    ``(hpad,)``, ``w2`` ``(5, opad)``, ``b2`` ``(5,)``, and a second hidden
    layer's ``wm`` ``(mpad, hpad)`` unit-major and ``bm`` ``(mpad,)``; hpad
    and mpad multiples of 8 whose entries past ``hidden[c]`` and
    ``middle[c]`` are zero, opad mpad with a middle layer and hpad without
    (``wm`` ``(0, hpad)`` and ``bm`` ``(0,)`` then); ``inputs`` that of
    ``encoding`` (1: 204, 2: 224, 3: 238).  With two nets crashed positions
    go to the contact net.  The core reads (and training writes) the arrays
    in place, so they are kept here.  Evaluation only reads: one Nets may
    serve any number of threads at once; training needs its own copy.
    """
    cdef bg_nn nn
    cdef bg_evaluator ev
    cdef bg_mlp_rw rw[3]
    cdef readonly tuple arrays
    cdef readonly tuple hidden
    cdef readonly tuple middle
    cdef readonly int encoding
    cdef readonly object pruning   # the screening Nets of set_pruning, or None
    cdef readonly int keep
    cdef readonly float margin

    def __init__(self, arrays, hidden, int encoding=1, middle=None):
        cdef float[:, ::1] w1, w2, wm
        cdef float[::1] b1, b2, bm
        cdef int c, hpad, mpad, opad, k, nin
        arrays = tuple(arrays)
        hidden = tuple(int(h) for h in hidden)
        k = len(hidden)
        middle = (0,) * k if middle is None else tuple(int(h) for h in middle)
        if k not in (2, 3) or len(arrays) != 6 * k or len(middle) != k:
            raise ValueError("Nets needs 2 or 3 nets: 6 arrays, a hidden size and a middle size each")
        if not 1 <= encoding <= BG_NN_ENCODING_MAX:
            raise ValueError(f"encoding {encoding}: this core runs 1 to {BG_NN_ENCODING_MAX}")
        nin = bg_nn_inputs(encoding)
        memset(&self.nn, 0, sizeof(self.nn))
        memset(self.rw, 0, sizeof(self.rw))
        self.nn.nnets = k
        for c in range(k):
            w1 = arrays[6 * c]
            b1 = arrays[6 * c + 1]
            w2 = arrays[6 * c + 2]
            b2 = arrays[6 * c + 3]
            wm = arrays[6 * c + 4]
            bm = arrays[6 * c + 5]
            hpad = w1.shape[1]
            mpad = wm.shape[0]
            opad = mpad if middle[c] else hpad
            if (w1.shape[0] != nin or hpad % 8 or hpad > BG_NN_MAXH or hpad < 8
                    or b1.shape[0] != hpad or w2.shape[0] != BG_NN_NOUT or w2.shape[1] != opad
                    or b2.shape[0] != BG_NN_NOUT or not 0 < hidden[c] <= hpad < hidden[c] + 8
                    or wm.shape[1] != hpad or bm.shape[0] != mpad or mpad % 8
                    or mpad > BG_NN_MAXMID or (middle[c] == 0) != (mpad == 0)
                    or not (middle[c] == 0 or 0 < middle[c] <= mpad < middle[c] + 8)):
                raise ValueError("net arrays of the wrong shapes")
            self.nn.net[c].nin = nin
            self.nn.net[c].enc = encoding
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
            if middle[c]:
                self.nn.net[c].nmid = middle[c]
                self.nn.net[c].mpad = mpad
                self.nn.net[c].wm = &wm[0, 0]
                self.nn.net[c].bm = &bm[0]
                self.rw[c].wm = &wm[0, 0]
                self.rw[c].bm = &bm[0]
        self.encoding = encoding
        self.arrays = arrays
        self.hidden = hidden
        self.middle = middle
        self.ev.nn = &self.nn
        # positions the bear-off database covers get its exact chances, in
        # evaluation, move choice and as training targets
        self.ev.exact_ctx = _bearoff_db()
        self.ev.exact = _bearoff_exact
        self.pruning = None
        self.keep = 0

    def set_pruning(self, Nets pruning, int keep=0, float margin=0.0):
        """Screens the move choices that need only the chosen play (rollouts,
        duels, the replies inside deeper evaluations) with the small nets
        ``pruning``: they score every play and the full nets only their
        ``keep`` best (1 to BG_NN_MAXKEEP), and with ``margin`` > 0 only
        those of them within ``margin`` (equity) of the screen's best.
        ``None`` turns the screen off.  Call it before the nets are used,
        not while other threads evaluate."""
        if pruning is None:
            self.ev.prune = NULL
            self.ev.keep = 0
            self.ev.margin = 0.0
            self.pruning = None
            self.keep = 0
            self.margin = 0.0
            return
        if not 1 <= keep <= BG_NN_MAXKEEP:
            raise ValueError(f"keep must be 1 to {BG_NN_MAXKEEP}, got {keep}")
        if not 0.0 <= margin <= 4.0:
            raise ValueError(f"margin must be 0 (none) to 4, got {margin}")
        self.pruning = pruning      # keeps its arrays alive
        self.keep = keep
        self.margin = margin
        self.ev.prune = &pruning.nn
        self.ev.keep = keep
        self.ev.margin = margin

    def evaluate(self, const int8_t[:, ::1] boards, Cancel cancel=None):
        """The five probabilities ``(m, 5)`` float32 of each board for its
        player on roll, before rolling.  Rows are validated first; a finished
        board (one side has no checkers) gets its exact result.  Ctrl-C (or
        ``cancel``) stops it within milliseconds."""
        cdef int64_t m = boards.shape[0], i
        cdef int code, stopped = 0
        cdef cnp.npy_intp dims[2]
        cdef float *o
        cdef bg_cancel c
        if boards.shape[1] != BG_NPTS:
            raise InvalidPositionError(f"boards must have shape (m, 26), got {tuple(boards.shape)}")
        for i in range(m):
            if (i & 0xFFFF) == 0xFFFF:
                PyErr_CheckSignals()   # raises KeyboardInterrupt on Ctrl-C
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
        _cancel_init(&c, cancel, 1)
        with nogil:
            for i in range(m):
                # a poll every 1,024 rows (~1 ms of evaluations)
                if (i & 1023) == 1023 and bg_cancelled(&c):
                    stopped = 1
                    break
                bg_eval(&self.ev, &boards[i, 0], o + i * BG_NN_NOUT)
        if stopped:
            _raise_cancelled()
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
                      const int64_t[::1] offsets, bint best_only=False):
        """:meth:`choose` for many groups at once (as batch_successors gives
        them): group i's plays are ``cands[offsets[i]:offsets[i + 1]]``,
        played from ``befores[i]`` (rows already valid).  Returns ``(picks,
        probs)``: ``(m,)`` int64 absolute row indices and ``(n, 5)`` float32;
        with ``best_only``, ``probs`` is ``(m, 5)``, the chosen plays' only,
        and a screen (:meth:`set_pruning`) applies."""
        cdef int64_t m = befores.shape[0], n = cands.shape[0], i
        cdef int stopped = 0
        cdef bg_cancel c
        cdef cnp.npy_intp dims[2]
        cdef cnp.npy_intp pdims[1]
        cdef float *o
        cdef int64_t *pk
        cdef bg_nn_chooser *ch = NULL
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
        dims[0] = m if best_only else n
        dims[1] = BG_NN_NOUT
        out = cnp.PyArray_SimpleNew(2, dims, cnp.NPY_FLOAT32)
        o = <float *>cnp.PyArray_DATA(out)
        pdims[0] = m
        picks = cnp.PyArray_SimpleNew(1, pdims, cnp.NPY_INT64)
        pk = <int64_t *>cnp.PyArray_DATA(picks)
        _cancel_init(&c, None, 1)
        with nogil:
            ch = <bg_nn_chooser *>malloc(sizeof(bg_nn_chooser))
            if ch != NULL:
                bg_nn_chooser_init(ch)   # groups from one position share its sums
                for i in range(m):
                    if (i & 63) == 63 and bg_cancelled(&c):
                        stopped = 1
                        break
                    # every play's probabilities, or (best_only) the chosen one's
                    pk[i] = offsets[i] + bg_nn_choose_in(
                        &self.ev, ch, &cands[offsets[i], 0], offsets[i + 1] - offsets[i],
                        &befores[i, 0], NULL if best_only else o + offsets[i] * BG_NN_NOUT,
                        o + i * BG_NN_NOUT if best_only else NULL)
                free(ch)
        if ch == NULL:
            raise MemoryError()
        if stopped:
            _raise_cancelled()
        return picks, out

    def td_games(self, bytes start, uint64_t seed, int64_t first_game, int64_t ngames, float lr,
                 Cancel cancel=None):
        """TD(0) self-play games first_game.. from ``start``, updating these
        nets in place (the GIL is released); returns the plies played.  Stops
        on Ctrl-C (main thread) or when ``cancel`` is set."""
        cdef const int8_t *b = _board_ptr(start)
        cdef int64_t r
        cdef bg_cancel c
        _check_playing(b)
        if ngames < 0 or first_game < 0:
            raise ValueError("game numbers must be >= 0")
        if any(self.middle):
            raise ValueError("TD training runs nets of one hidden layer; train nets with a "
                             "middle layer on targets")
        if self.pruning is not None:
            raise ValueError("TD training chooses every move with the nets it trains: "
                             "turn the screen off (set_pruning(None))")
        _cancel_init(&c, cancel, _NET_POLL)
        with nogil:
            r = bg_td_games(&self.ev, self.rw, b, seed, first_game, ngames, lr, &c)
        if r == BG_E_CANCELLED:
            _raise_cancelled()
        if r == -1:
            raise MemoryError()
        if r == BG_E_TOO_LONG:
            raise RolloutError(f"a game passed {BG_MAX_PLIES:,} plies without ending")
        return r

    # -- supervised training (sgd.h) -----------------------------------

    def classify(self, const int8_t[:, ::1] boards):
        """``(m,)`` int8: the net that answers each (valid) board: 0 contact,
        1 race, 2 crashed (with three nets), -1 none (finished, or known to
        the bear-off database)."""
        cdef int64_t m = boards.shape[0], i
        cdef bg_nn_scan_t sc
        cdef float out[BG_NN_NOUT]
        cdef cnp.npy_intp dims[1]
        cdef int8_t *o
        cdef int stopped = 0
        cdef bg_cancel c
        if boards.shape[1] != BG_NPTS:
            raise InvalidPositionError(f"boards must have shape (m, 26), got {tuple(boards.shape)}")
        dims[0] = m
        res = cnp.PyArray_SimpleNew(1, dims, cnp.NPY_INT8)
        o = <int8_t *>cnp.PyArray_DATA(res)
        _cancel_init(&c, None, 1)
        with nogil:
            for i in range(m):
                if (i & 4095) == 4095 and bg_cancelled(&c):
                    stopped = 1
                    break
                bg_nn_scan(&boards[i, 0], &sc)
                if bg_nn_known(&self.ev, &boards[i, 0], &sc, out):
                    o[i] = -1
                else:
                    o[i] = <int8_t>bg_nn_class(&self.nn, &boards[i, 0], &sc)
        if stopped:
            _raise_cancelled()
        return res

    cdef int _net_index(self, int c) except -1:
        if not 0 <= c < self.nn.nnets:
            raise ValueError(f"net index {c}: these nets have 0 to {self.nn.nnets - 1}")
        return c

    def sgd_nparams(self, int c):
        """Floats of one moment array of net ``c``'s optimizer state."""
        return bg_sgd_nparams(&self.nn.net[self._net_index(c)])

    def sgd_loss(self, int c, const int8_t[:, ::1] boards, const float[:, ::1] targets,
                 const int64_t[::1] order, Cancel cancel=None):
        """Sum of the cross-entropies of net ``c`` on rows ``order`` (indices
        checked by the caller), without the GIL."""
        cdef double total = 0.0
        cdef int r
        cdef bg_cancel cc
        self._net_index(c)
        _sgd_check(boards, targets, order)
        _cancel_init(&cc, cancel, 1)
        with nogil:
            r = bg_sgd_loss(&self.nn.net[c], &boards[0, 0] if boards.shape[0] else NULL,
                            &targets[0, 0] if targets.shape[0] else NULL,
                            &order[0] if order.shape[0] else NULL, order.shape[0], &total, &cc)
        if r == BG_E_CANCELLED:
            _raise_cancelled()
        return total

    def sgd_train(self, int c, const int8_t[:, ::1] boards, const float[:, ::1] targets,
                  const int64_t[::1] order, int64_t batch, bint adam, float lr, float lr_final,
                  int64_t total_steps, float beta1, float beta2, float eps,
                  float[::1] state, int64_t[::1] progress, Cancel cancel=None):
        """Minibatch training of net ``c`` in place on rows ``order`` (sgd.h),
        without the GIL.  ``state``: the optimizer's moments (2 x
        sgd_nparams(c)).  ``progress`` (int64 [step, done]) holds the step
        and a count of examples on entry; the step moves on and the examples
        of the completed batches are added to the count, also when Ctrl-C or
        ``cancel`` stops it (raised after): the caller's record of where
        training stands is written here, with the weights, never apart from
        them.  Returns the loss sum."""
        cdef bg_sgd_opts o
        cdef int64_t step, done = 0, done_before
        cdef double loss = 0.0
        cdef int r
        cdef bg_cancel cc
        self._net_index(c)
        _sgd_check(boards, targets, order)
        if state.shape[0] != 2 * bg_sgd_nparams(&self.nn.net[c]) or progress.shape[0] != 2:
            raise ValueError("optimizer state of the wrong size")
        if batch < 1:
            raise ValueError("batch must be >= 1")
        step, done_before = progress[0], progress[1]
        o.method = BG_SGD_ADAM if adam else BG_SGD_MOMENTUM
        o.lr = lr
        o.lr_final = lr_final
        o.total_steps = total_steps
        o.beta1 = beta1
        o.beta2 = beta2
        o.eps = eps
        _cancel_init(&cc, cancel, 1)
        if order.shape[0]:
            with nogil:
                r = bg_sgd_train(&self.nn.net[c], &self.rw[c], &o, &state[0], &boards[0, 0],
                                 &targets[0, 0], &order[0], order.shape[0], batch, &step, &done,
                                 &loss, &cc)
        else:
            r = 0
        progress[0] = step
        progress[1] = done_before + done
        if r == BG_E_CANCELLED:
            _raise_cancelled()
        if r == -1:
            raise MemoryError()
        return loss


def first_invalid_row(const int8_t[:, ::1] boards):
    """``(i, why)``: the first row that is not a valid board, or ``(-1, "")``."""
    cdef int64_t i, m = boards.shape[0]
    cdef int code = BG_OK, stopped = 0
    cdef bg_cancel c
    if boards.shape[1] != BG_NPTS:
        raise InvalidPositionError(f"boards must have shape (m, 26), got {tuple(boards.shape)}")
    _cancel_init(&c, None, 1)
    with nogil:
        for i in range(m):
            if (i & 16383) == 16383 and bg_cancelled(&c):
                stopped = 1
                break
            code = bg_validate(&boards[i, 0])
            if code != BG_OK:
                break
    if stopped:
        _raise_cancelled()
    if code != BG_OK:
        return i, _VALIDATION_MESSAGES[code]
    return -1, ""


cdef int _sgd_check(const int8_t[:, ::1] boards, const float[:, ::1] targets,
                    const int64_t[::1] order) except -1:
    cdef int64_t i, n = boards.shape[0]
    if boards.shape[1] != BG_NPTS or targets.shape[1] != BG_NN_NOUT or targets.shape[0] != n:
        raise ValueError("boards (n, 26) and targets (n, 5) needed")
    for i in range(order.shape[0]):
        if not 0 <= order[i] < n:
            raise ValueError(f"order[{i}] = {order[i]} is not a row")
    return 0


def nn_encode(bytes board, int encoding=1):
    """The nonzero inputs of a board: ``(indices, values)``."""
    cdef const int8_t *b = _board_ptr(board)
    cdef int16_t idx[BG_NN_MAXNZ]
    cdef float val[BG_NN_MAXNZ]
    cdef int n, i
    if not 1 <= encoding <= BG_NN_ENCODING_MAX:
        raise ValueError(f"encoding {encoding}: this core runs 1 to {BG_NN_ENCODING_MAX}")
    if encoding >= 4:
        _bearoff_db()   # encoding 4's race inputs read its means (built on first use)
    n = bg_nn_encode_enc(encoding, b, idx, val)
    return [idx[i] for i in range(n)], [val[i] for i in range(n)]


def nn_features(bytes board, int encoding=2):
    """The feature inputs (after the 196 raw ones) of a board, all of them."""
    cdef const int8_t *b = _board_ptr(board)
    cdef bg_nn_scan_t sc
    cdef float f[BG_NN_MAXFEAT]
    cdef int n, i
    if not 1 <= encoding <= BG_NN_ENCODING_MAX:
        raise ValueError(f"encoding {encoding}: this core runs 1 to {BG_NN_ENCODING_MAX}")
    if encoding >= 4:
        _bearoff_db()
    bg_nn_scan(b, &sc)
    n = bg_nn_features_enc(encoding, b, &sc, f)
    return [f[i] for i in range(n)]


def nn3_escapes(int pattern):
    """Encoding 3's escape count: rolls (of 36) with which a lone checker gets
    past the farthest blocked point of the 12 in front of it (bit j of
    ``pattern``: the point j + 1 pips ahead is blocked; nnfeat3.h)."""
    if not 0 <= pattern < 4096:
        raise ValueError(f"pattern {pattern}: 12 bits, 0 to 4095")
    return bg_nn3_esc_of(pattern)


def nn_features2_agree(bytes board):
    """Whether the scan-based features of encoding 2 equal the point-by-point ones."""
    cdef const int8_t *b = _board_ptr(board)
    cdef bg_nn_scan_t sc
    cdef float f[20]
    cdef float g[20]
    bg_nn_scan(b, &sc)
    bg_nn2_features(b, &sc, f)
    bg_nn2_features_plain(b, &sc, g)
    return memcmp(f, g, sizeof(f)) == 0


def nn_is_crashed(bytes board):
    """Whether the crashed net answers the board (in a file with three nets)."""
    cdef const int8_t *b = _board_ptr(board)
    cdef bg_nn_scan_t sc
    bg_nn_scan(b, &sc)
    return bool(bg_nn_scan_crashed(b, &sc))


def nn_scan_agrees(bytes board):
    """Whether the vectorised board scan and shot/escape counts of nn.h equal
    the portable ones."""
    cdef const int8_t *b = _board_ptr(board)
    cdef bg_nn_scan_t x, y
    memset(&x, 0, sizeof(x))
    memset(&y, 0, sizeof(y))
    cdef int se[4]
    cdef int ref[4]
    bg_nn_scan(b, &x)
    bg_nn_scan_plain(b, &y)
    if memcmp(&x, &y, sizeof(x)) != 0:
        return False
    # the four-lane shots and escapes against the one-at-a-time functions
    bg_nn_shots_escapes(&x, se)
    ref[0] = bg_nn_shots(x.own, x.opp_blot, x.opp_made)
    ref[1] = bg_nn_escapes(bg_highbit(x.own), x.opp_made) if x.own else 0
    ref[2] = bg_nn_shots(x.opp, x.own_blot_t, x.own_made_t)
    ref[3] = bg_nn_escapes(bg_highbit(x.opp), x.own_made_t) if x.opp else 0
    return se[0] == ref[0] and se[1] == ref[1] and se[2] == ref[2] and se[3] == ref[3]


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
         int policy_a, Nets nets_a, int policy_b, Nets nets_b, Cancel cancel=None):
    """Statistics (11,) int64 of duplicate-dice pairs first_pair.. of a duel
    between built-in policies (see bg_duel_range); the GIL is released.
    Stops on Ctrl-C (main thread) or when ``cancel`` is set."""
    cdef const int8_t *b = _board_ptr(start)
    cdef bg_player pa, pb
    cdef int r
    cdef int64_t[::1] st
    cdef bg_cancel c
    _check_playing(b)
    _player(policy_a, nets_a, &pa)
    _player(policy_b, nets_b, &pb)
    if npairs < 0 or first_pair < 0:
        raise ValueError("pair numbers must be >= 0")
    _cancel_init(&c, cancel, _NET_POLL)
    out = np.zeros(BG_DU_FIELDS, dtype=np.int64)
    st = out
    with nogil:
        r = bg_duel_range(b, seed, first_pair, npairs, &pa, &pb, &_PE, &st[0], &c)
    if r == BG_E_CANCELLED:
        _raise_cancelled()
    if r == -1:
        raise MemoryError()
    if r == BG_E_TOO_LONG:
        raise RolloutError(f"a game passed {BG_MAX_PLIES:,} plies without ending")
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
                        raise RolloutError(f"a game passed {BG_MAX_PLIES:,} plies without ending")
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
                bg_nn4_init(&_BO)   # encoding 4's race inputs: its two tables of means
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


# ----------------------------------------------------------------------
# Cube decisions (cube.h, issue 11)
#
# Janowski's cubeful money equity, the match model and double/take/pass in
# C: the model of backgammon.cubeful (the reference implementation) and of
# CubeDecision.from_chances, which uses cube_decide for its numbers.  A match
# equity table crosses into C once, as a CubeTable (cube_table() keeps one
# per Python table).  Other core code in this module may decide in C without
# the GIL from a table's `met`:
#
#     cdef bg_cube_ctx ctx     # filled as _cube_ctx does
#     with nogil:
#         code = bg_cube_decide(probs, &ctx, &result)   # probs: float[5]
#
# Owners are ints in C (CUBE_OWNERS maps cubeful's names); the wrappers take
# either.  Errors are BackgammonError (MatchEquityError for scores), with
# cubeful's messages.

from cube cimport *
import operator
from backgammon.errors import BackgammonError, MatchEquityError

CUBE_OWNERS = {"centred": BG_CUBE_CENTRED, "own": BG_CUBE_OWN, "opponent": BG_CUBE_OPPONENT}
# Indexed by bg_cube_action and bg_cube_reason (cube.h); the texts of cube.py.
CUBE_ACTIONS = ("No {verb}, take", "No {verb}, beaver", "{Verb}, take", "{Verb}, beaver",
                "{Verb}, pass", "Too good to {verb}, pass", "Too good to {verb}, take",
                "Too good to {verb}, beaver", "No {verb} ({why})")
CUBE_REASONS = ("", "the opponent owns the cube", "the cube is at its limit", "the Crawford game")
CUBE_MAX_VALUE = BG_CUBE_MAX_VALUE
assert len(CUBE_ACTIONS) == BG_CUBE_NACTIONS and len(CUBE_REASONS) == BG_CUBE_NREASONS


def cube_action_text(int action, int reason, bint redouble):
    """The analysts' spelling of an action code ("Redouble, take" when the
    player on roll owns the cube)."""
    if not 0 <= action < BG_CUBE_NACTIONS or not 0 <= reason < BG_CUBE_NREASONS:
        raise BackgammonError(f"no cube action {action} (reason {reason})")
    verb = "redouble" if redouble else "double"
    return CUBE_ACTIONS[action].format(verb=verb, Verb=verb.capitalize(), why=CUBE_REASONS[reason])


cdef class CubeTable:
    """A match equity table copied into C (pre-Crawford n x n, post-Crawford n)."""
    cdef bg_met met
    cdef readonly str name

    def __init__(self, pre_crawford, post_crawford, str name=""):
        cdef int n = len(pre_crawford), i, j
        if not 2 <= n <= BG_MET_MAX:
            raise MatchEquityError(f"a table covers 2 to {BG_MET_MAX} points, got {n}")
        if len(post_crawford) != n or any(len(row) != n for row in pre_crawford):
            raise MatchEquityError(f"a table is {n} x {n} pre-Crawford and {n} post-Crawford")
        self.met.n = n
        for i in range(n):
            for j in range(n):
                self.met.pre[i][j] = _met_entry(pre_crawford[i][j])
            self.met.post[i] = _met_entry(post_crawford[i])
        self.name = name
        from backgammon.met import extension  # the numbers of the extension past n (met.py)
        ext = extension([[self.met.pre[i][j] for j in range(n)] for i in range(n)],
                        [self.met.post[i] for i in range(n)])
        self.met.ext = ext is not None
        if ext is not None:
            for i in range(n):
                self.met.edge_z[i] = ext.edge_z[i]
            self.met.post_anchor[0], self.met.post_anchor[1] = ext.post
            self.met.crawford_anchor[0], self.met.crawford_anchor[1] = ext.crawford
            self.met.ratio = ext.ratio

    @property
    def length(self):
        return self.met.n

    def __repr__(self):
        return f"CubeTable({self.name!r}, {self.met.n} points)"


cdef double _met_entry(object v) except -1.0:
    cdef double d
    try:
        d = v
    except TypeError:
        raise MatchEquityError(f"a match winning chance is a number, got {v!r}") from None
    if not 0.0 <= d <= 1.0:
        raise MatchEquityError(f"match winning chances are from 0 to 1, got {v!r}")
    return d


_CUBE_TABLES = {}   # id(table) -> (table, CubeTable); the table is kept, so ids stay unique


def cube_table(table):
    """The CubeTable of a MatchEquityTable, built once per table (8 kept)."""
    hit = _CUBE_TABLES.get(id(table))
    if hit is not None:
        return hit[1]
    core = CubeTable(table.pre_crawford, table.post_crawford, table.name)
    if len(_CUBE_TABLES) >= 8:
        del _CUBE_TABLES[next(iter(_CUBE_TABLES))]
    _CUBE_TABLES[id(table)] = (table, core)
    return core


cdef _cube_error(int code, what, CubeTable table=None, int away=0, int opp=0):
    """The exception for an error code of cube.h; `what` is the bad value."""
    if code == BG_CUBE_E_RANGE:
        return BackgammonError(f"chances are probabilities from 0 to 1, got {what!r}")
    if code == BG_CUBE_E_ORDER:
        return BackgammonError(
            "chances are cumulative: win >= win gammon >= win backgammon and "
            f"1 - win >= lose gammon >= lose backgammon, got {what!r}")
    if code == BG_CUBE_E_X:
        return BackgammonError(f"the cube efficiency x is a number from 0 to 1, got {what!r}")
    if code == BG_CUBE_E_OWNER:
        return BackgammonError(f"owner is 'centred', 'own' or 'opponent', got {what!r}")
    if code == BG_CUBE_E_CUBE:
        return BackgammonError(f"the cube is a power of two up to 2**30, got {what!r}")
    if code == BG_CUBE_E_TABLE:
        return BackgammonError("match play needs a match equity table (a CubeTable)")
    if code == BG_CUBE_E_BEYOND:
        if table.met.ext:
            which, v = ("away", away) if away > BG_MET_AWAY_MAX else ("opponent_away", opp)
            return MatchEquityError(
                f"{which} = {v} is beyond the longest match ({BG_MET_AWAY_MAX} points)")
        which, v = ("away", away) if away > table.met.n else ("opponent_away", opp)
        return MatchEquityError(
            f"{which} = {v} is beyond the table's {table.met.n} points ({table.name}), "
            "which is too short to extend (at least 3 points)")
    if code == BG_CUBE_E_BOTH_WON:
        return MatchEquityError("both players cannot have won")
    if code == BG_CUBE_E_POST:
        return MatchEquityError(
            f"post-Crawford scores have a player 1-away, got {away}-away vs {opp}-away")
    return BackgammonError(f"cube error {code}")


cdef int _cube_chances(object chances, double *c) except -1:
    cdef Py_ssize_t n
    cdef int i, code
    try:
        n = len(chances)
    except TypeError:
        raise TypeError(f"chances are five numbers, got {type(chances).__name__}") from None
    if n != 5:
        raise BackgammonError(f"chances are five numbers, got {n}")
    try:
        for i in range(5):
            c[i] = chances[i]
    except (TypeError, ValueError):
        raise TypeError(f"chances are five numbers, got {chances!r}") from None
    code = bg_cube_check_chances(c)
    if code != BG_CUBE_OK:
        raise _cube_error(code, tuple(chances))
    return 0


cdef int _cube_owner(object owner) except -1:
    if isinstance(owner, str):
        if owner in CUBE_OWNERS:
            return CUBE_OWNERS[owner]
    elif isinstance(owner, int) and not isinstance(owner, bool) and 0 <= owner <= 2:
        return owner
    raise _cube_error(BG_CUBE_E_OWNER, owner)


cdef int _cube_int(object v, str what) except? -2:
    """An int argument (a score or a cube), clamped into C int range where
    the model reads it the same: a score <= 0 is a won match, a cube or score
    beyond the limits is refused by the C checks."""
    if not isinstance(v, bool):
        try:
            v = operator.index(v)  # numpy integers too
        except TypeError:
            pass
    if isinstance(v, bool) or not isinstance(v, int):
        if what == "cube":
            raise BackgammonError(f"the cube is a power of two, got {v!r}")
        raise TypeError(f"{what} is an int, got {type(v).__name__}")
    return <int>max(-1, min(v, 2 ** 31 - 1))


cdef int _cube_ctx(bg_cube_ctx *ctx, object cube, object owner, object x, object max_cube,
                   bint cube_disabled, bint jacoby, bint beaver, object score,
                   bint post_crawford, CubeTable table) except -1:
    """Fills and checks a context (everything but the chances)."""
    cdef int code
    ctx.cube = _cube_int(cube, "cube")
    ctx.owner = _cube_owner(owner)
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise _cube_error(BG_CUBE_E_X, x)
    ctx.x = x
    if isinstance(max_cube, bool) or not isinstance(max_cube, int):
        raise TypeError(f"max_cube is an int, got {type(max_cube).__name__}")
    ctx.max_cube = max(-1, min(max_cube, 2 ** 62))
    ctx.cube_disabled = cube_disabled
    ctx.jacoby = jacoby
    ctx.beaver = beaver
    ctx.post_crawford = post_crawford
    ctx.met = NULL if table is None else &table.met
    if score is None:
        ctx.match = 0
        ctx.away = ctx.opponent_away = 0
    else:
        try:
            away, opp = score
        except (TypeError, ValueError):
            raise BackgammonError(f"a score is (away, opponent_away), got {score!r}") from None
        ctx.match = 1
        ctx.away = _cube_int(away, "away")
        ctx.opponent_away = _cube_int(opp, "opponent_away")
    code = bg_cube_check_ctx(ctx)
    if code != BG_CUBE_OK:
        raise _cube_error(code, cube if code == BG_CUBE_E_CUBE else x, table,
                          ctx.away, ctx.opponent_away)
    return 0


def cube_money_equity(chances, owner="centred", x=0.68, bint jacoby=False):
    """cubeful.money_equity in C (chances: five numbers)."""
    cdef double c[5]
    cdef bg_cube_ctx ctx
    _cube_chances(chances, c)
    _cube_ctx(&ctx, 1, owner, x, 64, False, jacoby, False, None, False, None)
    return bg_money_equity_d(c, ctx.owner, ctx.x, ctx.jacoby)


def cube_match_equity(chances, away, opponent_away, cube=1, owner="centred", x=0.68,
                      bint post_crawford=False, max_cube=64, CubeTable table=None):
    """cubeful.match_equity in C; `table` a CubeTable (see cube_table)."""
    cdef double c[5]
    cdef bg_cube_ctx ctx
    _cube_chances(chances, c)
    _cube_ctx(&ctx, cube, owner, x, max_cube, False, False, False, (away, opponent_away),
              post_crawford, table)
    return bg_match_equity_d(c, ctx.away, ctx.opponent_away, ctx.cube, ctx.owner, ctx.x,
                             ctx.post_crawford, ctx.max_cube, ctx.met)


def cube_decide(chances, *, cube=1, owner="centred", x=0.68, max_cube=64,
                bint cube_disabled=False, bint jacoby=False, bint beaver=False, score=None,
                bint post_crawford=False, CubeTable table=None):
    """One decision: (no_double, double_take, double_pass, take, beaver,
    action, reason), as CubeDecision.from_chances.  score: None for money,
    else (away, opponent_away) with a CubeTable."""
    cdef double c[5]
    cdef bg_cube_ctx ctx
    cdef bg_cube_result r
    _cube_chances(chances, c)
    _cube_ctx(&ctx, cube, owner, x, max_cube, cube_disabled, jacoby, beaver, score,
              post_crawford, table)
    if bg_cube_decide_d(c, &ctx, &r) != BG_CUBE_OK:   # checked above: cannot happen
        raise BackgammonError("cube decision refused its checked inputs")
    return (r.no_double, r.double_take, r.double_pass, bool(r.take), bool(r.beaver),
            r.action, r.reason)


def cube_decide_batch(probs, *, cube=1, owner="centred", x=0.68, max_cube=64,
                      bint cube_disabled=False, bint jacoby=False, bint beaver=False, score=None,
                      bint post_crawford=False, CubeTable table=None):
    """Decisions for an (n, 5) array of chances (float32; other numeric
    dtypes are converted), all with the same cube and score, GIL released.
    ``x`` is one cube efficiency, or an (n,) array of one a row.
    Returns (values float64 (n, 3): no double, double/take, double/pass;
    action int8 (n,); take bool (n,); beaver bool (n,); reason int, the same
    for every row).  A bad row raises BackgammonError naming it."""
    cdef bg_cube_ctx ctx
    cdef bg_cube_result r
    cdef Py_ssize_t n, i, bad = -1
    cdef int code = BG_CUBE_OK
    cdef const double[::1] xs
    cdef bint per_row = not isinstance(x, (int, float))
    arr = np.asarray(probs)
    if arr.dtype.kind not in "fiu":
        raise TypeError(f"chances are numbers, got an array of {arr.dtype}")
    if arr.ndim != 2 or arr.shape[1] != 5:
        raise BackgammonError(f"chances are an (n, 5) array, got shape {arr.shape}")
    if per_row:
        xarr = np.asarray(x)
        if xarr.dtype.kind not in "fiu" or xarr.shape != (arr.shape[0],):
            raise _cube_error(BG_CUBE_E_X, x)
        xarr = np.ascontiguousarray(xarr, dtype=np.float64)
        if len(xarr) and not (np.all(xarr >= 0.0) and np.all(xarr <= 1.0)):
            raise _cube_error(BG_CUBE_E_X, x)
        xs = xarr
        x = 0.68   # checked row by row above; the context takes each row's
    _cube_ctx(&ctx, cube, owner, x, max_cube, cube_disabled, jacoby, beaver, score,
              post_crawford, table)
    cdef const float[:, ::1] p = np.ascontiguousarray(arr, dtype=np.float32)
    n = p.shape[0]
    values = np.empty((n, 3), dtype=np.float64)
    action = np.empty(n, dtype=np.int8)
    take = np.empty(n, dtype=np.bool_)
    beavers = np.empty(n, dtype=np.bool_)
    cdef double[:, ::1] v = values
    cdef int8_t[::1] a = action
    cdef uint8_t[::1] t = take.view(np.uint8)
    cdef uint8_t[::1] bv = beavers.view(np.uint8)
    with nogil:
        for i in range(n):
            if per_row:
                ctx.x = xs[i]
            code = bg_cube_decide(&p[i, 0], &ctx, &r)
            if code != BG_CUBE_OK:
                bad = i
                break
            v[i, 0] = r.no_double
            v[i, 1] = r.double_take
            v[i, 2] = r.double_pass
            a[i] = <int8_t>r.action
            t[i] = r.take
            bv[i] = r.beaver
    if bad >= 0:
        e = _cube_error(code, arr[bad].tolist())
        raise type(e)(f"row {bad}: {e}")
    return values, action, take, beavers, bg_cube_reason_of(&ctx)


def cube_efficiency(bytes board):
    """cubeful.cube_efficiency of a (validated) board, in C."""
    return bg_cube_efficiency(_board_ptr(board))


# ----------------------------------------------------------------------
# Rollouts with the cube, luck adjustment, truncation and rotation (playout.h)

ROLLOUT_FIELDS = BG_RX_FIELDS
ROLLOUT_QUANTITIES = BG_RX_NQ
ROLLOUT_SHIFT = BG_RX_SHIFT
ROLLOUT_SHIFT2 = BG_RX_SHIFT2


def rollout_games(bytes board, uint64_t seed, int64_t first_game, int64_t ngames, Nets nets,
                  bint cube=False, int cube_value=1, owner="centred", int max_cube=64,
                  bint cube_disabled=False, bint jacoby=False, bint beaver=False,
                  int backgammon_value=3, score=None, bint post_crawford=False,
                  CubeTable table=None, bint vr=False, int64_t truncate=-1, int rotation=2,
                  int rot_offset=0, bint no_double=False, Cancel cancel=None):
    """Statistics ``(1296, ROLLOUT_FIELDS)`` int64 of games first_game.. of a
    rollout with the net ``nets`` (bg_rollout_range: fixed-point sums per
    stratum).  ``owner`` and ``score`` (``(away, opponent_away)`` or None for
    money) are the starting player's; ``no_double``: that player does not
    double at its first turn.  The GIL is released; stops on Ctrl-C
    (main thread) or when ``cancel`` is set."""
    cdef const int8_t *b = _board_ptr(board)
    cdef bg_rollout_opts o
    cdef int r
    cdef int64_t[:, ::1] stats
    cdef bg_cancel c
    _check_playing(b)
    if nets is None:
        raise ValueError("rollout_games needs nets")
    if ngames < 0 or first_game < 0:
        raise ValueError("game numbers must be >= 0")
    if not 0 <= rotation <= 3 or not 0 <= rot_offset < 36 or backgammon_value not in (2, 3):
        raise ValueError("rotation is 0..3, rot_offset 0..35, backgammon_value 2 or 3")
    memset(&o, 0, sizeof(o))
    _cube_ctx(&o.ctx, cube_value, owner, 0.68, max_cube, cube_disabled, jacoby, beaver, score,
              post_crawford, table)
    o.cube_on = cube
    o.backgammon_value = backgammon_value
    o.vr = vr
    o.truncate = truncate
    o.rotation = rotation
    o.rot_offset = rot_offset
    o.no_double = no_double
    _cancel_init(&c, cancel, 1 if vr else _NET_POLL)
    out = np.zeros((BG_STRATA, BG_RX_FIELDS), dtype=np.int64)
    stats = out
    with nogil:
        r = bg_rollout_range(b, seed, first_game, ngames, &o, &stats[0, 0], &nets.ev, &c)
    if r == BG_E_CANCELLED:
        _raise_cancelled()
    if r == -1:
        raise MemoryError()
    if r == BG_E_TOO_LONG:
        raise RolloutError(f"a game passed {BG_MAX_PLIES:,} plies without ending")
    if r == BG_E_CUBE:
        raise RolloutError("a cube decision refused the evaluator's chances")
    return out


def scheduled_roll(int64_t game, int ply, int rotation, int rot_offset=0):
    """The ordered roll (0..35, 6 (d1 - 1) + d2 - 1) that rotation schedules
    for ply ``ply`` < ``rotation`` of game ``game`` (bg_roll_sched)."""
    cdef bg_rollout_opts o
    cdef int d1, d2
    if not 0 <= ply < rotation <= 3 or game < 0 or not 0 <= rot_offset < 36:
        raise ValueError("ply < rotation <= 3, game >= 0 and rot_offset 0..35")
    memset(&o, 0, sizeof(o))
    o.rotation = rotation
    o.rot_offset = rot_offset
    bg_roll_sched(NULL, game, ply, &o, &d1, &d2)
    return 6 * (d1 - 1) + d2 - 1


# ----------------------------------------------------------------------
# encoders and environments (encode.h, venv.h)

include "env.pxi"
