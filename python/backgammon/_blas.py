"""One OpenBLAS thread for the ``backgammon`` command, asked for before numpy loads.

The command does no linear algebra, but OpenBLAS, which loads with numpy, starts a
thread per core, and each spins for a while before it sleeps: about 0.1 s of CPU per
command on two cores, seconds on many.  Imported first by the package, so that the
setting is made before numpy starts its threads; a choice of the user's
(``OPENBLAS_NUM_THREADS``, ``GOTO_NUM_THREADS``, ``OMP_NUM_THREADS``) is kept, and a
program that imports the library is left alone.
"""

from __future__ import annotations

import os
import sys

__all__ = ["is_the_command"]


def is_the_command(argv: list[str], orig_argv: list[str]) -> bool:
    """Whether a process started as ``backgammon ...`` (the console script: ``argv[0]``
    is its path) or ``python -m backgammon ...`` (``orig_argv``, Python's own command line).

        >>> is_the_command(["/venv/bin/backgammon", "rollout"], ["python", "/venv/bin/backgammon"])
        True
        >>> is_the_command(["-m"], ["python3", "-m", "backgammon", "rollout"])
        True
        >>> is_the_command(["train.py"], ["python", "train.py"])
        False
    """
    name = os.path.basename(argv[0] if argv else "").lower()
    return name in ("backgammon", "backgammon.exe") or orig_argv[1:3] == ["-m", "backgammon"]


if "numpy" not in sys.modules and is_the_command(sys.argv, getattr(sys, "orig_argv", [])) \
        and not any(k in os.environ for k in ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS",
                                             "OMP_NUM_THREADS")):
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
