"""Convert a match equity table from gnubg's MET XML to this library's JSON form.

The bundled table was made with the Kazaross-XG2 file shipped inside the
``gnubg`` PyPI package (its notice travels with the data)::

    pip download --no-deps gnubg && unzip -j gnubg-*.whl 'gnubg/data/met/Kazaross-XG2.xml'
    python tools/make_met.py Kazaross-XG2.xml python/backgammon/data/kazaross-xg2.met.json
"""

import sys

from backgammon.cube.met import MatchEquityTable


def main(source: str, target: str) -> None:
    table = MatchEquityTable.load(source)
    with open(target, "w") as f:
        f.write(table.to_json() + "\n")
    print(f"{table.name}: {table.length} points -> {target}")


if __name__ == "__main__":
    main(*sys.argv[1:])
