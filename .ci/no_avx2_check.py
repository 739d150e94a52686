"""The installed wheel on a CPU without AVX2: .ci/run runs this under
``qemu-x86_64 -cpu Nehalem`` (SSE4.2, no AVX) and natively, and compares.

Under the emulated CPU the core must import (no instruction the CPU lacks outside
the dispatched kernels), pick its baseline kernels (float and integer), and evaluate,
choose and roll out exactly as natively: the kernels give identical results either way.

    python .ci/no_avx2_check.py [--expect-no-avx2]
"""

from __future__ import annotations

import sys

import backgammon as bg
from backgammon import _bgcore

if "--expect-no-avx2" in sys.argv and (_bgcore.NN_AVX2 or _bgcore.nn_quant_target() != "sse2"):
    sys.exit("the core chose its AVX2 kernels on a CPU without AVX2")
pos = bg.Position.initial().play([(8, 5), (6, 5)], (3, 1)).swapped()   # a contact position
ev, fast = bg.Evaluator.default(), bg.Evaluator.fast()
print("position", pos.position_id())
print("net 0-ply", repr(ev.evaluate(pos)))
print("fast 0-ply", repr(fast.evaluate(pos)))
print("net 1-ply best 64", pos.rank_plays((6, 4), ply=1)[0].play)
print("rollout", bg.rollout(pos, games=36, seed=1, policy=fast, workers=1).equity.value)
quant = bg.Evaluator.random(hidden=(256, 64, 128), middle=(32, 0, 0), seed=7, encoding=5)
print("quantised 0-ply", quant.evaluate_batch(rows := pos.to_array()[None]).tolist())
print("quantised choice", quant._nets.choose(pos._b, _bgcore.successors(pos._b, (6, 4)))[0])
print("avx2 kernels", _bgcore.NN_AVX2, "integer kernels", _bgcore.nn_quant_target(), file=sys.stderr)
