"""Analysis of recorded games: what an analysis finds (:mod:`.decisions`), how it
values and walks the games (:mod:`.analyser`), its report (:mod:`.report`, and
:mod:`.html` for the page), a bot judged on recorded decisions (:mod:`.judging`) and
duels of two policies on duplicate dice (:mod:`.duel`).
"""

from backgammon.analysis.analyser import analyse, default_evaluator
from backgammon.analysis.decisions import (LUCK_THRESHOLDS, SKILL_THRESHOLDS, XG_THRESHOLDS,
                                           Decision, GameEnd, PlayerStats, Roll)
from backgammon.analysis.report import Analysis

# the rest of what the module backgammon.analysis offered before it became this package
from backgammon.analysis.analyser import DEFAULT_PLY as DEFAULT_PLY  # noqa: E402
from backgammon.analysis.analyser import Valuer as Valuer  # noqa: E402
from backgammon.analysis.analyser import decision_context as decision_context  # noqa: E402
from backgammon.analysis.analyser import doubler_choice as doubler_choice  # noqa: E402
from backgammon.analysis.analyser import games_of as games_of  # noqa: E402
from backgammon.analysis.analyser import is_nets as is_nets  # noqa: E402
from backgammon.analysis.analyser import play_text as play_text  # noqa: E402
from backgammon.analysis.analyser import taker_choice as taker_choice  # noqa: E402
from backgammon.analysis.decisions import CLOSE_CUBE as CLOSE_CUBE  # noqa: E402
from backgammon.analysis.decisions import FORMAT as FORMAT  # noqa: E402
from backgammon.analysis.decisions import VERSION as VERSION  # noqa: E402
from backgammon.analysis.decisions import XG_CLOSE_CUBE as XG_CLOSE_CUBE  # noqa: E402

__all__ = ["Analysis", "Decision", "GameEnd", "PlayerStats", "Roll", "SKILL_THRESHOLDS",
           "XG_THRESHOLDS", "LUCK_THRESHOLDS", "analyse", "default_evaluator"]
