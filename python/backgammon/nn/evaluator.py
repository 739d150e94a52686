"""The neural evaluator: two small nets (contact and race) run by the core.

An :class:`Evaluator` maps a position, seen by the player on roll before
rolling, to gnubg's five cumulative probabilities (win, win gammon, win
backgammon, lose gammon, lose backgammon) and their cubeless equity.  The
input encoding and the forward pass live in the compiled core (``nn.h``,
described in docs/nn.md); weights are plain float32 arrays saved as a
versioned ``.npz``.

    >>> import backgammon as bg
    >>> ev = bg.Evaluator.default()
    >>> e = ev.evaluate(bg.Position.initial())
    >>> 0.4 < e.win < 0.6 and e.win >= e.win_gammon >= e.win_backgammon
    True
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any, Iterable, Mapping

import numpy as np

from backgammon import _bgcore
from backgammon.batch import board_rows
from backgammon.nn._npz import read_npz
from backgammon.errors import BackgammonError, InvalidWeightsError
from backgammon.nn.evaluation import Evaluation
from backgammon.position import Position

__all__ = ["DEFAULT_KEEP", "DEFAULT_MARGIN", "SEARCH_KEEP", "Evaluation", "Evaluator"]

FORMAT = "backgammon-nn"
VERSION = 2
"""The file format written for three nets or encoding 2 to 4; version 1 files
(two nets, encoding 1: the bundled nets) are read, and written, as before."""
VERSIONS = (1, 2)
ARCHITECTURE = "mlp-1-softsigmoid-logistic5"
"""One hidden layer of soft sigmoids (``1/2 + x / (2 (1 + |x|))``), five logistic outputs."""
ARCHITECTURE_MIDDLE = "mlp-2-softsigmoid-logistic5"
"""The same, where a net may have a second ("middle") hidden layer of soft
sigmoids between the first and the outputs (``NAME_wm``, ``NAME_bm``).
Files write it only when a net has one, so older readers refuse such files
by name and read every other file as before."""
ARCHITECTURE_CRELU = "mlp-2-crelu-softsigmoid-logistic5"
"""Nets whose first hidden layer, where a middle layer follows it, is the
clipped ReLU min(max(x, 0), 1) (middle layer and nets without one: soft
sigmoids): :attr:`Evaluator.crelu`."""
ENCODINGS = {1: "tesauro4-bar-off-feat6-v1", 2: "tesauro4-bar-off-feat28-v2",
             3: "tesauro4-bar-off-feat42-v3", 4: "tesauro4-bar-off-feat52-race-v4",
             5: "onehot15-bar-off-counts6-v5", 6: "onehot15-bar-off-counts22-v6"}
"""The input encodings by number, as files name them (docs/nn.md)."""
BINARY_ENCODINGS = (5, 6)
"""Encodings whose inputs are all 0 or 1: their nets run on the integer kernels."""
ENCODING = ENCODINGS[1]
INPUTS = _bgcore.NN_INPUTS
"""Inputs of encoding 1 (``INPUTS_BY_ENCODING`` for each)."""
INPUTS_BY_ENCODING: dict[int, int] = dict(_bgcore.NN_INPUTS_BY_ENCODING)
OUTPUTS = _bgcore.NN_OUTPUTS
NETS = ("contact", "race", "crashed")
"""The nets in the core's order; the crashed one is optional (contact answers then)."""
_PARTS = ("w1", "b1", "w2", "b2")
_MID_PARTS = ("wm", "bm")
_DEFAULT_FILE = Path(__file__).parent.with_name("data") / "nets.npz"
_FAST_FILE = Path(__file__).parent.with_name("data") / "nets-fast.npz"
_PRUNING_FILE = Path(__file__).parent.with_name("data") / "nets-screen.npz"
_STRONG_FILE = Path(__file__).parent.with_name("data") / "nets-strong.npz"
MAX_KEEP = _bgcore.NN_MAX_KEEP
DEFAULT_KEEP = 3
"""How many plays the bundled screen passes at most to :meth:`Evaluator.default` and
:meth:`Evaluator.strong` in the move choices it screens (docs/nn.md, "Pruning")."""
DEFAULT_MARGIN = 0.06
"""Of those, the screen passes only the plays within this much equity of its best
(docs/nn.md, "Pruning": the bundled screen, an integer net that plays nearly as
well as the full nets, lets these few through without a loss in play)."""
SEARCH_KEEP = 3
"""Inside 1- and 2-ply evaluations (and the cubeful searches built like them) a
screen passes at most this many plays of each reply to the full nets, fewer than
its ``keep`` for play: a reply is one of 21 rolls averaged, so a rare miss costs
little there, and those replies are nearly all of a 2-ply search's work
(docs/nn.md, "Pruning": a filtered 2-ply 1.27x faster for the same judged play)."""
_MAX_FILE = 64 << 20  # bytes: a net file is a few hundred KB
_MAX_UNPACKED = 256 << 20  # bytes unpacked (a checkpoint also holds the optimizer's moments)
# bytes of the arrays a load reads: three nets of the largest shape the core runs
# (BG_NN_MAXH units on every input, a middle layer of BG_NN_MAXMID) in float32 are
# about 10 MB; the optimizer's moments in a checkpoint are never read
_MAX_WEIGHT_BYTES = 24 << 20


class Evaluator:
    """Two or three nets (contact, race, optionally crashed) and the code that
    runs them in the core, over one input encoding (1 to 6).

    ``Evaluator.default()`` is the bundled pair; :meth:`load` and
    :meth:`save` read and write ``.npz`` files; :meth:`random` makes
    untrained nets (the start of training).  Evaluation releases the GIL and
    only reads the weights, so one evaluator may serve many threads.

        >>> ev = Evaluator.random(hidden=(16, 8), seed=1)
        >>> ev.evaluate_batch([Position.initial().to_array()]).shape
        (1, 5)
        >>> Evaluator.random(hidden=(16, 8, 8), encoding=2).nets
        ('contact', 'race', 'crashed')
        >>> Evaluator.random(hidden=(16, 8), middle=(8, 0)).middle
        (8, 0)
    """

    def __init__(self, weights: Mapping[str, np.ndarray], *,
                 meta: Mapping[str, str] | None = None, encoding: int = 1,
                 quantised: bool | None = None, crelu: bool = False) -> None:
        """``weights`` maps ``"contact_w1"`` ``(inputs, H)``, ``"contact_b1"``
        ``(H,)``, ``"contact_w2"`` ``(5, H)``, ``"contact_b2"`` ``(5,)`` and the
        same for ``"race_"`` (and optionally ``"crashed_"``) to arrays, inputs
        those of ``encoding`` (1: 204, 2: 224, 3: 238, 4: 248); ``meta`` is free
        text kept in files.  A net with a second hidden layer of M units adds
        ``"contact_wm"`` ``(M, H)`` and ``"contact_bm"`` ``(M,)``, and its
        ``"contact_w2"`` is ``(5, M)``.  Nets of encodings 5 and 6 run on the
        core's integer kernels (:attr:`quantised`, the default for them;
        ``quantised=False``: in float, as they were trained).  ``crelu``: the
        nets with a middle layer use the clipped ReLU in their first layer
        (:data:`ARCHITECTURE_CRELU`)."""
        if isinstance(encoding, bool) or encoding not in ENCODINGS:
            raise InvalidWeightsError(f"encoding must be one of {sorted(ENCODINGS)}, got {encoding!r}")
        if quantised is None:
            quantised = encoding in BINARY_ENCODINGS
        if quantised and encoding not in BINARY_ENCODINGS:
            raise InvalidWeightsError(f"only nets of encodings 5 and 6 run quantised, these are "
                                      f"of encoding {encoding}")
        arrays, hidden, middle = _padded(weights, INPUTS_BY_ENCODING[encoding])
        crelu = bool(crelu)
        if crelu and not any(middle):
            raise InvalidWeightsError("the clipped ReLU runs in nets with a middle layer; "
                                      "these have none")
        self._nets = _bgcore.Nets(arrays, hidden, encoding, middle, crelu)
        self.crelu: bool = crelu
        """Whether the nets with a middle layer use the clipped ReLU in their first layer."""
        self.encoding: int = int(encoding)
        self.hidden: tuple[int, ...] = hidden
        """The first hidden layer's units of each net (:attr:`nets` order)."""
        self.middle: tuple[int, ...] = middle
        """The second hidden layer's units of each net, 0 where it has none."""
        self.meta: dict[str, str] = {str(k): str(v) for k, v in (meta or {}).items()}
        self.source: str | None = None  # the file's name, when read by load()
        self.pruning: Evaluator | None = None
        """The small nets that screen move choices (:meth:`with_pruning`), or None."""
        self.keep: int = 0
        """With :attr:`pruning`: how many of the screen's best plays these nets score."""
        self.margin: float = 0.0
        """With :attr:`pruning`: only plays within this equity of the screen's best
        are scored (0: no margin)."""
        self.quantised: bool = False
        """Whether the core runs these nets in integers (encodings 5 and 6; nn/quant.py)."""
        if quantised:
            from backgammon.nn.quant import quantise
            self._nets.quantise(quantise(self))
            self.quantised = True

    @property
    def nets(self) -> tuple[str, ...]:
        """The names of the nets, in the order of :attr:`hidden`."""
        return NETS[:len(self.hidden)]

    @property
    def policy_name(self) -> str:
        """How rollout and duel results name a policy played by these nets:
        ``"net"`` for :meth:`default`, ``"fast"`` for :meth:`fast`,
        ``"strong"`` for :meth:`strong`, ``"net(FILE)"`` for nets read from
        FILE by :meth:`load`, else their sizes,
        ``"net(contact 512/race 64/crashed 512)"``; ``+pruneK`` follows where
        the screen differs from the one these nets come with (``+prune0``:
        none, see :meth:`with_pruning`), ``+pruneKmM`` where its margin is
        not :data:`DEFAULT_MARGIN` (``m0``: none).

            >>> Evaluator.default().policy_name
            'net'
            >>> Evaluator.default().with_pruning(keep=0).policy_name
            'net+prune0'
            >>> Evaluator.default().with_pruning(keep=6, margin=0).policy_name
            'net+prune6m0'
            >>> Evaluator.random(hidden=(8, 4), seed=1).policy_name
            'net(contact 8/race 4)'
            >>> Evaluator.random(hidden=(8, 4), middle=(8, 0), seed=1).policy_name
            'net(contact 8x8/race 4)'
        """
        origin, usual = self._twin_of or self, (None, 0, 0.0)
        for attr, name in (("_default", "net"), ("_fast", "fast"), ("_strong", "strong")):
            b = getattr(Evaluator, attr)
            if b is not None and origin is (b._twin_of or b):   # a bundled one, or its twin
                usual = (b.pruning, b.keep, b.margin)
                break
        else:
            name = f"net({self.source})" if self.source else \
                "net(" + "/".join(f"{n} {s}" for n, s in zip(self.nets, self._sizes())) + ")"
        if (self.pruning, self.keep, self.margin) == usual:
            return name
        if self.pruning is None or self.margin == DEFAULT_MARGIN:
            return f"{name}+prune{self.keep}"
        return f"{name}+prune{self.keep}m{self.margin:g}"

    def _sizes(self) -> list[str]:
        """Each net's hidden sizes as text: ``"512"``, or ``"512x32"`` with a middle layer."""
        return [f"{h}x{m}" if m else str(h) for h, m in zip(self.hidden, self.middle)]

    # ------------------------------------------------------------------
    # Construction, files

    @classmethod
    def random(cls, hidden: tuple[int, ...] = (128, 64), seed: int = 0,
               encoding: int = 1, middle: tuple[int, ...] | None = None,
               crelu: bool = False) -> Evaluator:
        """Untrained nets with small random weights (seeded): hidden sizes of
        contact, race and, when a third is given, crashed; ``middle``, one
        size a net (0: none), adds a second hidden layer (up to
        ``NN_MAX_MIDDLE`` units) between the first and the outputs;
        ``crelu``: those nets' first layer is the clipped ReLU."""
        if isinstance(encoding, bool) or encoding not in ENCODINGS:
            raise InvalidWeightsError(f"encoding must be one of {sorted(ENCODINGS)}, got {encoding!r}")
        try:
            hidden = tuple(hidden)
        except TypeError:
            raise InvalidWeightsError(f"hidden must be 2 or 3 sizes, got {hidden!r}") from None
        if len(hidden) not in (2, 3):
            raise InvalidWeightsError(f"hidden must be 2 or 3 sizes (contact, race[, crashed]), "
                                      f"got {hidden!r}")
        try:
            mids = (0,) * len(hidden) if middle is None else tuple(middle)
        except TypeError:
            raise InvalidWeightsError(f"middle must be one size a net, got {middle!r}") from None
        if len(mids) != len(hidden):
            raise InvalidWeightsError(f"middle must be one size a net ({len(hidden)}), got {middle!r}")
        inputs = INPUTS_BY_ENCODING[encoding]
        rng = np.random.default_rng(seed)
        weights = {}
        for name, h, m in zip(NETS, hidden, mids):
            if not isinstance(h, (int, np.integer)) or not 1 <= h <= _bgcore.NN_MAX_HIDDEN:
                raise InvalidWeightsError(
                    f"hidden sizes must be integers from 1 to {_bgcore.NN_MAX_HIDDEN}, got {hidden!r}")
            if (not isinstance(m, (int, np.integer)) or isinstance(m, bool)
                    or not 0 <= m <= _bgcore.NN_MAX_MIDDLE):
                raise InvalidWeightsError(
                    f"middle sizes must be integers from 0 to {_bgcore.NN_MAX_MIDDLE}, got {middle!r}")
            weights[f"{name}_w1"] = rng.uniform(-0.15, 0.15, (inputs, h)).astype(np.float32)
            weights[f"{name}_b1"] = np.zeros(h, np.float32)
            if m:
                # sums of h activations near 1/2: the spread keeps them in the slope
                r = float(np.sqrt(3.0 / h))
                weights[f"{name}_wm"] = rng.uniform(-r, r, (m, h)).astype(np.float32)
                weights[f"{name}_bm"] = np.zeros(m, np.float32)
            weights[f"{name}_w2"] = rng.uniform(-0.1, 0.1, (OUTPUTS, m or h)).astype(np.float32)
            weights[f"{name}_b2"] = np.zeros(OUTPUTS, np.float32)
        mid = f", middle={mids}" if any(mids) else ""
        mid += ", crelu=True" if crelu else ""
        return cls(weights, meta={"origin": f"random(hidden={tuple(hidden)}{mid}, seed={seed}, "
                                            f"encoding={encoding})"}, encoding=encoding,
                   crelu=crelu)

    @classmethod
    def ensemble(cls, members: Iterable[Evaluator]) -> Evaluator:
        """One evaluator that is the mean-logit ensemble of ``members``: each
        net holds the members' hidden units side by side (second hidden
        layers block by block) and each output is the logistic of the mean
        of the members' output sums.  It answers as that ensemble does (to
        float rounding) and costs what the members cost together; a net
        that is the same in every member is kept once.  Members must share
        their encoding, activation and nets, and a net's members must all have a second
        hidden layer or none.  Averaging independently trained nets cuts
        the errors that are one net's own (docs/nn.md, "Ensembles").

            >>> a = Evaluator.random((8, 4), seed=1)
            >>> b = Evaluator.random((8, 4), seed=2)
            >>> both = Evaluator.ensemble([a, b])
            >>> both.hidden
            (16, 8)
            >>> Evaluator.ensemble([a, a]).hidden
            (8, 4)
        """
        members = list(members)
        if not members or not all(isinstance(m, Evaluator) for m in members):
            raise InvalidWeightsError("an ensemble needs one or more Evaluators")
        if len({(m.encoding, m.crelu) for m in members}) != 1 or len({m.nets for m in members}) != 1:
            raise InvalidWeightsError("ensemble members must share their encoding and nets, got "
                                      + ", ".join(f"{m.nets} encoding {m.encoding}" for m in members))
        weights: dict[str, np.ndarray] = {}
        member_weights = [m.weights() for m in members]
        for name in members[0].nets:
            distinct: list[dict[str, np.ndarray]] = []
            for w in member_weights:
                part = {p: w[f"{name}_{p}"] for p in _PARTS + _MID_PARTS if f"{name}_{p}" in w}
                if not any(part.keys() == d.keys() and all(np.array_equal(part[k], d[k]) for k in d)
                           for d in distinct):
                    distinct.append(part)
            if len({"wm" in d for d in distinct}) > 1:
                raise InvalidWeightsError(f"the {name} nets of the members mix one and two hidden "
                                          "layers: they cannot be combined")
            k = len(distinct)
            if k == 1:
                weights.update({f"{name}_{p}": v for p, v in distinct[0].items()})
                continue
            joined = {"w1": np.concatenate([d["w1"] for d in distinct], axis=1),
                      "b1": np.concatenate([d["b1"] for d in distinct]),
                      "w2": np.concatenate([d["w2"] for d in distinct], axis=1) / np.float32(k),
                      "b2": np.mean([d["b2"] for d in distinct], axis=0, dtype=np.float64)}
            if "wm" in distinct[0]:
                rows = sum(d["wm"].shape[0] for d in distinct)
                wm = np.zeros((rows, joined["w1"].shape[1]), np.float32)
                r = c = 0
                for d in distinct:    # each member's middle units read its own first layer
                    wm[r:r + d["wm"].shape[0], c:c + d["wm"].shape[1]] = d["wm"]
                    r += d["wm"].shape[0]
                    c += d["wm"].shape[1]
                joined["wm"] = wm
                joined["bm"] = np.concatenate([d["bm"] for d in distinct])
            weights.update({f"{name}_{p}": np.asarray(v, np.float32) for p, v in joined.items()})
        names = [m.source or m.meta.get("origin", "nets") for m in members]
        return cls(weights, meta={"origin": "ensemble of " + "; ".join(names)},
                   encoding=members[0].encoding, crelu=members[0].crelu)

    _default: Evaluator | None = None
    _fast: Evaluator | None = None
    _pruning: Evaluator | None = None
    _strong: Evaluator | None = None
    _twin_of: Evaluator | None = None   # with_pruning's copies name their policy as the original
    _narrow: Evaluator | None = None    # search_screen's twin, made on first use
    _default_lock = threading.Lock()

    @classmethod
    def default(cls) -> Evaluator:
        """The bundled nets (package data), loaded on first use, screened by the
        bundled screen (:meth:`with_pruning`, keeping :data:`DEFAULT_KEEP`)
        in the move choices that need only the chosen play: rollouts and duels
        go about three times as fast, the replies inside deeper evaluations
        about twice, for no measurable loss (docs/nn.md, "Pruning").
        ``with_pruning(keep=0)`` turns the screen off.

            >>> Evaluator.default().keep == DEFAULT_KEEP
            True
        """
        return cls._bundled("_default", _DEFAULT_FILE, screened=True)

    @classmethod
    def fast(cls) -> Evaluator:
        """The bundled fast nets (package data), loaded on first use: small
        nets of the cheapest inputs, taught by :meth:`strong`, that evaluate
        about ten times as fast as :meth:`default`, roll out about three times
        as fast, and play weaker (docs/nn.md, "The fast nets", has both
        measured).  For rollouts and self-play where games a second matter
        more than the last millipoints.

            >>> fast = Evaluator.fast()
            >>> fast.hidden[0] < Evaluator.default().hidden[0]
            True
        """
        return cls._bundled("_fast", _FAST_FILE)

    @classmethod
    def strong(cls) -> Evaluator:
        """The bundled strong nets (package data), loaded on first use: the
        default nets (whose race and crashed nets they share) in
        a mean-logit ensemble (:meth:`ensemble`) with a second 1,024-unit
        contact net trained with back-game targets, one 2,048-unit contact net.
        Judged by gnubg 2-ply on real decisions it loses about 0.35
        millipoints a decision less than :meth:`default` at 0 ply, for twice
        the evaluation time (docs/nn.md, "The strong nets");
        screened as :meth:`default` is, its move choices cost about what the
        default's unscreened ones do.  For analysis.

            >>> Evaluator.strong().hidden[0] == 2 * Evaluator.default().hidden[0]
            True
        """
        return cls._bundled("_strong", _STRONG_FILE, screened=True)

    @classmethod
    def named(cls, name: str | os.PathLike[str]) -> Evaluator:
        """Nets by the name the command line gives them: ``"net"``, ``"fast"`` or
        ``"strong"`` for :meth:`default`, :meth:`fast` or :meth:`strong`, else
        the nets file at that path (:meth:`load`).

            >>> Evaluator.named("fast") is Evaluator.fast()
            True
        """
        bundled = {"net": cls.default, "fast": cls.fast, "strong": cls.strong}
        return bundled[name]() if isinstance(name, str) and name in bundled else cls.load(name)

    def with_pruning(self, pruning: Evaluator | None = None, keep: int = DEFAULT_KEEP,
                     margin: float = DEFAULT_MARGIN) -> Evaluator:
        """These nets with a screen: in every move choice that needs only the
        chosen play (rollouts, duels, the replies inside 1- and 2-ply
        evaluations, which are most of a 2-ply search's work) the small nets
        ``pruning`` score every play and these nets only the ``keep`` best of
        them (1 to :data:`MAX_KEEP`; inside searches at most
        :data:`SEARCH_KEEP`), as gnubg's pruning nets do, and of those
        only the plays within ``margin`` (equity, 0 to 4; 0: no margin) of the
        screen's best.  ``None``
        takes the bundled screen, trained on the bundled nets' choices.  Top-level
        rankings (:func:`rank_plays`, :func:`evaluate` at ply 0) still score
        every play.  docs/nn.md ("Pruning") has the speed and the cost in
        judged play.  :meth:`default` and :meth:`strong` come screened
        (keeping :data:`DEFAULT_KEEP`); ``keep=0`` removes a screen.  The
        weights are shared, not copied; :meth:`save` writes these nets alone
        (call ``with_pruning`` again after :meth:`load`).

            >>> ev = Evaluator.random(hidden=(16, 8), seed=1)
            >>> screened = ev.with_pruning(Evaluator.random(hidden=(4, 4), seed=2), keep=3)
            >>> screened.keep, screened.margin, screened.pruning.hidden
            (3, 0.06, (4, 4))
            >>> screened.with_pruning(None, 0).pruning is None   # keep 0: no screen
            True
        """
        if isinstance(keep, bool) or not isinstance(keep, (int, np.integer)) or \
                not 0 <= keep <= MAX_KEEP:
            raise BackgammonError(f"keep must be an integer from 0 (no screen) to {MAX_KEEP}, "
                                  f"got {keep!r}")
        if isinstance(margin, bool) or not isinstance(margin, (int, float, np.integer,
                                                                np.floating)) \
                or not 0 <= margin <= 4:
            raise BackgammonError(f"margin must be a number from 0 (none) to 4, got {margin!r}")
        if pruning is None and keep:
            pruning = Evaluator._bundled("_pruning", _PRUNING_FILE)
        return self._screened(pruning, int(keep), float(margin))

    def _screened(self, pruning: Evaluator | None, keep: int, margin: float) -> Evaluator:
        """:meth:`with_pruning` with its arguments checked and the screen found."""
        if pruning is not None and not isinstance(pruning, Evaluator):
            raise BackgammonError(f"pruning must be an Evaluator or None, got {pruning!r}")
        if pruning is not None and pruning.pruning is not None:
            raise BackgammonError("a screen cannot have a screen of its own")
        twin = Evaluator.__new__(Evaluator)
        twin._nets = _bgcore.Nets(self._nets.arrays, self.hidden, self.encoding, self.middle,
                                  self.crelu)
        twin.crelu = self.crelu
        if self.quantised:
            twin._nets.quantise(self._nets.qarrays)
        twin.encoding, twin.hidden, twin.middle = self.encoding, self.hidden, self.middle
        twin.quantised = self.quantised
        twin.meta, twin.source = dict(self.meta), self.source
        twin._twin_of = self._twin_of or self
        twin.pruning, twin.keep, twin.margin = None, 0, 0.0
        if keep and pruning is not None:
            twin._nets.set_pruning(pruning._nets, int(keep), margin)
            twin.pruning, twin.keep, twin.margin = pruning, int(keep), margin
        return twin

    @classmethod
    def _bundled(cls, attr: str, path: Path, screened: bool = False) -> Evaluator:
        """The package's nets file ``path``, loaded once into class attribute ``attr``
        (``screened``: with the bundled screen, :data:`DEFAULT_KEEP`)."""
        if screened:
            cls._bundled("_pruning", _PRUNING_FILE)   # outside the lock: it takes it too
        with cls._default_lock:
            if getattr(cls, attr) is None:
                ev = cls.load(path)
                if screened:
                    ev = ev._screened(cls._pruning, DEFAULT_KEEP, DEFAULT_MARGIN)
                setattr(cls, attr, ev)
            out: Evaluator = getattr(cls, attr)
            return out

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Evaluator:
        """Reads a file written by :meth:`save`; raises
        :class:`InvalidWeightsError` for anything else."""
        # shapes and sizes are checked before any array is read (_npz)
        data = read_npz(path, max_file=_MAX_FILE, max_bytes=_MAX_UNPACKED,
                        error=InvalidWeightsError, what="weights", want=_weights_member,
                        max_read=_MAX_WEIGHT_BYTES)
        evaluator = cls._from_file_arrays(data, os.fspath(path))
        evaluator.source = os.path.basename(os.fspath(path))
        return evaluator

    @classmethod
    def _from_file_arrays(cls, data: dict[str, np.ndarray], where: str) -> Evaluator:
        def text(key: str) -> str:
            if key not in data or data[key].dtype.kind != "U" or data[key].shape != ():
                raise InvalidWeightsError(f"{where}: missing or bad {key!r}")
            return str(data[key])
        if text("format") != FORMAT:
            raise InvalidWeightsError(f"{where}: not a {FORMAT} file")
        version = text("version")
        if version not in {str(v) for v in VERSIONS}:
            raise InvalidWeightsError(f"{where}: format version {version}, this library reads "
                                      f"{' and '.join(map(str, VERSIONS))}")
        if text("architecture") not in (ARCHITECTURE, ARCHITECTURE_MIDDLE, ARCHITECTURE_CRELU):
            raise InvalidWeightsError(f"{where}: architecture {text('architecture')!r}, this "
                                      f"library runs {ARCHITECTURE!r}, {ARCHITECTURE_MIDDLE!r} "
                                      f"and {ARCHITECTURE_CRELU!r}")
        middle_allowed = text("architecture") in (ARCHITECTURE_MIDDLE, ARCHITECTURE_CRELU)
        crelu = text("architecture") == ARCHITECTURE_CRELU
        names = {v: k for k, v in ENCODINGS.items()}
        enc_name = text("encoding")
        if version == "1":   # two nets, encoding 1
            if enc_name != ENCODINGS[1]:
                raise InvalidWeightsError(f"{where}: encoding {enc_name!r}, this library runs "
                                          f"{ENCODINGS[1]!r} in version 1 files")
            nets: tuple[str, ...] = NETS[:2]
        else:
            if enc_name not in names:
                raise InvalidWeightsError(f"{where}: encoding {enc_name!r}, this library runs "
                                          f"{', '.join(map(repr, ENCODINGS.values()))}")
            nets = tuple(text("nets").split(","))
            if nets not in (NETS[:2], NETS):
                raise InvalidWeightsError(f"{where}: nets {text('nets')!r}: 'contact,race' or "
                                          "'contact,race,crashed' expected")
        parts = _PARTS + _MID_PARTS if middle_allowed else _PARTS
        if not middle_allowed and any(f"{n}_{p}" in data for n in NETS for p in _MID_PARTS):
            raise InvalidWeightsError(f"{where}: middle-layer arrays in a file of architecture "
                                      f"{ARCHITECTURE!r}")
        weights = {f"{n}_{p}": data[f"{n}_{p}"] for n in NETS for p in parts if f"{n}_{p}" in data}
        missing = [f"{n}_{p}" for n in nets for p in _PARTS if f"{n}_{p}" not in data]
        if missing:
            raise InvalidWeightsError(f"{where}: missing weight arrays: {', '.join(missing)}")
        if len(nets) == 2 and any(k.startswith("crashed_") for k in weights):
            raise InvalidWeightsError(f"{where}: crashed arrays in a file of two nets")
        meta = {k[5:]: str(v) for k, v in data.items()
                if k.startswith("meta_") and v.dtype.kind == "U" and v.shape == ()}
        try:
            return cls(weights, meta=meta, encoding=names[enc_name], crelu=crelu)
        except InvalidWeightsError as exc:
            raise InvalidWeightsError(f"{where}: {exc}") from None

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the nets as an ``.npz`` (format, version, architecture and
        encoding named inside; no pickles)."""
        self._save_with(path, {})

    def _save_with(self, path: str | os.PathLike[str], extra: Mapping[str, np.ndarray]) -> None:
        """:meth:`save` plus arrays ``train_*`` (a checkpoint's optimizer
        state), which :meth:`load` ignores."""
        assert all(k.startswith("train_") for k in extra)
        # two nets of encoding 1 keep the version 1 layout (older readers load them)
        version = 1 if len(self.hidden) == 2 and self.encoding == 1 and not any(self.middle) \
            else VERSION
        arch = ARCHITECTURE_CRELU if self.crelu else \
            ARCHITECTURE_MIDDLE if any(self.middle) else ARCHITECTURE
        data: dict[str, Any] = {"format": np.array(FORMAT), "version": np.array(str(version)),
                                "architecture": np.array(arch),
                                "encoding": np.array(ENCODINGS[self.encoding])}
        if version >= 2:
            data["nets"] = np.array(",".join(self.nets))
        data.update(self.weights())
        data.update({f"meta_{k}": np.array(v) for k, v in self.meta.items()})
        data.update(extra)
        with open(path, "wb") as f:
            np.savez_compressed(f, **data)

    def weights(self) -> dict[str, np.ndarray]:
        """Copies of the weight arrays (unpadded), keyed as in the constructor."""
        out = {}
        arrays = self._nets.arrays
        for c, name in enumerate(self.nets):
            h, m = self.hidden[c], self.middle[c]
            w1, b1, w2, b2, wm, bm = arrays[6 * c: 6 * c + 6]
            out[f"{name}_w1"] = w1[:, :h].copy()
            out[f"{name}_b1"] = b1[:h].copy()
            out[f"{name}_w2"] = w2[:, :m or h].copy()
            out[f"{name}_b2"] = b2.copy()
            if m:
                out[f"{name}_wm"] = wm[:m, :h].copy()
                out[f"{name}_bm"] = bm[:m].copy()
        return out

    def as_float(self) -> Evaluator:
        """These nets run in float, as they were trained: the reference the
        integer kernels are measured against (nets of other encodings
        than 5 are returned as they are).

            >>> ev = Evaluator.random(hidden=(16, 8), seed=1, encoding=5)
            >>> ev.quantised, ev.as_float().quantised
            (True, False)
        """
        if not self.quantised:
            return self
        twin = Evaluator(self.weights(), meta=self.meta, encoding=self.encoding,
                         quantised=False, crelu=self.crelu)
        twin.source = self.source
        if self.pruning is None:
            return twin
        return twin._screened(self.pruning, self.keep, self.margin)

    def copy(self) -> Evaluator:
        twin = Evaluator(self.weights(), meta=self.meta, encoding=self.encoding,
                         quantised=self.quantised, crelu=self.crelu)
        twin.source = self.source
        if self.pruning is None:
            return twin
        return twin.with_pruning(self.pruning, self.keep, self.margin)

    def grown(self, hidden: tuple[int, ...] | None = None, encoding: int | None = None,
              seed: int = 0) -> Evaluator:
        """A copy grown to a later encoding and more hidden units (contact,
        race[, crashed]) that evaluates every position exactly as this one:
        the new inputs and units start silent (new inputs with zero weights
        into the hidden layer, new units with small random input weights and
        zero weights out), and a crashed net this one lacks starts as its
        contact net, which answered those positions.  A second hidden layer
        is kept as it is (new first-layer units feed it with zero weights).  The start of a
        supervised generation that keeps what the previous nets learned.

            >>> ev = Evaluator.random(hidden=(8, 4), seed=1)
            >>> big = ev.grown((12, 4, 12), encoding=2)
            >>> big.hidden, big.encoding
            ((12, 4, 12), 2)
            >>> b = Position.initial().to_array()[None]
            >>> bool((big.evaluate_batch(b) == ev.evaluate_batch(b)).all())
            True
        """
        encoding = self.encoding if encoding is None else encoding
        hidden = tuple(self.hidden) if hidden is None else tuple(hidden)
        if isinstance(encoding, bool) or encoding not in ENCODINGS or encoding < self.encoding:
            raise InvalidWeightsError(f"nets of encoding {self.encoding} grow to encoding "
                                      f"{self.encoding} or later, got {encoding!r}")
        if len(hidden) not in (2, 3) or len(hidden) < len(self.hidden):
            raise InvalidWeightsError(f"grown nets need {len(self.hidden)} or 3 hidden sizes, "
                                      f"got {hidden!r}")
        if encoding != self.encoding and (encoding in BINARY_ENCODINGS
                                          or self.encoding in BINARY_ENCODINGS or
                                          INPUTS_BY_ENCODING[encoding] < INPUTS_BY_ENCODING[self.encoding]):
            # the one-hot inputs of encodings 5 and 6 are not an extension of the others'
            raise InvalidWeightsError("the later encoding must extend the inputs")
        old = self.weights()
        inputs = INPUTS_BY_ENCODING[encoding]
        rng = np.random.default_rng(seed)
        weights: dict[str, np.ndarray] = {}
        for name, h in zip(NETS, hidden):
            src = name if f"{name}_w1" in old else "contact"
            w1, b1, w2, b2 = (old[f"{src}_{p}"] for p in _PARTS)
            have = w1.shape[1]
            if not isinstance(h, (int, np.integer)) or isinstance(h, bool) or h < have:
                raise InvalidWeightsError(f"the {name} net has {have} hidden units and cannot "
                                          f"shrink or take {h!r}")
            g1 = np.zeros((inputs, h), np.float32)
            g1[:w1.shape[0], :have] = w1
            g1[:, have:] = rng.uniform(-0.1, 0.1, (inputs, h - have))
            if f"{src}_wm" in old:    # the outputs read the middle layer
                wm = old[f"{src}_wm"]
                gm = np.zeros((wm.shape[0], h), np.float32)
                gm[:, :have] = wm
                weights.update({f"{name}_wm": gm, f"{name}_bm": old[f"{src}_bm"].copy()})
                g2 = w2.copy()
            else:
                g2 = np.zeros((OUTPUTS, h), np.float32)
                g2[:, :have] = w2
            weights.update({f"{name}_w1": g1, f"{name}_b1": np.pad(b1, (0, h - have)),
                            f"{name}_w2": g2, f"{name}_b2": b2.copy()})
        meta = dict(self.meta)
        meta["origin"] = (f"grown to encoding {encoding}, hidden {hidden} from: "
                          f"{self.meta.get('origin', 'nets')}")
        return Evaluator(weights, meta=meta, encoding=encoding, crelu=self.crelu)

    def __reduce__(self) -> tuple[Any, ...]:
        # process and cluster executors of rollouts send evaluators by value
        return (_rebuild, (self.weights(), self.encoding, self.quantised, self.crelu),
                {"meta": self.meta, "source": self.source, "pruning": self.pruning,
                 "keep": self.keep, "margin": self.margin})

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.meta = dict(state["meta"])
        self.source = state.get("source")
        if state.get("pruning") is not None:   # a fresh evaluator: its Nets is its own
            margin = float(state.get("margin", 0.0))
            self._nets.set_pruning(state["pruning"]._nets, state["keep"], margin)
            self.pruning, self.keep, self.margin = state["pruning"], state["keep"], margin

    # ------------------------------------------------------------------
    # Evaluation

    def evaluate(self, position: Position | str | Iterable[int]) -> Evaluation:
        """The five probabilities and equity of ``position`` (a
        :class:`Position`, Position ID or 26 integers) for the player on roll,
        before rolling.  A finished position gets its exact result."""
        pos = as_position(position)
        return Evaluation._from_row(self._nets.evaluate(position_rows(pos))[0])

    def evaluate_batch(self, boards: Any) -> np.ndarray:
        """``(n, 5)`` float32 probabilities of an ``(n, 26)`` integer array of
        boards (each seen by its player on roll).  A bad row raises
        :class:`InvalidPositionError` naming its index."""
        return self._nets.evaluate(board_rows(boards))

    def equities(self, boards: Any) -> np.ndarray:
        """Cubeless equities ``(n,)`` float64 of boards, for their player on roll."""
        p = self.evaluate_batch(boards).astype(np.float64)
        return 2.0 * p[:, 0] - 1.0 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]

    def __repr__(self) -> str:
        origin = self.meta.get("origin", "")
        sizes = ", ".join(f"{n} {s} hidden" for n, s in zip(self.nets, self._sizes()))
        enc = f", encoding {self.encoding}" if self.encoding != 1 else ""
        enc += ", clipped ReLU" if self.crelu else ""
        enc += ", quantised" if self.quantised else ""
        screen = ""
        if self.pruning is not None:
            margin = f", margin {self.margin:g}" if self.margin else ""
            screen = f", screened by {'/'.join(self.pruning._sizes())} (keep {self.keep}{margin})"
        return f"<Evaluator {sizes}{enc}{screen}{', ' + origin if origin else ''}>"


def _weights_member(key: str) -> bool:
    """Whether :meth:`Evaluator.load` reads member ``key`` of a nets file."""
    if key in ("format", "version", "architecture", "encoding", "nets") or key.startswith("meta_"):
        return True
    net, _, part = key.partition("_")
    return net in NETS and part in _PARTS + _MID_PARTS


def as_position(position: Any) -> Position:
    if isinstance(position, Position):
        return position
    if isinstance(position, str):
        return Position.from_position_id(position)
    return Position.from_array(position)


def position_rows(pos: Position) -> np.ndarray:
    return np.frombuffer(pos._b, dtype=np.int8).reshape(1, 26)


def _rebuild(weights: dict[str, np.ndarray], encoding: int,
             quantised: bool | None = None, crelu: bool = False) -> Evaluator:
    return Evaluator(weights, encoding=encoding, quantised=quantised, crelu=crelu)


def _padded(weights: Mapping[str, Any], inputs: int = INPUTS
            ) -> tuple[tuple[np.ndarray, ...], tuple[int, ...], tuple[int, ...]]:
    """The core's padded arrays (six a net) of a weight mapping, after
    checking it, with each net's first and second hidden sizes."""
    if not isinstance(weights, Mapping):
        raise TypeError(f"weights must be a mapping of arrays, got {type(weights).__name__}")
    nets = NETS if any(k.startswith("crashed_") for k in weights) else NETS[:2]
    want = {f"{n}_{p}" for n in nets for p in _PARTS}
    missing = sorted(want - set(weights))
    if missing:
        raise InvalidWeightsError(f"missing weight arrays: {', '.join(missing)}")
    for n in nets:
        if (f"{n}_wm" in weights) != (f"{n}_bm" in weights):
            raise InvalidWeightsError(f"{n} net: a middle layer needs both {n}_wm and {n}_bm")
    extra = sorted(set(weights) - want - {f"{n}_{p}" for n in nets for p in _MID_PARTS})
    if extra:
        raise InvalidWeightsError(f"unknown weight arrays: {', '.join(extra)}")
    arrays: list[np.ndarray] = []
    hidden = []
    middle = []
    for name in nets:
        parts = _PARTS + (_MID_PARTS if f"{name}_wm" in weights else ())
        try:
            given = {p: np.asarray(weights[f"{name}_{p}"]) for p in parts}
        except (TypeError, ValueError) as exc:
            raise InvalidWeightsError(f"{name} net: {exc}") from None
        for part, a in given.items():
            if a.dtype.kind not in "fiu":
                raise InvalidWeightsError(f"{name}_{part} must be numeric, got dtype {a.dtype}")
        w1 = given["w1"]
        if w1.ndim != 2 or w1.shape[0] != inputs:
            raise InvalidWeightsError(f"{name}_w1 must have shape ({inputs}, H), got {w1.shape}")
        h = w1.shape[1]
        if not 1 <= h <= _bgcore.NN_MAX_HIDDEN:
            raise InvalidWeightsError(
                f"{name} net: {h} hidden units, from 1 to {_bgcore.NN_MAX_HIDDEN} allowed")
        m = 0
        if "wm" in given:
            wm = given["wm"]
            if wm.ndim != 2 or wm.shape[1] != h:
                raise InvalidWeightsError(f"{name}_wm must have shape (M, {h}), got {wm.shape}")
            m = wm.shape[0]
            if not 1 <= m <= _bgcore.NN_MAX_MIDDLE:
                raise InvalidWeightsError(
                    f"{name} net: {m} middle units, from 1 to {_bgcore.NN_MAX_MIDDLE} allowed")
        shapes = {"b1": (h,), "w2": (OUTPUTS, m or h), "b2": (OUTPUTS,), "bm": (m,)}
        for part, a in given.items():
            if part in shapes and a.shape != shapes[part]:
                raise InvalidWeightsError(f"{name}_{part} must have shape {shapes[part]}, got {a.shape}")
        hp = (h + 7) // 8 * 8
        mp = (m + 7) // 8 * 8
        padded = {"w1": np.zeros((inputs, hp), np.float32), "b1": np.zeros(hp, np.float32),
                  "w2": np.zeros((OUTPUTS, mp or hp), np.float32),
                  "b2": np.zeros(OUTPUTS, np.float32),
                  "wm": np.zeros((mp, hp), np.float32), "bm": np.zeros(mp, np.float32)}
        with np.errstate(over="ignore", invalid="ignore"):
            for part, a in given.items():
                padded[part][tuple(slice(0, d) for d in a.shape)] = a
        for part, a in padded.items():
            if not np.isfinite(a).all():  # checked as float32: 1e39 does not fit
                raise InvalidWeightsError(f"{name}_{part} holds values that are not finite "
                                          "float32 numbers")
        arrays += [padded[p] for p in _PARTS + _MID_PARTS]
        hidden.append(h)
        middle.append(m)
    return tuple(arrays), tuple(hidden), tuple(middle)
