"""Sphinx configuration of the API reference, generated from the package's docstrings.

Build it (CI does, warnings as errors) with the package importable:

    python -m sphinx -W --keep-going -b html docs/api build/api
"""

import inspect
import sys
from pathlib import Path

import backgammon

project = "backgammon"
release = version = backgammon.__version__
extensions = ["sphinx.ext.autodoc", "sphinx.ext.viewcode"]
# each object documented where it is defined (a module's __all__ may name imports)
autodoc_default_options = {"members": True, "show-inheritance": True, "ignore-module-all": True}
# Stable-Baselines3 (the rl extra, with torch) stands in mocked where it is not installed
autodoc_mock_imports = ["stable_baselines3", "sb3_contrib", "torch"]
autodoc_inherit_docstrings = False   # a base class's docstring (gymnasium's) is not ours
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autoclass_content = "both"
# the doctest examples are part of the docstrings: shown, run by the suite, not here
html_theme = "alabaster"
html_title = f"backgammon {release}: API reference"
exclude_patterns = ["_build"]


def _names_table() -> str:
    """The names of ``import backgammon as bg``, each linked to where it is
    documented: written at each build, so it follows ``backgammon.__all__``."""
    rows = []
    for name in sorted(backgammon.__all__, key=str.lower):
        obj = getattr(backgammon, name)
        if inspect.ismodule(obj):
            ref = f":py:mod:`{obj.__name__}`"
        elif not (inspect.isclass(obj) or inspect.isroutine(obj)):   # data: where annotated
            home = next((m.__name__ for m in list(sys.modules.values())
                         if getattr(m, "__name__", "").startswith("backgammon.")
                         and name in getattr(m, "__annotations__", {})), "backgammon")
            ref = f":py:data:`{home}.{name}`"
        else:
            home = getattr(obj, "__module__", None) or "backgammon"
            ref = f":py:obj:`{home}.{getattr(obj, '__qualname__', name)}`"
        rows.append(f"   * - ``bg.{name}``\n     - {ref}")
    return (".. list-table::\n   :header-rows: 1\n\n   * - name\n     - documented as\n"
            + "\n".join(rows) + "\n")


(Path(__file__).parent / "names.inc").write_text(_names_table())
