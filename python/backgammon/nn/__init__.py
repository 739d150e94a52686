"""The neural evaluator: nets run by the core (:mod:`.evaluator`: the
:class:`Evaluator`, its file format and the bundled nets), their n-ply search
(:mod:`.search`) and their export to numpy and PyTorch (:mod:`.export`).

    >>> import backgammon as bg
    >>> e = bg.Evaluator.default().evaluate(bg.Position.initial())
    >>> 0.4 < e.win < 0.6
    True
"""

from backgammon.nn.evaluator import DEFAULT_KEEP, DEFAULT_MARGIN, SEARCH_KEEP, Evaluation, Evaluator
from backgammon.nn.search import FILTERS, MoveFilter, RankedPlay, best_play, evaluate, rank_plays

# what the module backgammon.nn offered before it became this package, kept importable
from backgammon.nn.evaluator import ARCHITECTURE as ARCHITECTURE  # noqa: E402
from backgammon.nn.evaluator import ARCHITECTURE_MIDDLE as ARCHITECTURE_MIDDLE  # noqa: E402
from backgammon.nn.evaluator import ARCHITECTURE_CRELU as ARCHITECTURE_CRELU  # noqa: E402
from backgammon.nn.evaluator import ENCODING as ENCODING  # noqa: E402
from backgammon.nn.evaluator import ENCODINGS as ENCODINGS  # noqa: E402
from backgammon.nn.evaluator import FORMAT as FORMAT  # noqa: E402
from backgammon.nn.evaluator import INPUTS as INPUTS  # noqa: E402
from backgammon.nn.evaluator import MAX_KEEP as MAX_KEEP  # noqa: E402
from backgammon.nn.evaluator import NETS as NETS  # noqa: E402
from backgammon.nn.evaluator import OUTPUTS as OUTPUTS  # noqa: E402
from backgammon.nn.evaluator import VERSION as VERSION  # noqa: E402
from backgammon.nn.evaluator import VERSIONS as VERSIONS  # noqa: E402
from backgammon.nn.search import checked_ply as checked_ply  # noqa: E402
from backgammon.nn.search import eval_ply as eval_ply  # noqa: E402
from backgammon.nn.search import search_screen as search_screen  # noqa: E402

__all__ = ["DEFAULT_KEEP", "DEFAULT_MARGIN", "FILTERS", "SEARCH_KEEP", "Evaluation", "Evaluator",
           "MoveFilter", "RankedPlay", "best_play", "evaluate", "rank_plays"]
