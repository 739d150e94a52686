"""backgammon: a fast, exact backgammon engine.

    >>> import backgammon as bg
    >>> pos = bg.Position.initial()
    >>> len(pos.legal_plays((3, 1)))
    16
"""

from backgammon import _blas  # noqa: F401  first: the command's BLAS threads, before numpy loads
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
from backgammon.display import svg
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
from backgammon.analysis.duel import DuelResult, duel
from backgammon.rollout.plays import CandidateRow, PlaysRollout, rollout_plays
from backgammon.cube import cubeful, met
from backgammon.analysis import Analysis, analyse
from backgammon.rollout.cube import rollout_cube
from backgammon.formats import read_record
from backgammon.display import RankedPlays, install_displays as _install_displays

_install_displays()  # Jupyter displays of Evaluation and DuelResult

import importlib.abc as _importlib_abc
import sys as _sys
import types as _types
from typing import TYPE_CHECKING, Any as _Any

if TYPE_CHECKING:   # loaded on first use (__getattr__ below); typed here for checkers
    from backgammon import env
    from backgammon.training import benchmark, targets
    from backgammon.env.bots import Bot
    from backgammon.env.encoders import encode
    from backgammon.analysis.judging import JudgedDecision, Judgement, judge
    from backgammon.training.train import train

__version__ = "0.2.0.dev0"   # the next release, 0.2.0, in the making (CHANGELOG.md)

# The heavy parts load on first use, not with ``import backgammon``: training,
# targets, the strength benchmark, judging and the environments.  name ->
# (module, attribute of it, or None for the module itself).
_LAZY: dict[str, tuple[str, str | None]] = {
    "train": ("backgammon.training.train", "train"),
    "targets": ("backgammon.training.targets", None),
    "benchmark": ("backgammon.training.benchmark", None),
    "env": ("backgammon.env", None),
    "encode": ("backgammon.env.encoders", "encode"),
    "Bot": ("backgammon.env.bots", "Bot"),
    "JudgedDecision": ("backgammon.analysis.judging", "JudgedDecision"),
    "Judgement": ("backgammon.analysis.judging", "Judgement"),
    "judge": ("backgammon.analysis.judging", "judge"),
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
    (as it always was), though the old module path ``backgammon.train`` still imports
    (the deprecated name of ``backgammon.training.train``).  Importing it makes Python
    set the package's attribute to the module; this keeps the function."""

    def __setattr__(self, name: str, value: _Any) -> None:
        if name == "train" and isinstance(value, _types.ModuleType):
            return
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package

# Old module paths (before the layers became subpackages) keep working for a
# deprecation period: importing one warns and gives the module at its new place.
_MOVED = {
    "backgammon.cubeful": "backgammon.cube.cubeful", "backgammon.met": "backgammon.cube.met",
    "backgammon.cube_search": "backgammon.cube.search",
    "backgammon._rollout_engine": "backgammon.rollout.engine",
    "backgammon.candidates": "backgammon.rollout.plays",
    "backgammon.cube_rollout": "backgammon.rollout.cube",
    "backgammon.analysis_html": "backgammon.analysis.html",
    "backgammon.judging": "backgammon.analysis.judging", "backgammon.duel": "backgammon.analysis.duel",
    "backgammon.train": "backgammon.training.train",
    "backgammon.supervised": "backgammon.training.supervised",
    "backgammon.targets": "backgammon.training.targets",
    "backgammon.benchmark": "backgammon.training.benchmark",
    "backgammon.engine": "backgammon.protocols",
    "backgammon.engine.external": "backgammon.protocols.external",
    "backgammon.engine.fibs": "backgammon.protocols.fibs",
    "backgammon.engine.ubgi": "backgammon.protocols.ubgi",
    "backgammon.diagram": "backgammon.display.diagram", "backgammon.svg": "backgammon.display.svg",
    "backgammon.nn_export": "backgammon.nn.export",
}


class _MovedFinder(_importlib_abc.MetaPathFinder, _importlib_abc.Loader):
    """Finds an old module path of :data:`_MOVED` and loads the module at its new place."""

    def find_spec(self, name: str, path: _Any, target: _Any = None) -> _Any:
        if name not in _MOVED:
            return None
        import importlib.util
        return importlib.util.spec_from_loader(name, self)

    def create_module(self, spec: _Any) -> _Any:
        import importlib
        import warnings
        new = _MOVED[spec.name]
        warnings.warn(f"{spec.name} is now {new}; the old path goes in a later release",
                      DeprecationWarning, stacklevel=2)
        return importlib.import_module(new)

    def exec_module(self, module: _Any) -> None:
        """The module at its new place is already executed."""


# first: a moved package (backgammon.engine) would otherwise lend its new __path__ to
# the default finder, which would load a second copy of a submodule under the old name
_sys.meta_path.insert(0, _MovedFinder())

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
