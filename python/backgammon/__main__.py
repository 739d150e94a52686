"""``python -m backgammon``: the same as the ``backgammon`` command."""

import sys

from backgammon.cli import main

sys.exit(main())
