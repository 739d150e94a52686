# movegen.pxi: included by _bgcore.pyx. Move generation: validation, successors, plays, perft (movegen.h).

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
