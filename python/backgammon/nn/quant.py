"""Quantisation: float nets of encodings 5 and 6 as the integer nets the core runs.

The inputs of encodings 5 and 6 are all 0 or 1 (docs/nn.md), so a net's first layer is a
sum of weight columns, which the core keeps in int16 and updates by adding
and subtracting the columns a play changes; the dense layer after it
multiplies int16 weights by int16 activations into exact int32 sums
(``src/bgcore/nn/quant.h``).  This module picks each layer's power-of-two
scale, as fine as the bounds allow:

- first layer: each unit its own scale, the finest at which no position's
  sum can leave int16.  The bound: the bias, plus for each side the largest
  sum its slots can give with at most 15 checkers among them (a point's 15
  counts are one slot: at most one is set), plus each feature's largest
  weight, plus half a unit of rounding for each input a position can set;
  the same for the smallest sum;
- dense layer: every row's sum of ``|weight|`` times the largest activation
  (``2**HBITS`` for the soft sigmoid; ``2**s1``, the first layer's 1.0, for
  the clipped ReLU, whose activation is the clamped sum itself) stays within
  int32.

    >>> from backgammon.nn import Evaluator
    >>> ev = Evaluator.random(hidden=(64, 32), seed=1, encoding=5)
    >>> ev.quantised
    True
    >>> nets = quantise(ev.as_float())
    >>> [n.w1.dtype.name for n in nets], [n.w1.shape for n in nets]
    (['int16', 'int16'], [(938, 64), (938, 32)])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from backgammon import _bgcore
from backgammon.errors import InvalidWeightsError

if TYPE_CHECKING:
    from backgammon.nn.evaluator import Evaluator

HBITS: int = _bgcore.NN_QUANT_HBITS
"""Activations run from 0 to ``2**HBITS``."""
ALIGN: int = _bgcore.NN_QUANT_ALIGN
OUTROWS: int = _bgcore.NN_QUANT_OUTROWS
INT16_MAX = 32767
INT32_MAX = 2**31 - 1
MAX_SHIFT = 24


class QuantisedNet(NamedTuple):
    """One net in integers, as ``Nets.quantise`` takes it (nn/quant.h)."""

    w1: np.ndarray    #: int16 ``(inputs, hq)``: round(w1 * 2**s1), input-major
    b1: np.ndarray    #: int16 ``(hq,)``
    wd: np.ndarray    #: int16 ``(rows, hq)``: the dense layer, round(w * 2**s2)
    bd: np.ndarray    #: float32 ``(rows,)``: its biases
    w2: np.ndarray    #: float32 ``(5, rows)`` after a middle layer, else ``(5, 0)``
    b2: np.ndarray    #: float32 ``(5,)`` after a middle layer, else ``(0,)``
    s1: np.ndarray    #: int32 ``(hq,)``: each first-layer unit's scale, 2**s1 (one for all
                      #: with the clipped ReLU)
    s2: int           #: the dense layer's scale: 2**s2


SLOTS = 26            # a side's points, its bar and its borne-off checkers (nn/feat5.h)
COUNTS = 15
FEATURE_VALUES = {5: (36, 36, 7), 6: (36, 36, 7, 36, 14, 60, 25, 36, 40, 80, 24)}
"""The values of each feature count of a side, by encoding (nn/feat5.h, nn/feat6.h)."""


def input_groups(encoding: int = 5) -> np.ndarray:
    """The group of each input of ``encoding`` (5 or 6): inputs of one group
    are never set together (a point's counts, a feature's values).

        >>> g = input_groups()
        >>> len(g), int(g.max()) + 1     # 26 slots and 3 features, a side each
        (938, 58)
        >>> g = input_groups(6)
        >>> len(g), int(g.max()) + 1     # 26 slots and 11 features, a side each
        (1568, 74)
    """
    if encoding not in FEATURE_VALUES:
        raise InvalidWeightsError(f"quantised nets need the binary inputs of encoding 5 or 6, "
                                  f"not encoding {encoding}")
    raw = 2 * SLOTS * COUNTS
    sizes = FEATURE_VALUES[encoding]
    groups = np.empty(_bgcore.NN_INPUTS_BY_ENCODING[encoding], np.int64)
    groups[:raw] = np.arange(raw) // COUNTS
    kinds = np.repeat(np.arange(len(sizes)), sizes)
    groups[raw:] = 2 * SLOTS + np.concatenate([kinds, len(sizes) + kinds])
    return groups


def rounding(groups: np.ndarray) -> float:
    """Half a unit for each input a position sets at most (15 cells and the
    borne-off count a side, one value of each feature) and for the bias.

        >>> rounding(input_groups(5)), rounding(input_groups(6))
        (19.5, 27.5)
    """
    features = len(np.unique(groups[2 * SLOTS * COUNTS:]))
    return 0.5 * (2 * (COUNTS + 1) + features + 1)


def _round(a: np.ndarray, shift: int) -> np.ndarray:
    return np.rint(a.astype(np.float64) * 2.0**shift)




def _side_most(w: np.ndarray) -> np.ndarray:
    """For each unit, the largest sum of ``w`` (a side's ``SLOTS * COUNTS`` rows,
    slot-major) over positions of at most 15 checkers: a knapsack over the
    slots, the checkers its budget (0: none).  The borne-off slot counts as
    checkers too (board and off together are 15)."""
    best = np.full((COUNTS + 1, w.shape[1]), -np.inf)
    best[0] = 0.0                       # best[c]: the most with c checkers placed
    for slot in range(SLOTS):
        f = w[slot * COUNTS:(slot + 1) * COUNTS]     # row n - 1: n checkers there
        new = best.copy()
        for n in range(1, COUNTS + 1):
            new[n:] = np.maximum(new[n:], best[:COUNTS + 1 - n] + f[n - 1])
        best = new
    most: np.ndarray = best.max(axis=0)
    return most


def sum_bounds(w1: np.ndarray, b1: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """For each first-layer unit, a bound on ``|sum|`` over every position:
    ``max(largest, -smallest)`` of bias + both sides' slots + the features."""
    w = w1.astype(np.float64)
    side = SLOTS * COUNTS
    feats = [w[groups == g] for g in np.unique(groups[2 * side:])]
    out = np.zeros(w.shape[1])
    for sign in (1.0, -1.0):
        total = sign * b1.astype(np.float64) + _side_most(sign * w[:side]) \
            + _side_most(sign * w[side:2 * side])
        for f in feats:                  # at most one value of a feature is set, or none
            total += np.maximum((sign * f).max(axis=0), 0.0)
        out = np.maximum(out, total)
    return out


def _first_shifts(w1: np.ndarray, b1: np.ndarray, groups: np.ndarray,
                  most: int = MAX_SHIFT) -> np.ndarray:
    """Each unit's largest shift (at most ``most``) at which its sum cannot leave
    int16: ``bound * 2**s`` plus the rounding of every input stays within 32767."""
    bound = sum_bounds(w1, b1, groups)
    room = INT16_MAX - rounding(groups)
    with np.errstate(divide="ignore"):
        shifts = np.floor(np.log2(room / np.maximum(bound, 1e-30)))
    if (shifts < 0).any():
        raise InvalidWeightsError("first-layer weights too large to quantise (a unit's sums "
                                  "could leave int16 at any scale)")
    result: np.ndarray = np.minimum(shifts, most).astype(np.int32)
    return result


def _dense_shift(w: np.ndarray, hbits: int) -> int:
    """The largest shift at which the dense layer's weights fit int16 and its sums,
    with activations up to ``2**hbits``, int32."""
    for shift in range(MAX_SHIFT, -1, -1):
        q = np.abs(_round(w, shift))
        if q.max(initial=0) <= INT16_MAX and q.sum(axis=1).max(initial=0) * 2**hbits <= INT32_MAX:
            return shift
    raise InvalidWeightsError("dense weights too large to quantise")


def quantise_net(w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray,
                 wm: np.ndarray | None = None, bm: np.ndarray | None = None,
                 groups: np.ndarray | None = None, crelu: bool = False) -> QuantisedNet:
    """One float net (unpadded arrays, as :meth:`Evaluator.weights` gives
    them) in integers; ``groups`` as :func:`input_groups`; ``crelu``: its
    first layer is the clipped ReLU (it needs the middle layer)."""
    groups = input_groups() if groups is None else groups
    h = w1.shape[1]
    hq = -(-h // ALIGN) * ALIGN
    if w1.shape[0] != groups.size:
        raise InvalidWeightsError(f"{w1.shape[0]} inputs, the encoding has {groups.size}")
    if crelu and wm is None:
        raise InvalidWeightsError("the clipped ReLU runs in nets with a middle layer")
    shifts = _first_shifts(w1, b1, groups, 14 if crelu else MAX_SHIFT)  # crelu: 2**s1 is an int16
    if crelu:       # its activation is the sum itself: one scale for every unit
        shifts[:] = shifts.min()
    s1 = np.full(hq, shifts.min() if crelu else 0, np.int32)   # padding: silent units
    s1[:h] = shifts
    q1 = np.zeros((w1.shape[0], hq), np.int16)
    q1[:, :h] = np.rint(w1.astype(np.float64) * np.ldexp(1.0, shifts))
    qb1 = np.zeros(hq, np.int16)
    qb1[:h] = np.rint(b1.astype(np.float64) * np.ldexp(1.0, shifts))
    if wm is not None and bm is not None:
        mid = wm.shape[0]
        rows = -(-mid // 8) * 8
        dense = np.zeros((rows, hq), np.float64)
        dense[:mid, :h] = wm
        bd = np.zeros(rows, np.float32)
        bd[:mid] = bm
        out_w = np.zeros((5, rows), np.float32)
        out_w[:, :mid] = w2
        out_b = np.asarray(b2, np.float32).copy()
    else:
        rows = OUTROWS
        dense = np.zeros((rows, hq), np.float64)
        dense[:5, :h] = w2
        bd = np.zeros(rows, np.float32)
        bd[:5] = b2
        out_w = np.zeros((5, 0), np.float32)
        out_b = np.zeros(0, np.float32)
    s2 = _dense_shift(dense, int(shifts[0]) if crelu else HBITS)
    return QuantisedNet(q1, qb1, _round(dense, s2).astype(np.int16), bd, out_w, out_b, s1, s2)


def quantise(evaluator: Evaluator) -> list[QuantisedNet]:
    """Every net of ``evaluator`` (encoding 5 or 6) in integers, in its nets' order."""
    groups = input_groups(evaluator.encoding)
    w = evaluator.weights()
    return [quantise_net(w[f"{n}_w1"], w[f"{n}_b1"], w[f"{n}_w2"], w[f"{n}_b2"],
                         w.get(f"{n}_wm"), w.get(f"{n}_bm"), groups,
                         evaluator.crelu and f"{n}_wm" in w) for n in evaluator.nets]
