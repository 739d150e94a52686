"""backgammon: a fast, exact backgammon engine.

    >>> import backgammon as bg
    >>> pos = bg.Position.initial()
    >>> len(pos.legal_plays((3, 1)))
    16
"""

from backgammon.errors import (
    AmbiguousPlayError,
    BackgammonError,
    FormatLossError,
    FormatLossWarning,
    GameOverError,
    IllegalActionError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidPlayError,
    InvalidBenchmarkError,
    InvalidPositionError,
    InvalidRecordError,
    InvalidRulesError,
    InvalidWeightsError,
    TrainingDataError,
    InvalidSetupError,
    MatchEquityError,
)
from backgammon.errors import (  # a game action's refusal: the precise class and IllegalActionError
    AmbiguousPlayActionError,
    IllegalDiceActionError,
    IllegalPlayActionError,
    InvalidPlayActionError,
)
from backgammon.position import ALL_ROLLS, LegalPlays, Outcome, Play, Position, parse_dice_text
from backgammon import svg
from backgammon.batch import batch_successors
from backgammon.perft import perft
from backgammon import pubeval
from backgammon import bearoff
from backgammon.rules import Rules
from backgammon.game import Action, DiceSource, Game, GameResult, Phase
from backgammon.match import Match
from backgammon.chouette import Chouette
from backgammon.cube import CubeDecision, EvaluatorCubePolicy, PipCountCubePolicy, cube_decision
from backgammon.rollout import Estimate, RolloutError, RolloutResult, read_position, rollout
from backgammon.nn import Evaluation, Evaluator, RankedPlay, evaluate
from backgammon.duel import DuelResult, duel
from backgammon.candidates import CandidateRow, PlaysRollout, rollout_plays
from backgammon.train import train
from backgammon import cubeful, met, targets
from backgammon.analysis import Analysis, analyse
from backgammon import benchmark
from backgammon.cube_rollout import rollout_cube
from backgammon.display import RankedPlays, install_displays as _install_displays

_install_displays()  # Jupyter displays of Evaluation and DuelResult
from backgammon import env
from backgammon.env.encoders import encode
from backgammon.env.bots import Bot
from backgammon.judging import JudgedDecision, Judgement, judge

__version__ = "0.1.0"

__all__ = [
    "ALL_ROLLS",
    "Action",
    "AmbiguousPlayActionError",
    "IllegalDiceActionError",
    "IllegalPlayActionError",
    "InvalidPlayActionError",
    "Analysis",
    "AmbiguousPlayError",
    "BackgammonError",
    "Bot",
    "CandidateRow",
    "Chouette",
    "CubeDecision",
    "DiceSource",
    "DuelResult",
    "Estimate",
    "Evaluation",
    "Evaluator",
    "EvaluatorCubePolicy",
    "FormatLossError",
    "FormatLossWarning",
    "Game",
    "GameOverError",
    "GameResult",
    "IllegalActionError",
    "IllegalPlayError",
    "InvalidBenchmarkError",
    "JudgedDecision",
    "Judgement",
    "InvalidDiceError",
    "InvalidPlayError",
    "InvalidPositionError",
    "InvalidRecordError",
    "InvalidRulesError",
    "InvalidWeightsError",
    "TrainingDataError",
    "InvalidSetupError",
    "LegalPlays",
    "Match",
    "MatchEquityError",
    "Outcome",
    "Phase",
    "PipCountCubePolicy",
    "Play",
    "PlaysRollout",
    "Position",
    "RankedPlay",
    "RankedPlays",
    "RolloutError",
    "RolloutResult",
    "Rules",
    "analyse",
    "batch_successors",
    "duel",
    "encode",
    "env",
    "evaluate",
    "judge",
    "bearoff",
    "benchmark",
    "cube_decision",
    "cubeful",
    "met",
    "parse_dice_text",
    "perft",
    "pubeval",
    "read_position",
    "rollout",
    "rollout_cube",
    "rollout_plays",
    "svg",
    "train",
]
