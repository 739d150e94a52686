# playout.pxi: included by _bgcore.pyx. pubeval and whole-game playouts (playout.h).

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


# PlayCache's binding for rollout_games' choices, which keep their chances too
# (bg_choice_probs; + 1 with luck adjustment, which wants a single play's chances
# too): distinct from every policy code, so no two kinds share entries
cdef int _CHOICES_WITH_CHANCES = 100


cdef class PlayCache:
    """The first two plies' choices of a rollout's games, kept between the
    chunks one thread plays (bg_choice in playout.h): the same plays, found
    once.  Bound to one policy and nets: used with others, it starts empty.
    One thread at a time."""
    cdef bg_play_slot *slots
    cdef int policy
    cdef object nets          # the Nets its choices are of (kept alive), or None
    cdef const void *prune
    cdef int keep
    cdef float margin

    def __cinit__(self):
        self.slots = bg_play_cache_new()
        if self.slots == NULL:
            raise MemoryError()
        self.policy = -1

    def __dealloc__(self):
        free(self.slots)

    cdef bg_play_slot *bound(self, int policy, Nets nets):
        """The table for choices of ``policy`` with ``nets``, emptied if it held others'."""
        cdef const void *prune = NULL
        cdef int keep = 0
        cdef float margin = 0.0
        if nets is not None:     # set_pruning may change a Nets' screen
            prune = <const void *>nets.ev.prune
            keep = nets.ev.keep
            margin = nets.ev.margin
        if (policy != self.policy or nets is not self.nets or prune != self.prune
                or keep != self.keep or margin != self.margin):
            memset(self.slots, 0, sizeof(bg_play_slot) * BG_PLAY_CACHE_SLOTS)
            self.policy = policy
            self.nets = nets
            self.prune = prune
            self.keep = keep
            self.margin = margin
        return self.slots


def _play_cache_slot(bytes board, int d1, int d2):
    """The slot of PlayCache's table that (board, d1, d2) takes (for the tests:
    a board's rolls must spread over the table, not share a few slots)."""
    cdef int8_t key[32]
    cdef const int8_t *b = _board_ptr(board)
    return bg_play_slot_index(b, d1, d2, key)


def playout(bytes board, uint64_t seed, int64_t first_game, int64_t ngames,
            int policy, bint stratify, Cancel cancel=None, Nets nets=None,
            PlayCache cache=None):
    """Statistics ``(1296, 9)`` int64 of games first_game.. of a rollout with a
    built-in policy (0 random, 1 pubeval, 2 the net ``nets``); the GIL is
    released.  Stops on Ctrl-C (main thread) or when ``cancel`` is set.
    ``cache`` remembers the first two plies' choices from one call to the
    next (None: none); the statistics are the same with or without."""
    cdef const int8_t *b = _board_ptr(board)
    cdef int r
    cdef int64_t[:, ::1] stats
    cdef bg_cancel c
    cdef const bg_evaluator *ev = NULL
    cdef bg_play_slot *slots = NULL
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
    if cache is not None:
        slots = cache.bound(policy, nets)
    out = _stats_array()
    stats = out
    with nogil:
        r = bg_playout_range(b, seed, first_game, ngames, policy, &_PE, stratify,
                             &stats[0, 0], ev, &c, slots)
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
