# nn.pxi: included by _bgcore.pyx. The neural evaluator (nn.h): the Nets class, encodings, training checks.

from nn cimport *
from train cimport *
from sgd cimport *

NN_INPUTS = BG_NN_NIN
NN_INPUTS_BY_ENCODING = {1: BG_NN_NIN, 2: BG_NN_NIN2, 3: BG_NN_NIN3, 4: BG_NN_NIN4, 5: BG_NN_NIN5, 6: BG_NN_NIN6}
NN_FEATURES_BY_ENCODING = {1: BG_NN_NFEAT, 2: BG_NN_NFEAT2, 3: BG_NN_NFEAT3, 4: BG_NN_NFEAT4, 5: BG_NN_NFEAT5}
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


# The integer kernels of quantised nets (nn/quant.h): the best this CPU runs,
# the baseline (SSE2) with BACKGAMMON_NO_AVX2=1; every target answers alike.
NN_QUANT_TARGETS = {"plain": BG_Q_PLAIN, "sse2": BG_Q_SSE2, "avx2": BG_Q_AVX2,
                    "vnni": BG_Q_VNNI, "neon": BG_Q_NEON}
NN_QUANT_HBITS = BG_Q_HBITS
NN_QUANT_ALIGN = BG_Q_ALIGN
NN_QUANT_OUTROWS = BG_Q_OUTROWS
bg_q_init(BG_Q_SSE2 if _os.environ.get("BACKGAMMON_NO_AVX2") == "1" else BG_Q_NEON)


def nn_quant_targets():
    """The integer kernels this build and CPU can run, by name (``"plain"``
    always; ``"sse2"``, ``"avx2"``, ``"vnni"`` on x86-64, ``"neon"`` on arm64)."""
    return [name for name, t in NN_QUANT_TARGETS.items() if bg_q_has(t)]


def nn_quant_target(name=None):
    """The integer kernels in use by name; with ``name``, switches to them first
    (for tests and benchmarks, not while other threads evaluate)."""
    if name is not None:
        if name not in NN_QUANT_TARGETS or not bg_q_set_target(NN_QUANT_TARGETS[name]):
            raise ValueError(f"integer kernels {name!r}: this CPU runs "
                             f"{', '.join(nn_quant_targets())}")
    return {t: n for n, t in NN_QUANT_TARGETS.items()}[bg_q_target]


def nn_use_avx2(bint allow):
    """Switches the AVX2 kernels on (when the CPU has them) or off; for tests
    and benchmarks, not while other threads evaluate.  Returns the state."""
    global NN_AVX2
    NN_AVX2 = bool(bg_nn_init_cpu(allow))
    return NN_AVX2


cdef class Nets:
    """The contact, race and (optionally) crashed nets over padded float32 arrays.

    ``arrays`` is ``(w1, b1, w2, b2, wm, bm)`` of each net in the order
    contact, race, crashed: ``w1`` ``(inputs, hpad)`` input-major, ``b1``
    ``(hpad,)``, ``w2`` ``(5, opad)``, ``b2`` ``(5,)``, and a second hidden
    layer's ``wm`` ``(mpad, hpad)`` unit-major and ``bm`` ``(mpad,)``; hpad
    and mpad multiples of 8 whose entries past ``hidden[c]`` and
    ``middle[c]`` are zero, opad mpad with a middle layer and hpad without
    (``wm`` ``(0, hpad)`` and ``bm`` ``(0,)`` then); ``inputs`` that of
    ``encoding`` (1: 204, 2: 224, 3: 238).  ``crelu``: the nets with a middle
    layer use the clipped ReLU in their first layer (nn.h).  With two nets crashed positions
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
    cdef readonly bint crelu
    cdef bg_qnet qn[3]
    cdef readonly tuple qarrays    # the quantised nets' arrays (quantise), or None
    cdef tuple qscales             # their first layers' float scales, kept alive here
    cdef readonly object pruning   # the screening Nets of set_pruning, or None
    cdef readonly int keep
    cdef readonly float margin

    def __init__(self, arrays, hidden, int encoding=1, middle=None, bint crelu=False):
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
                self.nn.net[c].act = BG_NN_CRELU if crelu else BG_NN_SOFT
        self.encoding = encoding
        self.crelu = crelu
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

    def quantise(self, nets):
        """Evaluates with the integer kernels from now on (nn/quant.h), or
        with the float ones again when ``nets`` is None.  ``nets`` holds, for
        each net, ``(w1, b1, wd, bd, w2, b2, s1, s2)`` as
        backgammon.nn.quant makes them: int16 ``w1`` ``(inputs, hq)`` and
        ``b1`` ``(hq,)`` (hq a multiple of NN_QUANT_ALIGN), int16 ``wd``
        ``(rows, hq)``, float32 ``bd`` ``(rows,)``, float32 ``w2`` ``(5,
        rows)`` and ``b2`` ``(5,)`` with a middle layer of ``rows`` units,
        else ``(5, 0)`` and ``(0,)`` with ``rows`` NN_QUANT_OUTROWS; the shifts
        ``s1`` (one a first-layer unit, ``(hq,)`` integers; all equal with the
        clipped ReLU) and ``s2`` (an int).  The arrays' bounds (no sum overflows) are the
        caller's to keep.  Only nets of encodings 5 and 6 (binary inputs).  Call it before the nets
        are used, not while other threads evaluate."""
        cdef const int16_t[:, ::1] w1, wd
        cdef const int16_t[::1] b1
        cdef const float[::1] bd, b2
        cdef const float[:, ::1] w2
        cdef int c, hq, rows, mid
        cdef bint crelu
        cdef int s1
        cdef const float[::1] scv
        if nets is None:
            for c in range(self.nn.nnets):
                self.nn.net[c].q = NULL
            self.qarrays = None
            self.qscales = None
            return
        nets = tuple(tuple(n) for n in nets)
        if self.encoding not in (5, 6):
            raise ValueError(f"only nets of encodings 5 and 6 run quantised, these are of "
                             f"{self.encoding}")
        if len(nets) != self.nn.nnets or any(len(n) != 8 for n in nets):
            raise ValueError(f"quantise needs 8 items for each of the {self.nn.nnets} nets")
        scales = []
        for c in range(self.nn.nnets):
            w1, b1, wd, bd, w2, b2 = nets[c][:6]
            hq = w1.shape[1]
            shifts = np.asarray(nets[c][6])
            if (shifts.shape != (hq,) or shifts.dtype.kind not in "iu"
                    or (len(shifts) and not (0 <= shifts.min() and shifts.max() <= 30))):
                raise ValueError(f"quantised net {c}: s1 must be {hq} shifts from 0 to 30")
            s1 = int(shifts[0]) if len(shifts) else 0
            sc = np.ascontiguousarray(np.ldexp(np.float32(1.0), -shifts.astype(np.int32)),
                                      dtype=np.float32)
            scales.append(sc)
            rows = wd.shape[0]
            mid = w2.shape[1]
            if (w1.shape[0] != self.nn.net[c].nin or hq % BG_Q_ALIGN or hq > BG_NN_MAXH
                    or hq < self.nn.net[c].hpad or b1.shape[0] != hq or wd.shape[1] != hq
                    or bd.shape[0] != rows or w2.shape[0] != BG_NN_NOUT or b2.shape[0] != 5 * (mid > 0)
                    or (mid and (mid != rows or mid % 8 or mid > BG_NN_MAXMID))
                    or (not mid and rows != BG_Q_OUTROWS)
                    or not 0 <= nets[c][7] <= 30):
                raise ValueError(f"quantised net {c}: arrays of the wrong shapes")
            crelu = self.nn.net[c].act == BG_NN_CRELU
            if crelu and (s1 > 14 or (shifts != s1).any()):
                raise ValueError(f"quantised net {c}: a clipped ReLU takes one shift for all "
                                 "units, at most 14 (2**s1 is an int16)")
        for c in range(self.nn.nnets):   # all checked: now in place, none half done
            w1, b1, wd, bd, w2, b2 = nets[c][:6]
            hq = w1.shape[1]
            rows = wd.shape[0]
            mid = w2.shape[1]
            s1 = int(nets[c][6][0])
            scv = scales[c]
            crelu = self.nn.net[c].act == BG_NN_CRELU
            self.qn[c].hpad = hq
            self.qn[c].mid = mid
            self.qn[c].drows = rows
            self.qn[c].s1 = &scv[0]
            self.qn[c].crelu = crelu
            self.qn[c].top = 1 << s1 if crelu else 0
            self.qn[c].s2 = 2.0 ** -((s1 if crelu else BG_Q_HBITS) + int(nets[c][7]))
            self.qn[c].w1 = &w1[0, 0]
            self.qn[c].b1 = &b1[0]
            self.qn[c].wd = &wd[0, 0]
            self.qn[c].bd = &bd[0]
            self.qn[c].w2 = &w2[0, 0] if mid else NULL
            self.qn[c].b2 = &b2[0] if mid else NULL
        self.qarrays = nets
        self.qscales = tuple(scales)
        for c in range(self.nn.nnets):
            self.nn.net[c].q = &self.qn[c]

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
    if encoding in (4, 6):
        _bearoff_db()   # encoding 4's and 6's race inputs read its means (built on first use)
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
    if encoding in (4, 6):
        _bearoff_db()
    bg_nn_scan(b, &sc)
    n = bg_nn_features_enc(encoding, b, &sc, f)
    return [f[i] for i in range(n)]


def nn3_escapes(int pattern):
    """Encoding 3's escape count: rolls (of 36) with which a lone checker gets
    past the farthest blocked point of the 12 in front of it (bit j of
    ``pattern``: the point j + 1 pips ahead is blocked; nn/feat3.h)."""
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
