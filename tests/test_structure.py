"""The package's modules use each other only through public names.

The rule, checked on the source of every module of the installed package with
``ast``:

- A module may import from another module of the package (``from backgammon.x
  import y``, ``from .x import y``, or ``m.y`` on a module ``m`` bound by an
  import) only names without a leading underscore.  A helper that another module
  needs is public *within the package*: it loses its underscore, and ``__all__``
  still decides what users are offered (``from backgammon.cube import game_score``
  is fine; ``from backgammon.cube import _game_score`` is not).
- Internal modules, whose own name starts with an underscore, are meant to be
  imported: their names without an underscore are their interface.  They are
  listed in :data:`INTERNAL_MODULES`, so that a new one is added on purpose:
  ``_bgcore`` (the compiled core), ``_blas`` (the command's BLAS threads),
  ``_dicts``, ``_numbers``, ``_show``,
  ``_game_state`` (the state that ``Game`` extends with its actions, and their
  checked arguments), ``nn._npz`` (reading untrusted ``.npz`` files),
  ``formats._walk`` (the record writers' walk over a game's actions),
  ``env._checks`` (the environments' checks of their arguments) and
  ``server._protocol``.  An internal module
  with ``__all__`` offers exactly those names: importing another of its names is
  an error too.
- Dunder names (``__version__``) are public; a module's own private names, and
  attributes of objects (``position._b``), are not imports and not checked here.

When this test fails, make the imported helper public in its module (drop the
underscore, give it a docstring) rather than extending an allow-list.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import inspect
import pickle
from pathlib import Path

import pytest

import backgammon

PACKAGE = Path(backgammon.__file__).parent
INTERNAL_MODULES = {f"backgammon.{name}" for name in (
    "_bgcore", "_blas", "_dicts", "_numbers", "_show", "_game_state",
    "nn._npz", "formats._walk", "env._checks", "server._protocol")}


def _modules() -> dict[str, Path]:
    """Every Python module of the package: dotted name -> source file."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _is_module(dotted: str) -> bool:
    return dotted in MODULES or dotted == "backgammon._bgcore"


def _resolve(node: ast.ImportFrom, module: str, is_package: bool) -> str | None:
    """The absolute module an ``ImportFrom`` reads from, or None when outside."""
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[:len(base) - (node.level - 1)]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    return target if target == "backgammon" or target.startswith("backgammon.") else None


def _offered(target: str) -> set[str] | None:
    """The ``__all__`` of an internal module, or None when it has none (or is public)."""
    if target not in INTERNAL_MODULES:
        return None
    names = getattr(importlib.import_module(target), "__all__", None)
    return set(names) if names is not None else None


def violations(module: str, source: str, where: str, is_package: bool = False) -> list[str]:
    """The imports of ``module`` (its ``source``, named ``where`` in messages;
    ``is_package``: an ``__init__.py``) that break the rule."""
    tree = ast.parse(source, where)
    found: list[str] = []
    aliases: dict[str, str] = {}  # a name bound to a package module -> that module
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("backgammon.") and _is_module(a.name):
                    if _is_private(a.name.rsplit(".", 1)[-1]) and \
                            a.name not in INTERNAL_MODULES:
                        found.append(f"{where}:{node.lineno}: import {a.name}")
                    if a.asname:
                        aliases[a.asname] = a.name
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(node, module, is_package)
            if target is None or target == module:
                continue
            offered = _offered(target)
            for a in node.names:
                if a.name == "*":
                    continue
                sub = f"{target}.{a.name}"
                if _is_module(sub):  # a module imported by name
                    aliases[a.asname or a.name] = sub
                    if _is_private(a.name) and sub not in INTERNAL_MODULES:
                        found.append(f"{where}:{node.lineno}: from {target} import {a.name}")
                elif _is_private(a.name):
                    found.append(f"{where}:{node.lineno}: from {target} import {a.name}")
                elif offered is not None and a.name not in offered:
                    found.append(f"{where}:{node.lineno}: from {target} import {a.name} "
                                 f"(not in its __all__)")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in aliases and aliases[node.value.id] != module \
                and _is_private(node.attr):
            found.append(f"{where}:{node.lineno}: {node.value.id}.{node.attr} "
                         f"({aliases[node.value.id]})")
    return found


def test_the_package_has_modules_to_check():
    assert {"backgammon.rollout", "backgammon.rollout.plays", "backgammon.rollout.engine",
            "backgammon.cli", "backgammon.formats.sgf"} <= set(MODULES)


def test_no_module_imports_another_modules_private_names():
    found = [v for module, path in MODULES.items()
             for v in violations(module, path.read_text(encoding="utf-8"),
                                 str(path.relative_to(PACKAGE.parent)),
                                 path.name == "__init__.py")]
    assert found == [], ("private names imported from other modules (make them public "
                         "in their module, see this test's docstring):\n" + "\n".join(found))


def test_the_internal_modules_are_those_listed():
    on_disk = {name for name in MODULES if _is_private(name.split(".")[-1])}
    on_disk |= {"backgammon._bgcore"}  # compiled: no .py source
    assert on_disk == INTERNAL_MODULES
    importlib.import_module("backgammon._bgcore")


@pytest.mark.parametrize("source, expected", [
    ("from backgammon.cube import _game_score\n", ["from backgammon.cube import _game_score"]),
    ("from backgammon.cube import game_score\n", []),
    ("from .cube import _game_score\n", ["from backgammon.cube import _game_score"]),
    ("from backgammon import rollout as r\nr._helper()\n", ["r._helper (backgammon.rollout)"]),
    ("import backgammon.nn as nn\nnn._eval()\n", ["nn._eval (backgammon.nn)"]),
    ("from backgammon import _bgcore\n_bgcore.playout\n", []),
    ("from backgammon.rollout.engine import estimate, STRATA\n", []),
    ("from backgammon.rollout.engine import _threaded\n",
     ["from backgammon.rollout.engine import _threaded"]),
    ("from backgammon.nn._npz import zipfile\n",
     ["from backgammon.nn._npz import zipfile (not in its __all__)"]),
    ("from backgammon import __version__\n", []),
    ("from backgammon.formats.mat import _hidden\n",
     ["from backgammon.formats.mat import _hidden"]),
])
def test_the_check_sees_each_kind_of_private_import(source, expected):
    found = violations("backgammon.probe", source, "probe.py")
    assert [f.split(": ", 1)[1] for f in found] == expected


# The engine's interface: small, documented, and the equity and candidate
# rollouts use nothing else of it.

def test_the_engine_interface_is_documented():
    engine = importlib.import_module("backgammon.rollout.engine")
    for name in engine.__all__:
        obj = getattr(engine, name)
        if inspect.isfunction(obj) or inspect.isclass(obj):
            assert (obj.__doc__ or "").strip(), f"_rollout_engine.{name} has no docstring"
            if inspect.isfunction(obj):
                assert "return" in obj.__annotations__, f"_rollout_engine.{name}: no type hints"
    result = doctest.testmod(engine)
    assert result.failed == 0 and result.attempted > 0


def test_the_public_rollout_names_stay_where_users_find_them():
    rollout = importlib.import_module("backgammon.rollout")
    engine = importlib.import_module("backgammon.rollout.engine")
    for name in ("Estimate", "Policy", "read_estimate", "run_chunk", "run_chunk_ex"):
        assert getattr(rollout, name) is getattr(engine, name)
    for name in ("Estimate", "RolloutError", "RolloutResult", "rollout", "read_position",
                 "Policy"):
        assert name in rollout.__all__
    assert backgammon.Estimate is rollout.Estimate
    assert backgammon.Estimate.__module__ == "backgammon.rollout"
    e = backgammon.Estimate(0.5, 0.1, 0.3, 0.7)
    assert pickle.loads(pickle.dumps(e)) == e
    assert pickle.loads(pickle.dumps(rollout.run_chunk)) is engine.run_chunk


def test_the_cli_only_calls_the_library():
    """cli.py parses arguments, calls the library and prints: it reaches no engine."""
    tree = ast.parse(MODULES["backgammon.cli"].read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.module}
    assert "backgammon.rollout.engine" not in imported


# The heavy parts load on first use (backgammon/__init__.py's __getattr__).
HEAVY = ("backgammon.training.train", "backgammon.training.supervised", "backgammon.training.targets",
         "backgammon.training.benchmark", "backgammon.analysis.judging", "backgammon.env", "backgammon.server")
ALL_NAMES = (  # backgammon.__all__ of 0.1.0: every name stays
    "ALL_ROLLS Action AmbiguousPlayActionError IllegalDiceActionError IllegalPlayActionError "
    "InvalidPlayActionError Analysis AmbiguousPlayError BackgammonError Bot CandidateRow "
    "Chouette CubeDecision DiceSource DuelResult Estimate Evaluation Evaluator "
    "EvaluatorCubePolicy FormatLossError FormatLossWarning Game GameOverError GameResult "
    "IllegalActionError IllegalPlayError InvalidBenchmarkError JudgedDecision Judgement "
    "InvalidDiceError InvalidPlayError InvalidPositionError InvalidRecordError "
    "InvalidRulesError InvalidWeightsError TrainingDataError InvalidSetupError LegalPlays "
    "Match MatchEquityError Outcome Phase PipCountCubePolicy Play PlaysRollout Position "
    "RankedPlay RankedPlays RolloutError RolloutResult Rules analyse batch_successors duel "
    "encode env evaluate judge bearoff benchmark cube_decision cubeful met parse_dice_text "
    "perft pubeval read_position rollout rollout_cube rollout_plays svg train").split()


def _fresh_python(code: str) -> str:
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout


def test_import_backgammon_loads_none_of_the_heavy_parts():
    out = _fresh_python(
        "import sys, backgammon\n"
        f"heavy = {HEAVY!r}\n"
        "print(sorted(m for m in sys.modules if m.startswith(heavy)))\n"
        "print(sorted(m for m in ('gymnasium', 'pettingzoo', 'fastapi', 'dask', 'tqdm')"
        " if m in sys.modules))\n")
    assert out.split("\n")[:2] == ["[]", "[]"]


def test_every_public_name_is_there_and_the_heavy_ones_load_on_first_use():
    assert set(ALL_NAMES) <= set(backgammon.__all__)
    assert set(backgammon.__all__) <= set(dir(backgammon))
    out = _fresh_python(
        "import inspect, sys, types, backgammon as bg\n"
        f"missing = [n for n in {ALL_NAMES!r} if not hasattr(bg, n)]\n"
        "print(missing, 'backgammon.analysis.judging' in sys.modules)\n"
        # the function train, though a module backgammon.training.train exists and is imported
        "import backgammon.training.train\n"
        "print(inspect.isfunction(bg.train), inspect.ismodule(backgammon.training.train),"
        " type(sys.modules['backgammon.training.train']) is types.ModuleType)\n"
        "print(isinstance(bg.env, types.ModuleType), isinstance(bg.benchmark, types.ModuleType),"
        " isinstance(bg.targets, types.ModuleType), bg.Bot.__module__, bg.encode.__module__)\n")
    lines = out.split("\n")
    assert lines[0] == "[] True"      # all there, and judging loaded by being asked for
    assert lines[1] == "True True True"
    assert lines[2] == "True True True backgammon.env.bots backgammon.env.encoders"
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        backgammon.no_such_name  # noqa: B018


def test_pubeval_installs_its_weights_once_on_demand():
    from backgammon import pubeval

    pubeval.install()
    pubeval.install()     # idempotent
    assert round(pubeval.score(backgammon.Position.initial()), 5) == 6.84055


def test_the_version_is_one_everywhere(capsys):
    import re
    from importlib import metadata

    from backgammon.cli import main

    assert re.fullmatch(r"\d+\.\d+\.\d+((a|b|rc)\d+)?(\.dev\d+)?", backgammon.__version__)
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"backgammon {backgammon.__version__}\n"
    try:   # the installed wheel's metadata (pyproject reads the version from the package)
        installed = metadata.version("backgammon")
    except metadata.PackageNotFoundError:
        return   # the checkout, imported without installing
    assert installed == backgammon.__version__


# The layers (docs/architecture.md): a module imports only from its own layer and
# those below it, counting imports made inside functions too (not those for type
# annotations alone, under TYPE_CHECKING), except the named conveniences of UPWARD.  The longest prefix decides a module's layer.
LAYERS = [
    ("core", ("backgammon._bgcore", "backgammon.errors", "backgammon._show", "backgammon._numbers",
              "backgammon._dicts", "backgammon._blas")),
    ("model", ("backgammon.position", "backgammon.notation", "backgammon.rules", "backgammon.batch",
               "backgammon.perft", "backgammon.bearoff", "backgammon.pubeval", "backgammon.game",
               "backgammon.game_types", "backgammon.dice", "backgammon._game_state",
               "backgammon.match", "backgammon.chouette", "backgammon.formats", "backgammon.display")),
    ("nn", ("backgammon.nn",)),
    ("cube", ("backgammon.cube",)),
    ("rollout", ("backgammon.rollout",)),
    ("analysis and training", ("backgammon.analysis", "backgammon.training")),
    ("applications", ("backgammon.protocols", "backgammon.env", "backgammon.server")),
    ("the package", ("backgammon.cli", "backgammon.__main__")),
]
# (importing module, imported module): the conveniences that reach up, each for a reason
UPWARD = {
    ("backgammon.position", "backgammon.nn"): "Position.evaluate / best_play / rank_plays",
    ("backgammon.game", "backgammon.cube"): "a game's cube decisions (Game.cube_decision)",
    ("backgammon.game", "backgammon.protocols.fibs"): "Game.to_fibs / from_fibs (FIBS boards)",
    ("backgammon.display", "backgammon.nn"): "the notebook display of an Evaluation",
    ("backgammon.display", "backgammon.analysis.duel"): "the notebook display of a DuelResult",
    ("backgammon._dicts", "backgammon.rollout"): "an Estimate read back from a dict",
    ("backgammon.analysis.duel", "backgammon.env.duel_loop"): "duels play the env's game loop",
    ("backgammon.analysis.judging", "backgammon.env.duel_loop"): "a judged bot plays that loop",
    ("backgammon.analysis.judging", "backgammon.env.opponents"): "a judged bot is an opponent",
}


def _layer(module: str) -> int | None:
    best: tuple[int, int] | None = None
    for i, (_, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and (best is None or len(p) > best[1]):
                best = (i, len(p))
    return None if best is None else best[0]


def _type_only(tree: ast.AST) -> set[int]:
    """The ids of the nodes under ``if TYPE_CHECKING:``: imports for annotations
    alone, which never run, so they may name the types of any layer."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and (
                (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
                or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")):
            out.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return out


def _imports(path: Path) -> list[tuple[str, int]]:
    """The package's modules a source file imports (anywhere in it, but for the
    type-only imports under ``if TYPE_CHECKING:``), with lines."""
    out = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_only(tree)
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "backgammon":
                out += [(f"backgammon.{a.name}", node.lineno) for a in node.names
                        if not a.name.startswith("__")]   # __version__: everyone's
            elif node.module.startswith("backgammon."):
                out.append((node.module, node.lineno))
        elif isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names if a.name.startswith("backgammon.")]
    return out


def test_type_only_imports_do_not_count(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("from typing import TYPE_CHECKING\nimport typing\n"
                     "from backgammon.rules import Rules\n"
                     "if TYPE_CHECKING:\n    from backgammon.nn import Evaluator\n"
                     "if typing.TYPE_CHECKING:\n    import backgammon.server.app\n"
                     "def f():\n    from backgammon.cube import met\n")
    assert _imports(probe) == [("backgammon.rules", 3), ("backgammon.cube", 9)]


def test_every_module_has_a_layer():
    assert [m for m in MODULES if m != "backgammon" and _layer(m) is None] == []


def test_no_module_imports_from_a_layer_above_its_own():
    """The layers as drawn in docs/architecture.md: lower layers never import
    upper ones, but for the conveniences named in UPWARD."""
    found, used = [], set()
    for module, path in MODULES.items():
        mine = _layer(module)
        if module == "backgammon" or mine is None:
            continue
        for target, line in _imports(path):
            theirs = _layer(target)
            if theirs is None or theirs <= mine:
                continue
            key = next((k for k in UPWARD if k[0] == module
                        and (target == k[1] or target.startswith(k[1] + "."))), None)
            if key is None:
                found.append(f"{module}:{line} ({LAYERS[mine][0]}) imports {target} "
                             f"({LAYERS[theirs][0]})")
            else:
                used.add(key)
    assert found == [], "imports from a layer above:\n" + "\n".join(found)
    assert set(UPWARD) - used == set(), "UPWARD lists conveniences no longer used"


def test_old_module_paths_still_import_with_a_warning():
    """The modules that moved into the layers' subpackages keep their old paths
    for a deprecation period: the same module object, with a DeprecationWarning."""
    import sys
    import warnings
    for old, new in (("backgammon.cube_search", "backgammon.cube.search"),
                     ("backgammon.engine", "backgammon.protocols"),
                     ("backgammon.engine.ubgi", "backgammon.protocols.ubgi"),   # its parent moved
                     ("backgammon.supervised", "backgammon.training.supervised")):
        sys.modules.pop(old, None)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            module = importlib.import_module(old)
        assert module is importlib.import_module(new)
        assert any(issubclass(w.category, DeprecationWarning) and new in str(w.message)
                   for w in caught)
