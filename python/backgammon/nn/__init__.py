"""The neural evaluator: nets run by the core (:mod:`.evaluator`: the
:class:`Evaluator`, its file format and the bundled nets), their n-ply search
(:mod:`.search`) and their export to numpy and PyTorch (:mod:`.export`).

    >>> import backgammon as bg
    >>> e = bg.Evaluator.default().evaluate(bg.Position.initial())
    >>> 0.4 < e.win < 0.6
    True
"""

from backgammon.nn.evaluator import (ARCHITECTURE, ARCHITECTURE_MIDDLE, DEFAULT_KEEP,
                                     DEFAULT_MARGIN, ENCODING, ENCODINGS, FORMAT, INPUTS,
                                     MAX_KEEP, NETS, OUTPUTS, SEARCH_KEEP, VERSION, VERSIONS,
                                     Evaluation, Evaluator)
from backgammon.nn.search import (FILTERS, MoveFilter, RankedPlay, best_play, checked_ply,
                                  eval_ply, evaluate, rank_plays, search_screen)

__all__ = ["DEFAULT_KEEP", "DEFAULT_MARGIN", "FILTERS", "SEARCH_KEEP", "Evaluation", "Evaluator",
           "MoveFilter", "RankedPlay", "best_play", "evaluate", "rank_plays"]
