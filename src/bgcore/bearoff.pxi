# bearoff.pxi: included by _bgcore.pyx. The one-sided bear-off database (bearoff.h).

# The one-sided bear-off database (bearoff.h, issue 10)
#
# Built once, at first use, under a lock and with the GIL released (about
# 50 ms); afterwards only read, so C code may use it from any thread without
# the GIL.  It lives as long as the module.  Other core code in this module
# gets the tables with `_bearoff_db()` and hands the pointer to C:
#
#     cdef const bg_bearoff *db = _bearoff_db()     # builds on first use; MemoryError
#     with nogil:
#         if bg_bearoff_applies(b):
#             bg_bearoff_probs(db, b, out)            # out: float[5], gnubg's outputs




cdef int _bearoff_exact(const void *ctx, const int8_t *b, float *out) noexcept nogil:
    """bg_exact_fn of the nets: the bear-off database's exact chances."""
    if bg_bearoff_applies(b):
        bg_bearoff_probs(<const bg_bearoff *>ctx, b, out)
        return 1
    return 0


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
    return _bearoff_views(_bearoff_db())


cdef tuple _bearoff_views(const bg_bearoff *db):
    """Read-only views of db's tables (off, first, mean, mean_first)."""
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
        v.flags.writeable = False   # db's memory: the module's database is shared and only read
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


def _bearoff_reference_tables():
    """For the tests: copies of the tables (as bearoff_tables) of
    bg_bearoff_build_reference, the build from the move generator."""
    cdef bg_bearoff tmp
    cdef int r
    with nogil:
        r = bg_bearoff_build_reference(&tmp)
    if r != 0:
        raise MemoryError("no memory for the bear-off database (14 MB)")
    try:
        return tuple(v.copy() for v in _bearoff_views(&tmp))
    finally:
        bg_bearoff_free(&tmp)


def _bearoff_check_steps():
    """For the tests: the number of (position, roll) pairs where the build's
    chained single steps and bg_generate give different sets of results."""
    cdef int64_t bad
    with nogil:
        bad = bg_bearoff_check_steps()
    if bad < 0:
        raise MemoryError("no memory for the bear-off check")
    return int(bad)
