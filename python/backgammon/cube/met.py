"""Match equity tables: the chance of winning a match from a score.

A score is read as how far each player is from winning: ``away`` points for the
player asked about, ``opponent_away`` for the other.  The bundled table is
Kazaross-XG2 to 25 points, gnubg's default and XG's "MET: Kazaross XG2"
(its notice is kept in the data file and in :attr:`MatchEquityTable.notice`).

    >>> from backgammon import met
    >>> met.equity(1, 1)                    # double match point
    0.5
    >>> met.equity(2, 1)                    # 2-away against 1-away: the Crawford game
    0.32264
    >>> met.equity(2, 1, post_crawford=True)
    0.48803
    >>> met.equity(0, 3)                    # the match is won
    1.0

Past the table's 25 points the chances continue by the normal model of match
equity (:func:`extension`, docs/cube.md), to every match the library plays:

    >>> round(met.equity(26, 25), 5), met.equity(31, 31)
    (0.46974, 0.5)

Other tables load from gnubg's MET XML files (explicit tables, the form gnubg
ships) with :meth:`MatchEquityTable.from_gnubg_xml`, or from this library's JSON
form with :meth:`MatchEquityTable.from_json`.
"""

from __future__ import annotations

import json
import math
import xml.parsers.expat
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from statistics import NormalDist
from typing import Any, NamedTuple, TypedDict

from backgammon.errors import MatchEquityError
from backgammon._numbers import integer
from backgammon._show import shown

__all__ = ["FORMAT", "MAX_AWAY", "Extension", "MatchEquityTable", "check_score", "default_table",
           "equity", "extension", "gammon_values"]

FORMAT = "backgammon-met"
"""The ``format`` field of this library's JSON tables (version 1)."""

_MAX_LENGTH = 64          # longest table read; real tables stop at 25
_MAX_TEXT = 1 << 20       # 1 MiB: a 64 x 64 table in XML is about 200 KB


@dataclass(frozen=True)
class MatchEquityTable:
    """A match equity table, pre- and post-Crawford.

    ``pre_crawford[i][j]`` is the match winning chance of a player ``i + 1``
    away against an opponent ``j + 1`` away before the Crawford game has been
    played (so a row or column of 1-away is the Crawford game itself).
    ``post_crawford[i]`` is the chance of the trailer ``i + 1`` away after the
    Crawford game, the leader being 1-away (``post_crawford[0]`` is 0.5).
    """

    name: str
    pre_crawford: tuple[tuple[float, ...], ...]
    post_crawford: tuple[float, ...]
    description: str = ""
    notice: str = field(default="", repr=False)

    def __post_init__(self) -> None:
        n = len(self.pre_crawford)
        if not 2 <= n <= _MAX_LENGTH:
            raise MatchEquityError(f"a table covers 2 to {_MAX_LENGTH} points, got {n}")
        if any(len(row) != n for row in self.pre_crawford):
            raise MatchEquityError(f"the pre-Crawford table must be {n} x {n}")
        if len(self.post_crawford) != n:
            raise MatchEquityError(
                f"the post-Crawford table has {len(self.post_crawford)} entries, expected {n}")
        values = [v for row in self.pre_crawford for v in row] + list(self.post_crawford)
        if not all(isinstance(v, float) and 0.0 <= v <= 1.0 for v in values):
            raise MatchEquityError("match winning chances are floats from 0 to 1")
        for i in range(n):
            for j in range(n):
                if abs(self.pre_crawford[i][j] + self.pre_crawford[j][i] - 1.0) > 1e-6:
                    raise MatchEquityError(
                        f"the table is not symmetric: {i + 1}-away vs {j + 1}-away is "
                        f"{self.pre_crawford[i][j]}, the reverse {self.pre_crawford[j][i]}")

    @property
    def length(self) -> int:
        """The longest match the table covers."""
        return len(self.pre_crawford)

    def equity(self, away: int, opponent_away: int, post_crawford: bool = False) -> float:
        """The match winning chance of the player ``away`` points from winning.

        ``away <= 0`` means that player has won (1.0), ``opponent_away <= 0``
        that the opponent has (0.0).  When one side is 1-away and
        ``post_crawford`` is false, the game is the Crawford game.

            >>> default_table().equity(3, 5)
            0.64795
        """
        away, opponent_away = self._check(away, opponent_away)
        if away <= 0 and opponent_away <= 0:
            raise MatchEquityError("both players cannot have won")
        if away <= 0:
            return 1.0
        if opponent_away <= 0:
            return 0.0
        if post_crawford:
            if away == 1:
                return 1.0 - self._post(opponent_away)
            if opponent_away == 1:
                return self._post(away)
            raise MatchEquityError(
                f"post-Crawford scores have a player 1-away, got {away}-away vs {opponent_away}-away")
        if max(away, opponent_away) <= self.length:
            return self.pre_crawford[away - 1][opponent_away - 1]
        if away < opponent_away:  # symmetric by construction
            return 1.0 - self.equity(opponent_away, away)
        # away > length >= opponent_away, or both beyond: away is the trailer
        ext = self.extension
        assert ext is not None  # _check refused an away beyond a table that cannot extend
        n = self.length
        if opponent_away == 1:  # the Crawford game
            return _geometric(ext.crawford, ext.ratio, away, n)
        return _extended(ext.edge_z, n, away, opponent_away)

    def _check(self, away: int, opponent_away: int) -> tuple[int, int]:
        """Both aways as ints (any integral type); beyond the longest match, or beyond a
        table too short to extend, a :class:`MatchEquityError` naming the side."""
        out = []
        for what, v in (("away", away), ("opponent_away", opponent_away)):
            number = integer(v)
            if number is None:
                raise TypeError(f"{what} is an int, got {type(v).__name__}")
            if number > MAX_AWAY:
                raise MatchEquityError(f"{what} = {shown(v)} is beyond the longest match "
                                       f"({MAX_AWAY} points)")
            if number > self.length and self.extension is None:
                raise MatchEquityError(
                    f"{what} = {shown(v)} is beyond the table's {self.length} points ({self.name}), "
                    f"which is too short to extend (at least {_EXTEND_MIN} points)")
            out.append(number)
        return out[0], out[1]

    def _post(self, away: int) -> float:
        """The post-Crawford trailer's chance at ``away`` (the leader 1-away)."""
        if away <= self.length:
            return self.post_crawford[away - 1]
        ext = self.extension
        assert ext is not None  # _check refused an away beyond a table that cannot extend
        return _geometric(ext.post, ext.ratio, away, self.length)

    @cached_property
    def extension(self) -> Extension | None:
        """How the table continues past its length (see :func:`extension`)."""
        return extension(self.pre_crawford, self.post_crawford)

    # ------------------------------------------------------------ reading and writing

    @classmethod
    def from_gnubg_xml(cls, text: str | bytes) -> MatchEquityTable:
        """Read a table in gnubg's MET XML format (explicit tables).

        The XML comment (where gnubg's files carry their copyright notice) is
        kept as :attr:`notice`.  Tables given by formula, and post-Crawford
        tables that differ by player, are refused.
        """
        return cls(**_GnubgMetReader().read(text))

    @classmethod
    def from_json(cls, text: str | bytes) -> MatchEquityTable:
        """Read a table written by :meth:`to_json`."""
        if len(text) > _MAX_TEXT:
            raise MatchEquityError(f"a table is at most {_MAX_TEXT} bytes, got {len(text)}")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as e:
            raise MatchEquityError(f"not a JSON match equity table: {e}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise MatchEquityError(f"not a {shown(FORMAT)} JSON table")
        if data.get("version") != 1:
            raise MatchEquityError(f"unknown table version {shown(data.get('version'))}")
        try:
            return cls(
                name=str(data["name"]),
                description=str(data.get("description", "")),
                notice=str(data.get("notice", "")),
                pre_crawford=tuple(tuple(_chance(v) for v in row) for row in data["pre_crawford"]),
                post_crawford=tuple(_chance(v) for v in data["post_crawford"]),
            )
        except (KeyError, TypeError) as e:
            raise MatchEquityError(f"a JSON table lacks or misspells a field: {e}") from None

    def to_json(self) -> str:
        """This table as JSON (the notice included), read back by :meth:`from_json`."""
        head = {"format": FORMAT, "version": 1, "name": self.name,
                "description": self.description, "notice": self.notice}
        lines = [f" {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]
        rows = ",\n  ".join(json.dumps(list(row)) for row in self.pre_crawford)
        return "\n".join(["{", *lines, f' "pre_crawford": [\n  {rows}\n ],',
                          f' "post_crawford": {json.dumps(list(self.post_crawford))}', "}"])

    @classmethod
    def load(cls, path: str) -> MatchEquityTable:
        """Read a table from a file: gnubg XML (``.xml``) or this library's JSON."""
        with open(path, "rb") as f:
            data = f.read(_MAX_TEXT + 1)
        if data.lstrip()[:1] == b"<":
            return cls.from_gnubg_xml(data)
        return cls.from_json(data)


MAX_AWAY = 32767
"""The furthest a side can be from winning: the longest match the library plays
(:data:`backgammon.game.MAX_MATCH_LENGTH`); tables extend to it."""
_EXTEND_MIN = 3   # the edge row needs two non-Crawford entries, the ratio a step of two
_EDGE = 1e-12     # edge chances are kept this far from 0 and 1 (a finite z)


class Extension(NamedTuple):
    """A table's continuation past its length ``n`` (docs/cube.md, "Longer matches").

    ``edge_z[j]`` is the normal quantile of the table's last row, ``n``-away against
    ``j + 1``-away (``edge_z[0]`` unused: that is the Crawford game).  ``post`` and
    ``crawford`` are the trailer's chances at ``n - 1`` and ``n`` away post-Crawford
    and in the Crawford game; ``ratio`` is how much each falls every two points.
    """

    edge_z: tuple[float, ...]
    post: tuple[float, float]
    crawford: tuple[float, float]
    ratio: float


def extension(pre_crawford: Any, post_crawford: Any) -> Extension | None:
    """The :class:`Extension` of a table (``None`` below three points).

    Beyond its length ``n`` a table continues by two standard models:

    * Before the Crawford game, the normal model of match equity (Montgomery's: the
      difference of the points the two sides win over the remaining games is close
      to a normal variable of spread proportional to the square root of the points
      still to play), whose chance at ``a``-away against ``b``-away is
      ``Phi((b - a) / (s * sqrt(a + b)))``: scaling both aways by ``k`` scales the
      quantile by ``sqrt(k)``.  A score whose further side is ``m > n`` away is the
      table's last row at the same ratio of aways, its quantile times
      ``sqrt(m / n)`` (linear in the quantile between the row's entries, the
      ratio held at 2-away at least).  At ``m = n`` this is the table itself.
    * Post-Crawford and in the Crawford game the trailer must win game after game,
      each at a doubled cube: the chance falls geometrically, by ``ratio`` every two
      points, the smaller of the two rates of the table's last two points.

    Both are symmetric by construction and monotone in each away (docs/cube.md).
    """
    n = len(pre_crawford)
    if n < _EXTEND_MIN:
        return None
    last = pre_crawford[n - 1]
    edge_z = (0.0,) + tuple(_quantile(last[j]) for j in range(1, n))
    post = (post_crawford[n - 2], post_crawford[n - 1])
    crawford = tuple(pre_crawford[k][0] for k in (n - 2, n - 1))  # the trailer's chances
    rates = [_rate(seq[n - 1], seq[n - 3]) for seq in
             (post_crawford, [pre_crawford[k][0] for k in range(n)])]
    return Extension(edge_z, (float(post[0]), float(post[1])),
                     (float(crawford[0]), float(crawford[1])), min(rates))


def check_score(score: Any) -> tuple[int, int]:
    """``(away, opponent_away)`` of a match score still being played: two integers
    (of any integral type) from 1 to :data:`MAX_AWAY`; else :class:`MatchEquityError`.

        >>> check_score((3, 5))
        (3, 5)
        >>> check_score("ab")
        Traceback (most recent call last):
        ...
        backgammon.errors.MatchEquityError: score is (away, opponent_away), two integers from 1 to 32767, got 'ab'
    """
    pair = tuple(score) if isinstance(score, (tuple, list)) and len(score) == 2 else None
    numbers = [] if pair is None else [integer(v) for v in pair]
    values = [v for v in numbers if v is not None]
    if len(values) != 2 or not all(1 <= v <= MAX_AWAY for v in values):
        raise MatchEquityError(f"score is (away, opponent_away), two integers from 1 to "
                               f"{MAX_AWAY}, got {shown(score, 80)}")
    return values[0], values[1]


def _quantile(p: float) -> float:
    return NormalDist().inv_cdf(min(max(float(p), _EDGE), 1.0 - _EDGE))


def _rate(now: float, before: float) -> float:
    return min(1.0, max(0.0, now / before)) if before > 0 else 0.0


def _phi(z: float) -> float:
    """The standard normal distribution function (cube.h computes it the same way)."""
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


def _extended(edge_z: tuple[float, ...], n: int, away: int, opponent_away: int) -> float:
    """The chance of the trailer ``away > n`` against ``opponent_away`` (2 to away)."""
    t = max(2.0, opponent_away * n / away)  # the same ratio on the table's last row
    j = min(int(t), n - 1)
    frac = t - j
    z = edge_z[j - 1] + frac * (edge_z[j] - edge_z[j - 1]) if frac else edge_z[j - 1]
    return _phi(math.sqrt(away / n) * z)


def _geometric(anchor: tuple[float, float], ratio: float, away: int, n: int) -> float:
    """A chance falling by ``ratio`` every two points from its values at n - 1 and n."""
    steps = (away - n + 1) // 2   # away - 2 * steps is n or n - 1
    base = anchor[1] if (away - n) % 2 == 0 else anchor[0]
    return base * ratio ** steps if ratio > 0 else 0.0


def _chance(v: object) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise MatchEquityError(f"a match winning chance is a number, got {shown(v)}")
    return float(v)


class _TableFields(TypedDict):
    """The keyword arguments of :class:`MatchEquityTable` that a gnubg MET file gives."""

    name: str
    description: str
    notice: str
    pre_crawford: tuple[tuple[float, ...], ...]
    post_crawford: tuple[float, ...]


class _GnubgMetReader:
    """gnubg's MET XML read with expat; entity declarations refused (no expansion attacks)."""

    def read(self, text: str | bytes) -> _TableFields:
        if len(text) > _MAX_TEXT:
            raise MatchEquityError(f"a table is at most {_MAX_TEXT} bytes, got {len(text)}")
        self.path: list[str] = []
        self.chars: list[str] = []
        self.info: dict[str, str] = {}
        self.comments: list[str] = []
        self.tables: dict[str, list[list[float]]] = {}
        self.table: list[list[float]] | None = None
        p = xml.parsers.expat.ParserCreate()
        p.StartElementHandler = self._start
        p.EndElementHandler = self._end
        p.CharacterDataHandler = self.chars.append
        p.CommentHandler = lambda c: self.comments.append(c.strip())
        p.EntityDeclHandler = self._entity
        try:
            p.Parse(text, True)
        except MatchEquityError:
            raise
        except xml.parsers.expat.ExpatError as e:
            raise MatchEquityError(f"not a gnubg MET XML file: {e}") from None
        except (LookupError, ValueError) as e:  # encoding="rot13", "utf-7", "idna", "foo"...
            raise MatchEquityError(f"a gnubg MET XML file whose encoding cannot be read: "
                                   f"{shown(str(e), 80)}") from None
        return self._result()

    @staticmethod
    def _entity(*_args: object) -> None:
        raise MatchEquityError("MET XML files declare no entities")

    def _start(self, tag: str, attrs: dict[str, str]) -> None:
        self.path.append(tag)
        self.chars.clear()
        if len(self.path) > 8:
            raise MatchEquityError("MET XML nested too deeply")
        if tag in ("pre-crawford-table", "post-crawford-table"):
            kind = attrs.get("type", "explicit")
            if kind != "explicit":
                raise MatchEquityError(f"{tag} of type {shown(kind)}: only explicit tables are read")
            key = tag if tag == "pre-crawford-table" else f"{tag}:{attrs.get('player', 'both')}"
            self.table = self.tables.setdefault(key, [])
        elif tag == "row" and self.table is not None:
            if len(self.table) >= _MAX_LENGTH:
                raise MatchEquityError(f"a table has at most {_MAX_LENGTH} rows")
            self.table.append([])

    def _end(self, tag: str) -> None:
        text = "".join(self.chars).strip()
        self.chars.clear()
        self.path.pop()
        if tag == "me" and self.table:
            row = self.table[-1]
            if len(row) >= _MAX_LENGTH:
                raise MatchEquityError(f"a row has at most {_MAX_LENGTH} entries")
            try:
                if not text.isascii():  # float() reads "٠.٥" too
                    raise ValueError(text)
                row.append(_chance(float(text)))
            except ValueError:
                raise MatchEquityError(f"not a match winning chance: {shown(text[:40])}") from None
        elif tag in ("pre-crawford-table", "post-crawford-table"):
            self.table = None
        elif self.path[-1:] == ["info"]:
            self.info[tag] = text

    def _result(self) -> _TableFields:
        pre = self.tables.get("pre-crawford-table")
        if not pre:
            raise MatchEquityError("the file has no pre-Crawford table")
        posts = {k.split(":")[1]: v for k, v in self.tables.items() if k.startswith("post")}
        if "both" in posts:
            post = posts["both"]
        elif "0" in posts and "1" in posts:
            if posts["0"] != posts["1"]:
                raise MatchEquityError("post-Crawford tables that differ by player are not supported")
            post = posts["0"]
        else:
            raise MatchEquityError("the file has no post-Crawford table for both players")
        if len(post) != 1:
            raise MatchEquityError(f"the post-Crawford table is one row, got {len(post)}")
        n = len(pre)
        if "length" in self.info and self.info["length"] != str(n):
            raise MatchEquityError(
                f"the file says length {shown(self.info['length'])} but its table has {n} rows")
        return {
            "name": self.info.get("name", "unnamed table"),
            "description": self.info.get("description", ""),
            "notice": "\n".join(self.comments),
            "pre_crawford": tuple(tuple(row) for row in pre),
            "post_crawford": tuple(post[0][:n]) if len(post[0]) >= n else tuple(post[0]),
        }


@lru_cache(maxsize=1)
def default_table() -> MatchEquityTable:
    """The bundled Kazaross-XG2 table (25 points), read once."""
    data = resources.files("backgammon").joinpath("data/kazaross-xg2.met.json").read_text()
    return MatchEquityTable.from_json(data)


def equity(away: int, opponent_away: int, post_crawford: bool = False,
           table: MatchEquityTable | None = None) -> float:
    """The match winning chance of the player ``away`` points from winning.

    ``table`` defaults to Kazaross-XG2 (see :meth:`MatchEquityTable.equity`).

        >>> equity(5, 5)
        0.5
    """
    return (table or default_table()).equity(away, opponent_away, post_crawford)


def gammon_values(away: int, opponent_away: int, cube: int = 1, post_crawford: bool = False,
                  table: MatchEquityTable | None = None) -> tuple[float, float]:
    """The value of a gammon at a score, for the player on roll and for the opponent.

    A win's value is what it adds to the match winning chance; the gammon
    value is the extra a gammon win adds over a single win, divided by what
    a single win gains over a single loss (gnubg's and XG's definition).  At
    long scores both approach 1, as in money play.  Scores are read as in
    :func:`equity`: a side 1-away without ``post_crawford`` is the Crawford game.

        >>> g_own, g_opp = gammon_values(2, 2)
        >>> round(g_own, 4) == round(g_opp, 4)
        True
    """
    t = table or default_table()
    away, opponent_away = t._check(away, opponent_away)  # plain ints: numpy's would wrap
    number = integer(cube)
    if number is None or number < 1:
        raise MatchEquityError(f"cube is a positive integer, got {shown(cube)}")
    cube = number
    # After this game a side reaching 1-away makes the next game the Crawford
    # game, unless the Crawford game is this one or already played.
    rest = post_crawford or away == 1 or opponent_away == 1
    t.equity(away, opponent_away, post_crawford)  # checks the score

    def me(a: int, b: int) -> float:
        # After the game: a player reaching 1-away for the first time makes
        # the next game the Crawford game; after the Crawford game it is post.
        if a <= 0 or b <= 0:
            return t.equity(a, b)
        return t.equity(a, b, post_crawford=rest and (a == 1 or b == 1))

    win1, win2 = me(away - cube, opponent_away), me(away - 2 * cube, opponent_away)
    lose1, lose2 = me(away, opponent_away - cube), me(away, opponent_away - 2 * cube)
    spread = win1 - lose1
    if spread <= 0:
        raise MatchEquityError("a single win gains nothing over a single loss at this score")
    return (win2 - win1) / spread, (lose1 - lose2) / spread

