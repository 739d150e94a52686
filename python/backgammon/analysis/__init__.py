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
