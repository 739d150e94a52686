# Encoders, turns step by step with action masks, and vector environments
# (encode.h, venv.h).  Included by _bgcore.pyx: thin wrappers only, the loops
# are in the headers and run without the GIL.
from libc.stdint cimport int32_t, uint32_t, uint64_t

from encode cimport *
from venv cimport *

ENCODINGS = {"tesauro": BG_ENC_TESAURO, "openspiel": BG_ENC_OPENSPIEL, "pgx": BG_ENC_PGX,
             "net": BG_ENC_NET}
NET_ENCODING = BG_NN_ENCODING
MICRO_ACTIONS = BG_MICRO_N
OPP_SELF = BG_OPP_SELF
OPENSPIEL_ACTIONS = BG_OS_N


def encoding_size(int kind):
    return bg_enc_size(kind)


def encode(const int8_t[:, ::1] boards, int kind, const uint8_t[:, ::1] dice=None,
           const uint8_t[::1] seats=None):
    """float32 (n, k) encodings of n boards (encode.h); dice (n, 2) or None,
    seats (n,) 0/1 or None (all 0).  Rows are validated first."""
    cdef Py_ssize_t n = boards.shape[0], i
    cdef int k = bg_enc_size(kind), code, d1 = 0, d2 = 0, seat = 0
    if k < 0:
        raise ValueError(f"unknown encoding code {kind}")
    if boards.shape[1] != BG_NPTS:
        raise InvalidPositionError(f"boards must have {BG_NPTS} columns, got {boards.shape[1]}")
    if dice is not None and (dice.shape[0] != n or dice.shape[1] != 2):
        raise InvalidDiceError(f"dice must be an (n, 2) array for {n} boards, got "
                               f"({dice.shape[0]}, {dice.shape[1]})")
    if seats is not None and seats.shape[0] != n:
        raise ValueError(f"player must have one seat per board ({n}), got {seats.shape[0]}")
    for i in range(n):
        code = bg_validate(&boards[i, 0])
        if code != BG_OK:
            raise InvalidPositionError(
                f"row {i}: {_VALIDATION_MESSAGES[code]}: {np.asarray(boards[i]).tolist()}")
        if dice is not None and not (
                (dice[i, 0] == 0 and dice[i, 1] == 0)
                or (1 <= dice[i, 0] <= 6 and 1 <= dice[i, 1] <= 6)):
            raise InvalidDiceError(f"row {i}: dice must be two integers from 1 to 6 "
                                   f"(or 0, 0: not rolled), got {np.asarray(dice[i]).tolist()}")
        if seats is not None and seats[i] > 1:
            raise ValueError(f"row {i}: a seat is 0 or 1, got {seats[i]}")
    out = np.empty((n, k), dtype=np.float32)
    cdef float[:, ::1] o = out
    if n == 0:
        return out
    with nogil:
        for i in range(n):
            if dice is not None:
                d1 = dice[i, 0]
                d2 = dice[i, 1]
            if seats is not None:
                seat = seats[i]
            bg_encode(kind, &boards[i, 0], seat, d1, d2, NULL, &o[i, 0])
    return out


cdef class Turn:
    """A turn in progress, step by step (venv.h): the board seen from the
    mover, the dice still to play and the masks of the legal action ids."""
    cdef bg_turn t

    def __init__(self, bytes board, int seat, int d1, int d2):
        cdef const int8_t *b = _board_ptr(board)
        cdef bg_gen *g
        _check_playing(b)
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise InvalidDiceError(f"dice must be two integers from 1 to 6, got ({d1}, {d2})")
        if seat not in (0, 1):
            raise ValueError(f"a seat is 0 or 1, got {seat}")
        g = _acquire()
        try:
            if bg_turn_begin(&self.t, g, b, seat, d1, d2) != 0:
                raise MemoryError()
        finally:
            _release(g)

    def copy(self):
        cdef Turn c = Turn.__new__(Turn)
        c.t = self.t
        return c

    def __reduce__(self):
        # copy.deepcopy and pickle: the turn's bytes (a plain C struct)
        return (_turn_from_bytes, (PyBytes_FromStringAndSize(<char *>&self.t, sizeof(bg_turn)),))

    @property
    def board(self):
        return PyBytes_FromStringAndSize(<char *>self.t.b, BG_NPTS)

    @property
    def need(self):
        """Steps still due this turn (0: the turn is over)."""
        return self.t.need

    @property
    def dice(self):
        return (self.t.d1, self.t.d2)

    @property
    def seat(self):
        return self.t.seat

    @property
    def left(self):
        """The dice still to play, highest first."""
        return tuple(d for d in range(6, 0, -1) for _ in range(self.t.left[d]))

    def micro_mask(self):
        out = np.zeros(BG_MICRO_N, dtype=np.uint8)
        cdef uint8_t[::1] m = out
        bg_turn_micro_mask(&self.t, &m[0])
        return out.view(np.bool_)

    def openspiel_mask(self):
        out = np.zeros(BG_OS_N, dtype=np.uint8)
        cdef uint8_t[::1] m = out
        bg_turn_os_mask(&self.t, &m[0])
        return out.view(np.bool_)

    def step(self, int src, int die):
        """Makes the step if legal; returns whether it was (else nothing changed)."""
        return bg_turn_step(&self.t, src, die) == 0

    def micro(self, int id):
        """Makes micro action ``id`` if legal (a no-op only when no step is due)."""
        cdef int src, d, k = bg_micro_decode(id, &src, &d)
        if k < 0:
            return False
        if k == 1:
            return self.t.need == 0
        return bg_turn_step(&self.t, src, d) == 0

    def openspiel(self, int id):
        """Makes OpenSpiel action ``id`` (a half-turn) if legal."""
        return bg_turn_os_step(&self.t, id) == 0

    def encode(self, int kind):
        out = np.empty(bg_enc_size(kind), dtype=np.float32)
        cdef float[::1] o = out
        if bg_encode(kind, self.t.b, self.t.seat, self.t.d1, self.t.d2, self.t.left, &o[0]) != 0:
            raise ValueError(f"unknown encoding code {kind}")
        return out


def _turn_from_bytes(bytes state):
    """The Turn that Turn.__reduce__ saved."""
    cdef Turn c = Turn.__new__(Turn)
    if <size_t>len(state) != sizeof(bg_turn):
        raise ValueError(f"a saved turn is {sizeof(bg_turn)} bytes, got {len(state)}")
    memcpy(&c.t, <const char *>state, sizeof(bg_turn))
    return c


def micro_id(int src, int die):
    if not (1 <= src <= 25 and 1 <= die <= 6):
        raise ValueError(f"a step starts on 1..25 with a die 1..6, got ({src}, {die})")
    return bg_micro_id(src, die)


def micro_decode(int id):
    """(src, die) of a micro id, (None, die) for a no-op."""
    cdef int src = 0, d = 0, k = bg_micro_decode(id, &src, &d)
    if k < 0:
        raise ValueError(f"a micro action id is 0..{BG_MICRO_N - 1}, got {id}")
    return (None if k == 1 else src, d)


def openspiel_id(int seat, bint low_first, int s1, int s2):
    return bg_os_id(seat, low_first, s1, s2)


def openspiel_src(int seat, int digit):
    return bg_os_src(seat, digit)


cdef class VecEnv:
    """n games against a built-in opponent stepped in lockstep (venv.h).

    Observations, masks, rewards and flags live in arrays owned here and
    are updated in place by reset() and step(); the GIL is released while
    the games run.  Slot k of seed s draws its dice from streams seeded by
    (s, k, episode) alone."""
    cdef bg_vgame *games
    cdef bg_rng *pick           # per slot: streams of sample_actions
    cdef bg_venv_cfg cfg
    cdef bg_gen *gen
    cdef bg_gen **gens          # one scratch generator per stepping thread (gens[0] = gen)
    cdef readonly int nthreads
    cdef object pool
    cdef readonly Py_ssize_t n
    cdef readonly int obs_size, mask_size, max_candidates
    cdef readonly bint dice_units   # 6 units after the encoding: dice still to play per face
    cdef bytes start
    cdef int8_t sb[32]
    cdef readonly object obs, mask, reward, terminated, truncated, episode, status, to_play
    cdef readonly object dice       # per slot: the turn in progress's dice as rolled (d1, d2)
    cdef readonly object final_obs  # per slot: the observation its last game ended on
    cdef float[:, ::1] _final
    cdef float[:, ::1] _obs
    cdef uint8_t[:, ::1] _mask
    cdef float[::1] _reward
    cdef uint8_t[::1] _term, _trunc
    cdef int32_t[::1] _status
    cdef uint8_t[::1] _to_play
    cdef uint8_t[:, ::1] _dice
    cdef readonly bint selfplay     # BG_OPP_SELF: the agent plays both seats
    cdef Nets nets

    def __cinit__(self):
        self.games = NULL
        self.pick = NULL
        self.gen = NULL
        self.gens = NULL
        self.nthreads = 0

    def __init__(self, Py_ssize_t n, int actions, int enc, int policy, Nets nets=None,
                 bytes start=None, int max_candidates=0, int threads=1, bint dice_units=False):
        cdef int k
        if n < 1:
            raise ValueError(f"a vector env needs at least one game, got {n}")
        if bg_enc_size(enc) < 0:
            raise ValueError(f"unknown encoding code {enc}")
        if actions not in (BG_ACT_MICRO, BG_ACT_OPENSPIEL, BG_ACT_AFTERSTATE):
            raise ValueError(f"unknown action kind {actions}")
        if actions == BG_ACT_AFTERSTATE and max_candidates < 1:
            raise ValueError("the afterstate actions need max_candidates >= 1")
        if actions == BG_ACT_AFTERSTATE and dice_units:
            raise ValueError("the afterstate actions show every result: no dice units")
        self.dice_units = dice_units
        self.n = n
        self.start = start if start is not None else bytes(
            bytearray(b % 256 for b in (0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0,
                                        -3, 0, -5, 0, 0, 0, 0, 2, 0)))
        _check_playing(_board_ptr(self.start))
        memset(self.sb, 0, 32)
        memcpy(self.sb, <const char *>self.start, BG_NPTS)
        memset(&self.cfg, 0, sizeof(self.cfg))
        self.cfg.actions = actions
        self.cfg.enc = enc
        self.cfg.pe = &_PE
        if policy == BG_OPP_EXTERNAL or policy == BG_OPP_SELF:
            self.cfg.opp.policy = policy
            self.cfg.opp.ev = NULL
        else:
            _player(policy, nets, &self.cfg.opp)
        self.nets = nets
        self.max_candidates = max_candidates
        k = bg_enc_size(enc)
        if actions == BG_ACT_AFTERSTATE:
            self.obs_size = k * (1 + max_candidates)
            self.mask_size = max_candidates
        else:
            self.obs_size = k + (6 if dice_units else 0)
            self.mask_size = BG_MICRO_N if actions == BG_ACT_MICRO else BG_OS_N
        self.games = <bg_vgame *>calloc(n, sizeof(bg_vgame))
        self.pick = <bg_rng *>calloc(n, sizeof(bg_rng))
        if not 1 <= threads <= 256:
            raise ValueError(f"threads is 1..256, got {threads}")
        self.gens = <bg_gen **>calloc(threads, sizeof(bg_gen *))
        if self.gens == NULL:
            raise MemoryError()
        self.nthreads = threads
        for k in range(threads):
            self.gens[k] = bg_gen_new()
            if self.gens[k] == NULL:
                raise MemoryError()
        self.gen = self.gens[0]
        if threads > 1:
            from concurrent.futures import ThreadPoolExecutor
            self.pool = ThreadPoolExecutor(max_workers=threads - 1,
                                           thread_name_prefix="backgammon-venv")
        if self.games == NULL or self.pick == NULL:
            raise MemoryError()
        self.obs = np.zeros((n, self.obs_size), dtype=np.float32)
        self.mask = np.zeros((n, self.mask_size), dtype=np.uint8)
        self.reward = np.zeros(n, dtype=np.float32)
        self.terminated = np.zeros(n, dtype=np.uint8)
        self.truncated = np.zeros(n, dtype=np.uint8)
        self.episode = np.zeros(n, dtype=np.uint64)
        self.status = np.zeros(n, dtype=np.int32)
        self.to_play = np.zeros(n, dtype=np.uint8)
        self.dice = np.zeros((n, 2), dtype=np.uint8)
        self._dice = self.dice
        self.final_obs = np.zeros((n, self.obs_size), dtype=np.float32)
        self._final = self.final_obs
        self._to_play = self.to_play
        self.selfplay = policy == BG_OPP_SELF
        self._obs = self.obs
        self._mask = self.mask
        self._reward = self.reward
        self._term = self.terminated
        self._trunc = self.truncated
        self._status = self.status

    def __dealloc__(self):
        cdef int k
        free(self.games)
        free(self.pick)
        if self.gens != NULL:
            for k in range(self.nthreads):
                if self.gens[k] != NULL:
                    bg_gen_free(self.gens[k])
            free(self.gens)

    cdef int _fill(self, Py_ssize_t i, bg_gen *gen) noexcept nogil:
        """Observation and mask of slot i; -1 when its plays overflow the candidates."""
        cdef bg_vgame *v = &self.games[i]
        cdef int k = bg_enc_size(self.cfg.enc)
        cdef int64_t start, m, j
        cdef float *o = &self._obs[i, 0]
        cdef int d
        self._to_play[i] = v.t.seat
        self._dice[i, 0] = v.t.d1
        self._dice[i, 1] = v.t.d2
        if self.cfg.actions != BG_ACT_AFTERSTATE:
            bg_vg_observe(v, &self.cfg, o)
            bg_vg_mask(v, &self.cfg, &self._mask[i, 0])
            if self.dice_units:
                # the agent's dice still to play, by face (a double: up to 4)
                for d in range(1, 7):
                    o[k + d - 1] = v.t.left[d] if ((v.t.seat == 0 or self.selfplay)
                                                   and v.t.need > 0) else 0
            return 0
        bg_encode(self.cfg.enc, v.t.b, 0, v.t.d1, v.t.d2, v.t.left, o)
        memset(o + k, 0, sizeof(float) * k * self.max_candidates)
        memset(&self._mask[i, 0], 0, self.max_candidates)
        if (v.t.seat != 0 and not self.selfplay) or v.t.need <= 0:
            return 0
        start = gen.out.n
        m = bg_generate(gen, v.t.b, v.t.d1, v.t.d2)
        if m < 0 or m > self.max_candidates:
            gen.out.n = start
            return -1
        for j in range(m):
            bg_encode(self.cfg.enc, gen.out.pos + (start + j) * BG_NPTS, 0, 0, 0, NULL,
                      o + k * (1 + j))
            self._mask[i, j] = 1
        gen.out.n = start
        return 0

    cdef int _settle(self, Py_ssize_t i, int r, bint autoreset, bg_gen *gen) noexcept nogil:
        """Records result r of slot i; with autoreset begins its next episode."""
        while True:
            if r == 0 or r == BG_VG_OPP_TO_MOVE:
                self._status[i] = r
                return self._fill(i, gen)
            if r == -100:
                return -2
            if r == 100:
                self._trunc[i] = 1
            else:
                self._reward[i] += r
                self._term[i] = 1
            # the last observation of the game: the final board, seen by the agent
            # (the mover in self-play), no dice; no candidates with afterstate ids
            memset(&self._final[i, 0], 0, sizeof(float) * self.obs_size)
            bg_encode(self.cfg.enc, self.games[i].t.b, 0, 0, 0, NULL, &self._final[i, 0])
            if not autoreset:
                self._status[i] = r
                return 0
            self.games[i].episode += 1
            r = bg_vg_reset(&self.games[i], &self.cfg, gen, <uint64_t>i, self.sb)

    cdef _check(self, int r):
        if r == -2:
            raise MemoryError()
        if r == -1:
            raise RolloutError(f"a roll has more distinct plays than max_candidates="
                               f"{self.max_candidates}; raise it")

    def reset(self, uint64_t seed):
        cdef Py_ssize_t i
        cdef int r = 0, worst = 0
        self.cfg.seed = seed
        self.reward[:] = 0
        self.terminated[:] = 0
        self.truncated[:] = 0
        with nogil:
            for i in range(self.n):
                bg_rng_seed(&self.pick[i], seed ^ 0x5851F42D4C957F2DULL, <uint64_t>i)
                self.games[i].episode = 0
                r = bg_vg_reset(&self.games[i], &self.cfg, self.gen, <uint64_t>i, self.sb)
                r = self._settle(i, r, True, self.gen)
                if r < worst:
                    worst = r
        self._check(worst)
        self._sync_episodes()

    cdef _sync_episodes(self):
        cdef Py_ssize_t i
        cdef uint64_t[::1] e = self.episode
        for i in range(self.n):
            e[i] = self.games[i].episode

    def next_episode(self, Py_ssize_t i):
        """Begins slot i's next episode (its dice stream moves on)."""
        cdef int r
        if not 0 <= i < self.n:
            raise IndexError(f"slot {i} of {self.n}")
        self._reward[i] = 0
        self._term[i] = 0
        self._trunc[i] = 0
        self.games[i].episode += 1
        r = bg_vg_reset(&self.games[i], &self.cfg, self.gen, <uint64_t>i, self.sb)
        self._check(self._settle(i, r, False, self.gen))
        self._sync_episodes()

    cdef int _step_range(self, Py_ssize_t lo, Py_ssize_t hi, const int64_t[::1] actions,
                         uint8_t[::1] bad, bint autoreset, bg_gen *gen) noexcept nogil:
        """Steps slots lo..hi-1 (one thread's share); returns the worst _settle code."""
        cdef Py_ssize_t i
        cdef int r, res, worst = 0
        for i in range(lo, hi):
            self._reward[i] = 0
            self._term[i] = 0
            self._trunc[i] = 0
            if self._status[i] != 0 or actions[i] < 0 or actions[i] > 1 << 30:
                bad[i] = 1
                continue
            r = bg_vg_act(&self.games[i], &self.cfg, gen, <int>actions[i], &res)
            if r == -100:
                worst = -2
                continue
            if r != 0:
                bad[i] = 1
                continue
            r = self._settle(i, res, autoreset, gen)
            if r < worst:
                worst = r
        return worst

    def _chunk(self, Py_ssize_t k, const int64_t[::1] actions, uint8_t[::1] bad,
               bint autoreset):
        """Thread k's share of a step, without the GIL."""
        cdef Py_ssize_t lo = self.n * k // self.nthreads, hi = self.n * (k + 1) // self.nthreads
        cdef int r
        cdef bg_gen *gen = self.gens[k]
        with nogil:
            r = self._step_range(lo, hi, actions, bad, autoreset, gen)
        return r

    def step(self, const int64_t[::1] actions, bint autoreset=True):
        """Applies one action per slot.  Returns the slots whose id was
        illegal (those did not move), as an int64 array.  With threads > 1
        the slots are split in equal contiguous shares, one per thread; each
        slot's game depends on its own streams only, so the results are the
        same for any number of threads."""
        cdef int worst = 0
        if actions.shape[0] != self.n:
            raise ValueError(f"step needs {self.n} actions, got {actions.shape[0]}")
        bad = np.zeros(self.n, dtype=np.uint8)
        if self.nthreads == 1:
            worst = self._chunk(0, actions, bad, autoreset)
        else:
            futures = [self.pool.submit(self._chunk, k, actions, bad, autoreset)
                       for k in range(1, self.nthreads)]
            worst = self._chunk(0, actions, bad, autoreset)
            for f in futures:
                worst = min(worst, f.result())
        self._check(worst)
        self._sync_episodes()
        return np.flatnonzero(bad).astype(np.int64)

    def sample_actions(self, logits=None):
        """One random legal id per slot (int64 (n,)), drawn in the core from
        per-slot streams of the reset seed: uniformly, or with logits (float64
        (n, mask_size), C order) from their softmax over the legal ids (venv.h's
        bg_sample_softmax).  When a slot's legal logits are NaN, +inf or all
        -inf, nothing is drawn: that slot's row is -2, the others -1."""
        out = np.zeros(self.n, dtype=np.int64)
        cdef int64_t[::1] o = out
        cdef Py_ssize_t i, j, m = self.mask_size
        cdef int64_t count, k
        cdef const uint8_t *row
        cdef const double[:, ::1] lg
        cdef Py_ssize_t bad
        if logits is not None:
            lg = logits
            if lg.shape[0] != self.n or lg.shape[1] != m:
                raise ValueError(f"logits of shape ({self.n}, {m}) needed")
            bad = -1
            with nogil:
                for i in range(self.n):     # every row checked before any stream moves
                    if not bg_softmax_ok(&lg[i, 0], &self._mask[i, 0], m):
                        bad = i
                        break
                if bad < 0:
                    for i in range(self.n):
                        o[i] = bg_sample_softmax(&self.pick[i], &lg[i, 0], &self._mask[i, 0], m)
            if bad >= 0:
                out[:] = -1
                out[bad] = -2
            return out
        with nogil:
            for i in range(self.n):
                row = &self._mask[i, 0]
                count = 0
                for j in range(m):
                    count += row[j]
                if count == 0:
                    o[i] = -1
                    continue
                k = bg_rng_below(&self.pick[i], <uint32_t>count)
                # the k-th legal id (0-based), without a branch on each mask byte
                for j in range(m):
                    k -= row[j]
                    if k < 0:
                        o[i] = j
                        break
        return out

    def opponent_turn(self, Py_ssize_t i):
        """(board, d1, d2) of slot i's pending external opponent turn."""
        cdef bg_turn *t
        if not 0 <= i < self.n:
            raise IndexError(f"slot {i} of {self.n}")
        if self._status[i] != BG_VG_OPP_TO_MOVE:
            raise ValueError(f"slot {i}: no opponent turn is pending")
        t = &self.games[i].t
        return PyBytes_FromStringAndSize(<char *>t.b, BG_NPTS), t.d1, t.d2

    def opponent_done(self, Py_ssize_t i, bytes after, bint autoreset=True):
        """Hands slot i the opponent's result (checked legal by the caller)."""
        cdef const int8_t *a = _board_ptr(after)
        cdef int r
        if not 0 <= i < self.n:
            raise IndexError(f"slot {i} of {self.n}")
        if self._status[i] != BG_VG_OPP_TO_MOVE:
            raise ValueError(f"slot {i}: no opponent turn is pending")
        r = bg_vg_opp_done(&self.games[i], &self.cfg, self.gen, a)
        self._check(self._settle(i, r, autoreset, self.gen))
        self._sync_episodes()

    def get_state(self):
        """Everything that decides the games from here (slots, pick streams, seed and
        the arrays reset/step fill) as a picklable tuple for set_state."""
        cdef Py_ssize_t nb = self.n * sizeof(bg_vgame), nr = self.n * sizeof(bg_rng)
        return (int(self.cfg.seed), PyBytes_FromStringAndSize(<char *>self.games, nb),
                PyBytes_FromStringAndSize(<char *>self.pick, nr), self.obs.copy(),
                self.mask.copy(), self.reward.copy(), self.terminated.copy(),
                self.truncated.copy(), self.episode.copy(), self.status.copy(),
                self.to_play.copy())

    def set_state(self, state):
        """Restores a get_state() of a VecEnv made with the same arguments."""
        cdef bytes games, pick
        cdef uint64_t seed
        cdef Py_ssize_t i
        seed, games, pick, obs, mask, reward, term, trunc, episode, status, to_play = state
        if <size_t>len(games) != <size_t>self.n * sizeof(bg_vgame) \
                or <size_t>len(pick) != <size_t>self.n * sizeof(bg_rng) \
                or np.shape(obs) != self.obs.shape or np.shape(mask) != self.mask.shape:
            raise ValueError("the state is of a vector env of another size or kind")
        self.cfg.seed = seed
        memcpy(self.games, <const char *>games, len(games))
        memcpy(self.pick, <const char *>pick, len(pick))
        self.obs[...] = obs
        self.mask[...] = mask
        self.reward[...] = reward
        self.terminated[...] = term
        self.truncated[...] = trunc
        self.episode[...] = episode
        self.status[...] = status
        self.to_play[...] = to_play
        for i in range(self.n):          # the dice live in the slots' turns
            self._dice[i, 0] = self.games[i].t.d1
            self._dice[i, 1] = self.games[i].t.d2

    def turn(self, Py_ssize_t i):
        """Slot i's turn in progress as a Turn copy (board, dice left, masks)."""
        cdef Turn c = Turn.__new__(Turn)
        if not 0 <= i < self.n:
            raise IndexError(f"slot {i} of {self.n}")
        c.t = self.games[i].t
        return c
