"""The nets exported for other runtimes: a plain numpy reference of their forward pass.

An :class:`~backgammon.Evaluator`'s nets are small MLPs; :class:`NumpyNets`
holds their weights as numpy arrays and computes what the core computes,
in numpy alone, so a bot author can serve them from any runtime (or port
the ~20 lines of :meth:`NumpyNets.forward` to one) and check the port
against :meth:`NumpyNets.evaluate`.  For each board (the library's 26
cells, seen from the player on roll):

1. **The net**: ``race`` when no contact is left (the on-roll side's rearmost
   checker has passed the opponent's), ``crashed`` (with three nets) when a
   side has at most 6 checkers in play (its checkers less all but one on its
   2 point and all of two or more on its ace point), else ``contact``
   (:meth:`NumpyNets.classify`).
2. **The inputs** of the nets' encoding (``inputs``: 204, 224, 238 or 248
   units, ``docs/nn.md``), read from the core's encoder
   (``_bgcore.nn_encode``): the nets' own features, not reimplemented here.
3. **The forward pass** (:meth:`NumpyNets.forward`; :meth:`NumpyNets.to_torch` gives
   the same as PyTorch modules): ``h = act(x @ w1 + b1)`` with the soft sigmoid
   ``act(a) = 0.5 + 0.5 a / (1 + |a|)``; with a second hidden layer
   ``h = act(h @ wm.T + bm)``; the outputs ``logistic(max(h @ w2.T + b2,
   -40))``, the five chances win, win gammon, win backgammon, lose gammon,
   lose backgammon.
4. **Tidying**: ``win >= wg >= wbg`` and ``1 - win >= lg >= lbg`` (each clipped
   to the one before), gammons impossible once the side that would lose one
   has borne off a checker set to 0.

The core gives finished boards and positions with both sides home (the
bear-off database) their exact values instead of the nets'; everywhere else
:meth:`NumpyNets.evaluate` equals ``Evaluator.evaluate_batch`` to float32
rounding (tested on the bundled nets).

    >>> import numpy as np, backgammon as bg
    >>> from backgammon.nn.export import NumpyNets
    >>> ref = NumpyNets.from_evaluator(bg.Evaluator.fast())
    >>> board = bg.Position.initial().to_array()[None]
    >>> bool(np.allclose(ref.evaluate(board), bg.Evaluator.fast().evaluate_batch(board),
    ...                  atol=1e-5))
    True
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

import numpy as np

from backgammon import _bgcore
from backgammon._show import shown
from backgammon.errors import InvalidPositionError, InvalidWeightsError

if TYPE_CHECKING:
    from backgammon.nn.evaluator import Evaluator

NETS = ("contact", "race", "crashed")
INPUTS = {1: 204, 2: 224, 3: 238, 4: 248}   # inputs of each encoding (docs/nn.md)
CRASHED_MAX = 6                              # checkers in play at most for "crashed"


def act(a: np.ndarray) -> np.ndarray:
    """The nets' hidden activation, the soft sigmoid ``0.5 + 0.5 a / (1 + |a|)``.

        >>> act(np.array([0.0, 1.0, -3.0])).tolist()
        [0.5, 0.75, 0.125]
    """
    return np.asarray(0.5 + 0.5 * a / (1.0 + np.abs(a)))


def logistic(t: np.ndarray) -> np.ndarray:
    """The output squashing, ``1 / (1 + exp(-t))`` with ``t`` clipped below at -40."""
    return np.asarray(1.0 / (1.0 + np.exp(-np.maximum(t, -40.0))))


class NumpyNets:
    """The weights of an evaluator's nets and their forward pass in numpy.

    ``weights`` maps ``"<net>_w1"`` ``(inputs, H)``, ``"<net>_b1"`` ``(H,)``,
    ``"<net>_w2"`` ``(5, H or M)``, ``"<net>_b2"`` ``(5,)`` and, with a
    second hidden layer of M units, ``"<net>_wm"`` ``(M, H)`` and
    ``"<net>_bm"`` ``(M,)``, for ``contact``, ``race`` and optionally
    ``crashed``: :meth:`Evaluator.weights` or the arrays of a saved ``.npz``.
    """

    def __init__(self, weights: Mapping[str, Any], encoding: int) -> None:
        if isinstance(encoding, bool) or encoding not in INPUTS:
            raise InvalidWeightsError(f"encoding is one of {sorted(INPUTS)}, got {shown(encoding)}")
        self.encoding = int(encoding)
        nets = [n for n in NETS if f"{n}_w1" in weights]
        if nets not in (["contact", "race"], ["contact", "race", "crashed"]):
            raise InvalidWeightsError(f"the weights name the nets {nets}: contact and race are "
                                      "needed, crashed is optional")
        self.nets: tuple[str, ...] = tuple(nets)
        self.weights: dict[str, np.ndarray] = {}
        for name in nets:
            keys = ["w1", "b1", "w2", "b2"] + (["wm", "bm"] if f"{name}_wm" in weights else [])
            for k in keys:
                if f"{name}_{k}" not in weights:
                    raise InvalidWeightsError(f"the weights lack {name}_{k}")
                self.weights[f"{name}_{k}"] = np.asarray(weights[f"{name}_{k}"], dtype=np.float64)
            w1, w2 = self.weights[f"{name}_w1"], self.weights[f"{name}_w2"]
            last = self.weights[f"{name}_wm"].shape[0] if f"{name}_wm" in weights else w1.shape[1]
            if w1.shape[0] != INPUTS[self.encoding] or w2.shape != (5, last):
                raise InvalidWeightsError(
                    f"{name}: w1 {w1.shape} and w2 {w2.shape} do not fit encoding "
                    f"{self.encoding} ({INPUTS[self.encoding]} inputs) and 5 outputs")

    @classmethod
    def from_evaluator(cls, evaluator: Evaluator) -> NumpyNets:
        """The nets of an :class:`~backgammon.Evaluator` (its pruning screen aside)."""
        from backgammon.nn import Evaluator
        if not isinstance(evaluator, Evaluator):
            raise InvalidWeightsError(f"an Evaluator is needed, got {shown(evaluator)}")
        return cls(evaluator.weights(), evaluator.encoding)

    def save(self, path: str | Path) -> None:
        """An ``.npz`` of the weights (float32) and ``encoding``, readable by :meth:`load`
        and by any numpy: the whole export a port needs, with this module's doc."""
        arrays = {k: v.astype(np.float32) for k, v in self.weights.items()}
        with open(path, "wb") as f:
            save: Any = np.savez_compressed   # numpy's stub takes no **arrays of ours
            save(f, encoding=np.array(self.encoding), **arrays)

    @classmethod
    def load(cls, path: str | Path) -> NumpyNets:
        """The nets :meth:`save` wrote."""
        with np.load(path) as data:
            arrays = {k: data[k] for k in data.files}
        if "encoding" not in arrays:
            raise InvalidWeightsError(f"{path}: no 'encoding' array: not a NumpyNets.save file")
        return cls(arrays, int(arrays.pop("encoding")))

    def to_torch(self) -> Any:
        """A ``torch.nn.ModuleDict`` of the nets (needs PyTorch): ``modules[name](x)``
        maps float32 inputs ``(m, inputs)`` to the raw outputs ``(m, 5)`` of
        :meth:`forward`, with trainable copies of the weights (fine-tuning, serving).

            >>> mods = NumpyNets.from_evaluator(bg.Evaluator.fast()).to_torch()  # doctest: +SKIP
            >>> mods["race"](torch.zeros(1, 204)).shape                          # doctest: +SKIP
            torch.Size([1, 5])
        """
        import importlib
        # untyped on purpose: torch is optional, and the type check runs without it
        torch: Any = importlib.import_module("torch")
        module: Any = torch.nn.Module

        class Net(module):  # type: ignore[misc]
            """One net: soft-sigmoid hidden layer(s), logistic outputs."""

            def __init__(self, w: dict[str, np.ndarray], name: str) -> None:
                super().__init__()
                w1 = w[f"{name}_w1"]
                self.first = torch.nn.Linear(w1.shape[0], w1.shape[1])
                self.first.weight.data = torch.tensor(w1.T, dtype=torch.float32)
                self.first.bias.data = torch.tensor(w[f"{name}_b1"], dtype=torch.float32)
                self.middle = None
                if f"{name}_wm" in w:
                    wm = w[f"{name}_wm"]
                    self.middle = torch.nn.Linear(wm.shape[1], wm.shape[0])
                    self.middle.weight.data = torch.tensor(wm, dtype=torch.float32)
                    self.middle.bias.data = torch.tensor(w[f"{name}_bm"], dtype=torch.float32)
                w2 = w[f"{name}_w2"]
                self.out = torch.nn.Linear(w2.shape[1], 5)
                self.out.weight.data = torch.tensor(w2, dtype=torch.float32)
                self.out.bias.data = torch.tensor(w[f"{name}_b2"], dtype=torch.float32)

            def forward(self, x: Any) -> Any:
                def soft(a: Any) -> Any:
                    return 0.5 + 0.5 * a / (1.0 + a.abs())
                h = soft(self.first(x))
                if self.middle is not None:
                    h = soft(self.middle(h))
                return torch.sigmoid(self.out(h).clamp(min=-40.0))

        return torch.nn.ModuleDict({name: Net(self.weights, name) for name in self.nets})

    # -- the forward pass ---------------------------------------------------------

    def classify(self, boards: Any) -> np.ndarray:
        """int ``(m,)``: the net of each board, 0 contact, 1 race, 2 crashed."""
        b = _boards(boards).astype(np.int64)
        own, opp = np.clip(b, 0, None), np.clip(-b, 0, None)
        idx = np.arange(26)
        # our rearmost checker (25 = the bar) and theirs in our numbering (0 = their bar)
        our_back = np.where(own > 0, idx, -1).max(axis=1)
        their_back = np.where(opp > 0, idx, 26).min(axis=1)
        race = (our_back < 0) | (their_back > 25) | (our_back < their_back)
        out = np.where(race, 1, 0)
        if len(self.nets) == 3:
            in_play = (own.sum(axis=1) - np.where(own[:, 1] >= 2, own[:, 1], 0)
                       - np.where(own[:, 2] > 1, own[:, 2] - 1, 0))
            in_play_opp = (opp.sum(axis=1) - np.where(opp[:, 24] >= 2, opp[:, 24], 0)
                           - np.where(opp[:, 23] > 1, opp[:, 23] - 1, 0))
            crashed = ~race & ((in_play <= CRASHED_MAX) | (in_play_opp <= CRASHED_MAX))
            out = np.where(crashed, 2, out)
        return out

    def inputs(self, boards: Any) -> np.ndarray:
        """float32 ``(m, inputs)``: the nets' dense inputs, from the core's encoder."""
        b = _boards(boards)
        x = np.zeros((len(b), INPUTS[self.encoding]), dtype=np.float32)
        for i, row in enumerate(b):
            idx, val = _bgcore.nn_encode(row.tobytes(), self.encoding)
            x[i, idx] = val
        return x

    def forward(self, x: np.ndarray, net: str) -> np.ndarray:
        """float64 ``(m, 5)``: net ``net``'s raw outputs for inputs ``x`` ``(m, inputs)``."""
        if net not in self.nets:
            raise InvalidWeightsError(f"no net {net!r}: these are {list(self.nets)}")
        w = self.weights
        h = act(np.asarray(x, dtype=np.float64) @ w[f"{net}_w1"] + w[f"{net}_b1"])
        if f"{net}_wm" in w:
            h = act(h @ w[f"{net}_wm"].T + w[f"{net}_bm"])
        return np.asarray(logistic(h @ w[f"{net}_w2"].T + w[f"{net}_b2"]))

    def evaluate(self, boards: Any) -> np.ndarray:
        """float64 ``(m, 5)``: the nets' tidied chances for the player on roll."""
        b = _boards(boards)
        nets = self.classify(b)
        x = self.inputs(b)
        out = np.zeros((len(b), 5))
        for c, name in enumerate(self.nets):
            rows = nets == c
            if rows.any():
                out[rows] = self.forward(x[rows], name)
        return tidy(b, out)


def tidy(boards: np.ndarray, out: np.ndarray) -> np.ndarray:
    """The outputs ordered (``win >= wg >= wbg``, ``1 - win >= lg >= lbg``) and the
    gammons a borne-off checker rules out set to 0, as the core does."""
    b = boards.astype(np.int64)
    out = out.copy()
    own_all = np.clip(b, 0, None).sum(axis=1) >= 15
    opp_all = np.clip(-b, 0, None).sum(axis=1) >= 15
    out[~opp_all, 1:3] = 0.0
    out[~own_all, 3:5] = 0.0
    out[:, 1] = np.minimum(out[:, 1], out[:, 0])
    out[:, 2] = np.minimum(out[:, 2], out[:, 1])
    out[:, 3] = np.minimum(out[:, 3], 1.0 - out[:, 0])
    out[:, 4] = np.minimum(out[:, 4], out[:, 3])
    return out


def _boards(boards: Any) -> np.ndarray:
    from backgammon.position import Position
    if isinstance(boards, Position):
        boards = [boards]
    rows = [p.to_array() if isinstance(p, Position) else p for p in boards] \
        if isinstance(boards, (list, tuple)) else boards
    b = np.ascontiguousarray(rows, dtype=np.int8)
    if b.ndim != 2 or b.shape[1] != 26:
        raise InvalidPositionError(f"boards are Positions or an (m, 26) array, got shape {b.shape}")
    for row in b:
        Position.from_array(row)   # a position at all (InvalidPositionError naming it)
    return b
