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
from backgammon import cubeful, met
from backgammon.analysis import Analysis, analyse
from backgammon.cube_rollout import rollout_cube
from backgammon.formats import read_record
from backgammon.display import RankedPlays, install_displays as _install_displays

_install_displays()  # Jupyter displays of Evaluation and DuelResult

import sys as _sys
import types as _types
from typing import TYPE_CHECKING, Any as _Any

if TYPE_CHECKING:   # loaded on first use (__getattr__ below); typed here for checkers
    from backgammon import benchmark, env, targets
    from backgammon.env.bots import Bot
    from backgammon.env.encoders import encode
    from backgammon.judging import JudgedDecision, Judgement, judge
    from backgammon.train import train

__version__ = "0.2.0.dev0"   # the next release, 0.2.0, in the making (CHANGELOG.md)

# The heavy parts load on first use, not with ``import backgammon``: training,
# targets, the strength benchmark, judging and the environments.  name ->
# (module, attribute of it, or None for the module itself).
_LAZY: dict[str, tuple[str, str | None]] = {
    "train": ("backgammon.train", "train"),
    "targets": ("backgammon.targets", None),
    "benchmark": ("backgammon.benchmark", None),
    "env": ("backgammon.env", None),
    "encode": ("backgammon.env.encoders", "encode"),
    "Bot": ("backgammon.env.bots", "Bot"),
    "JudgedDecision": ("backgammon.judging", "JudgedDecision"),
    "Judgement": ("backgammon.judging", "Judgement"),
    "judge": ("backgammon.judging", "judge"),
}


def __getattr__(name: str) -> _Any:
    """A heavy part of the API, imported the first time it is asked for.

        >>> import backgammon as bg
        >>> bg.judge.__name__
        'judge'
    """
    try:
        module_name, attribute = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'backgammon' has no attribute {name!r}") from None
    import importlib

    module = importlib.import_module(module_name)
    value = module if attribute is None else getattr(module, attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


class _Package(_types.ModuleType):
    """The package's module type: ``backgammon.train`` is the function :func:`train`
    (as it always was), though a module of that name exists.  Importing that module
    makes Python set the package's attribute to the module; this keeps the function."""

    def __setattr__(self, name: str, value: _Any) -> None:
        if name == "train" and isinstance(value, _types.ModuleType):
            return
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package

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
    "read_record",
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
