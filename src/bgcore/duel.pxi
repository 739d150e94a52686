# duel.pxi: included by _bgcore.pyx. Duels between two policies over duplicate dice (playout.h).

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
