# cube.pxi: included by _bgcore.pyx. Cube decisions (cube.h).

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
        from backgammon.cube.met import extension  # the numbers of the extension past n (cube/met.py)
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
