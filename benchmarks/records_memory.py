"""Memory and time of the SGF and .mat readers on many empty games (issue 17).

Each case runs in a fresh interpreter: it builds the text, then reads it and
reports the peak traced memory (tracemalloc, a second run) and the growth of the
peak resident set (``ru_maxrss``, the first run) per input character, with the
seconds the read took.  The text itself is the baseline: "bytes per character"
is the memory a reader holds for each character it was given.

    python benchmarks/records_memory.py            # 0.25, 1 and 4 MB of each shape
    python benchmarks/records_memory.py --mb 2     # one size
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

CASE = r"""
import gc, json, resource, sys, time, tracemalloc
from backgammon.formats.mat import read_mat
from backgammon.formats.sgf import read_sgf
kind, size = sys.argv[1], int(sys.argv[2])
if kind == "mat":
    game = " Game 1\n A : 0   B : 0\n"
    text = " 0 point match\n\n" + game * (size // len(game))
    read = read_mat
else:
    text = kind * (size // len(kind))
    read = read_sgf
gc.collect()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
start = time.perf_counter()
try:
    games = len(read(text).games)
    error = None
except Exception as e:  # the game limit
    games, error = 0, f"{type(e).__name__}: {str(e)[:80]}"
seconds = time.perf_counter() - start
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before
tracemalloc.start()
try:
    read(text)
except Exception:
    pass
peak = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
print(json.dumps(dict(kind=kind, chars=len(text), games=games, seconds=seconds,
                      rss_per_char=rss / len(text), traced_per_char=peak / len(text),
                      error=error)))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, nargs="*", default=[0.25, 1, 4])
    args = parser.parse_args()
    print(f"{'input':<22} {'chars':>10} {'games':>8} {'s':>7} {'RSS B/char':>11} "
          f"{'traced B/char':>14}")
    for mb in args.mb:
        for kind in ("(;)", "(;GM[6])", "mat"):
            out = subprocess.run([sys.executable, "-c", CASE, kind, str(int(mb * 2 ** 20))],
                                 capture_output=True, text=True, check=True).stdout
            r = json.loads(out)
            label = f"{kind} x {mb:g} MB"
            print(f"{label:<22} {r['chars']:>10,} {r['games']:>8,} {r['seconds']:>7.2f} "
                  f"{r['rss_per_char']:>11.0f} {r['traced_per_char']:>14.0f}"
                  + (f"  {r['error']}" if r["error"] else ""))


if __name__ == "__main__":
    main()
