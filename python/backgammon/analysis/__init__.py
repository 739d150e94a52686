"""Analysis of recorded games: every decision scored (:mod:`.decisions`), its HTML
report (:mod:`.html`), a bot judged on recorded decisions (:mod:`.judging`) and
duels of two policies on duplicate dice (:mod:`.duel`).
"""

from backgammon.analysis.decisions import (
    Analysis,
    Decision,
    GameEnd,
    PlayerStats,
    Roll,
    SKILL_THRESHOLDS,
    XG_THRESHOLDS,
    LUCK_THRESHOLDS,
    analyse,
    default_evaluator,
)

__all__ = [
    "Analysis",
    "Decision",
    "GameEnd",
    "PlayerStats",
    "Roll",
    "SKILL_THRESHOLDS",
    "XG_THRESHOLDS",
    "LUCK_THRESHOLDS",
    "analyse",
    "default_evaluator",
]

# the rest of what the module analysis.py offered before it became this package
from backgammon.analysis.decisions import (  # noqa: E402
    CLOSE_CUBE as CLOSE_CUBE,
    XG_CLOSE_CUBE as XG_CLOSE_CUBE,
    FORMAT as FORMAT,
    VERSION as VERSION,
    decision_context as decision_context,
    DEFAULT_PLY as DEFAULT_PLY,
    is_nets as is_nets,
    Valuer as Valuer,
    play_text as play_text,
    doubler_choice as doubler_choice,
    taker_choice as taker_choice,
    games_of as games_of,
)
