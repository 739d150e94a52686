# rollout.pxi: included by _bgcore.pyx. Rollouts with the cube, luck adjustment, truncation, rotation (playout.h).

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
                  int rot_offset=0, bint no_double=False, Cancel cancel=None,
                  PlayCache cache=None):
    """Statistics ``(1296, ROLLOUT_FIELDS)`` int64 of games first_game.. of a
    rollout with the net ``nets`` (bg_rollout_range: fixed-point sums per
    stratum).  ``owner`` and ``score`` (``(away, opponent_away)`` or None for
    money) are the starting player's; ``no_double``: that player does not
    double at its first turn.  ``cache`` remembers the first two plies'
    choices and their chances from one call to the next (None: none; with
    ``vr``, those of every roll); the statistics are the same with or
    without.  The GIL is released; stops on Ctrl-C (main thread) or when
    ``cancel`` is set."""
    cdef const int8_t *b = _board_ptr(board)
    cdef bg_rollout_opts o
    cdef int r
    cdef int64_t[:, ::1] stats
    cdef bg_cancel c
    cdef bg_play_slot *slots = NULL
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
    if cache is not None:
        slots = cache.bound(_CHOICES_WITH_CHANCES + vr, nets)   # vr: every roll's chances
    out = np.zeros((BG_STRATA, BG_RX_FIELDS), dtype=np.int64)
    stats = out
    with nogil:
        r = bg_rollout_range(b, seed, first_game, ngames, &o, &stats[0, 0], &nets.ev, &c, slots)
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
