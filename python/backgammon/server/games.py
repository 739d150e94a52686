"""Games kept by the server: created from a spec, rebuilt from their journal,
changed only by checked actions, each written to the store before it is
acknowledged.

A game is a :class:`~backgammon.Match` (``match_length`` > 0; the next game
starts by itself when one ends) or a single money :class:`~backgammon.Game`.
Its journal holds every library :class:`~backgammon.Action` in order, with
the dice rolled, so replaying it rebuilds the game exactly (the dice stream
included); new dice come from :class:`random.SystemRandom` (the operating
system's cryptographic source) unless the game was created for
over-the-board entry, where the players give the dice they rolled.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from backgammon.errors import (BackgammonError, IllegalActionError, IllegalPlayError,
                               InvalidSetupError)
from backgammon.game import Action, Game, Phase
from backgammon.match import Match
from backgammon.rules import Rules
from backgammon.server.store import Conflict, Store

if TYPE_CHECKING:
    from backgammon.nn.evaluator import Evaluator

__all__ = ["ACTIONS", "Forbidden", "GameService", "NotFound", "SeqMismatch"]

ACTIONS = ("roll", "play", "double", "take", "drop", "beaver", "resign", "accept", "reject")
_RULES = ("cube", "max_cube", "jacoby", "beaver", "automatic_doubles", "backgammon_value",
          "opening")
_CACHE = 2048            # games kept rebuilt per process
_BOT_ACTIONS = 64        # a bot's turn is a few actions; this bounds a runaway loop
_BOT_MATCH = 25          # the bundled match equity table's length
MAX_JOURNAL = 100_000    # actions of one game (a 64-point match takes some 15,000)


class NotFound(BackgammonError):
    """No game with that id."""


class Forbidden(BackgammonError):
    """The token does not hold the seat that must act."""


class SeqMismatch(BackgammonError):
    """The request's ``seq`` is not the game's."""

    def __init__(self, message: str, seq: int) -> None:
        super().__init__(message)
        self.seq = seq


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class _Live:
    """A game rebuilt in this process, at journal length ``seq``."""

    spec: dict[str, Any]
    obj: Match | Game
    seq: int
    lock: threading.Lock = field(default_factory=threading.Lock)
    # set when a failed action left the game changed in memory: whoever still holds
    # this object (waiting on its lock) must fetch a fresh one, not replay onto it
    stale: bool = False

    @property
    def game(self) -> Game:
        return self.obj.game if isinstance(self.obj, Match) else self.obj


def check_spec(data: dict[str, Any]) -> dict[str, Any]:
    """The stored spec of a ``POST /games`` body (checked by building it once)."""
    length = data.get("match_length", 0)
    if isinstance(length, bool) or not isinstance(length, int):
        raise InvalidSetupError(f"match_length is 0 (money) or a number of points, got {length!r}"[:200])
    rules = data.get("rules") or {}
    if not isinstance(rules, dict) or set(rules) - set(_RULES):
        raise InvalidSetupError(f"rules has the fields {', '.join(_RULES)}")
    obtb = data.get("over_the_board", False)
    if not isinstance(obtb, bool):
        raise InvalidSetupError("over_the_board is true or false")
    bot = data.get("bot")
    if bot is not None:
        if not isinstance(bot, dict) or set(bot) - {"seat", "ply"}:
            raise InvalidSetupError('bot is {"seat": 0 or 1, "ply": 0, 1 or 2}')
        # 2-ply by default: the filtered search costs a few ms a move (benchmarks/README.md)
        seat, ply = bot.get("seat", 1), bot.get("ply", 2)
        if seat not in (0, 1) or isinstance(seat, bool):
            raise InvalidSetupError(f"the bot's seat is 0 or 1, got {seat!r}"[:200])
        if ply not in (0, 1, 2) or isinstance(ply, bool):
            raise InvalidSetupError(f"the bot's ply is 0, 1 or 2, got {ply!r}"[:200])
        if obtb:
            raise InvalidSetupError("an over-the-board game has two players entering their dice")
        if length > _BOT_MATCH:  # its cube decisions read the match equity table
            raise InvalidSetupError(f"the bot plays matches up to {_BOT_MATCH} points "
                                    f"(the match equity table's length), got {length}")
        bot = {"seat": seat, "ply": ply}
    crawford = data.get("crawford", True)
    if not isinstance(crawford, bool):
        raise InvalidSetupError("crawford is true or false")
    spec = {"match_length": length, "rules": dict(rules), "bot": bot,
            "over_the_board": obtb, "crawford": crawford}
    _build(spec)
    return spec


def _build(spec: dict[str, Any]) -> Match | Game:
    try:
        rules = Rules(**spec["rules"])
    except TypeError as exc:
        raise InvalidSetupError(f"rules: {exc}") from None
    rng = random.SystemRandom()
    if spec["match_length"]:
        return Match(spec["match_length"], rules, rng=rng, crawford=spec["crawford"])
    return Game(rules, rng=rng)


def _score(obj: Match | Game, game: Game) -> list[int]:
    """The points each player has won: a match's score; for a money game, the
    points of its result once it is over (a gammon at cube 2: 4 to the winner).

    >>> _score(Game(), Game())
    [0, 0]
    """
    if isinstance(obj, Match):
        return list(obj.score)
    score = [0, 0]
    if game.result is not None:
        score[game.result.winner] = int(game.result.points)
    return score


def _entry(game_index: int, action: Action) -> dict[str, Any]:
    value = action.value
    if isinstance(value, tuple):
        value = [list(v) if isinstance(v, tuple) else v for v in value]
    return {"game": game_index, "player": action.player, "kind": action.kind, "value": value}


def _replay(live: _Live, entries: list[dict[str, Any]]) -> None:
    for e in entries:
        obj = live.obj
        if isinstance(obj, Match) and e["game"] != len(obj.games) - 1:
            raise RuntimeError(f"journal entry {live.seq} is for game {e['game']}")
        value = e["value"]
        if e["kind"] == "play":
            value = [tuple(s) for s in value]
        elif isinstance(value, list):
            value = tuple(value)
        live.game.apply(Action(e["player"], e["kind"], value))
        _advance(live)
        live.seq += 1


def _advance(live: _Live) -> None:
    """A finished game of a match not yet won is followed by the next one."""
    obj = live.obj
    if isinstance(obj, Match) and obj.game.over and not obj.over:
        obj.next_game()


class GameService:
    """The games of one store, rebuilt on demand and cached in this process."""

    def __init__(self, store: Store, evaluator: Evaluator | None = None) -> None:
        self.store = store
        self.evaluator = evaluator
        self._cache: OrderedDict[str, _Live] = OrderedDict()
        self._cache_lock = threading.Lock()

    # ------------------------------------------------------------ creating, loading

    def create(self, data: dict[str, Any]) -> dict[str, Any]:
        spec = check_spec(data)
        game_id = secrets.token_urlsafe(12)
        bot = spec["bot"]
        tokens = {str(s): secrets.token_urlsafe(24) for s in (0, 1)
                  if bot is None or bot["seat"] != s}
        self.store.create_game(game_id, spec, {s: _hash(t) for s, t in tokens.items()})
        return {"id": game_id, "tokens": tokens}

    def _live(self, game_id: str) -> tuple[_Live, dict[str, str]]:
        """The cached game brought up to the store's journal, and the token hashes."""
        row = self.store.game(game_id)
        if row is None:
            raise NotFound(f"no game {game_id!r}"[:200])
        spec, seq, tokens = row
        with self._cache_lock:
            live = self._cache.get(game_id)
            if live is None:
                live = self._cache[game_id] = _Live(spec, _build(spec), 0)
                while len(self._cache) > _CACHE:
                    self._cache.popitem(last=False)
            self._cache.move_to_end(game_id)
        with live.lock:
            fresh = not live.stale
            if fresh and live.seq > seq:  # a read older than the cache: rebuild to be safe
                self._evict(game_id, live)
                fresh = False
            if fresh and live.seq < seq:
                _replay(live, self.store.entries(game_id, live.seq))
        return (live, tokens) if fresh else self._live(game_id)

    def _evict(self, game_id: str, live: _Live | None = None) -> None:
        if live is not None:
            live.stale = True
        with self._cache_lock:
            if live is None or self._cache.get(game_id) is live:
                self._cache.pop(game_id, None)

    # ------------------------------------------------------------ reading

    def state(self, game_id: str) -> dict[str, Any]:
        live, _ = self._live(game_id)
        with live.lock:
            return self._state(game_id, live)

    def entries(self, game_id: str, start: int = 0) -> list[dict[str, Any]]:
        return self.store.entries(game_id, start)

    def export(self, game_id: str, fmt: str) -> str:
        live, _ = self._live(game_id)
        with live.lock:
            obj = live.obj
            if fmt == "json":
                return obj.to_json()
            from backgammon.formats.mat import write_mat
            from backgammon.formats.sgf import write_sgf
            games = obj if isinstance(obj, Match) else [obj]
            return write_mat(games) if fmt == "mat" else write_sgf(games)

    def turn(self, game_id: str, seat: int, steps_text: str, size: int = 540) -> dict[str, Any]:
        """What ``GET /games/{id}/turn`` answers: the board of ``seat`` after the steps
        of ``steps_text`` (each checked), the legal next steps and the SVG."""
        from backgammon.position import Position
        from backgammon.display.svg import board
        live, _ = self._live(game_id)
        with live.lock:
            game = live.game
            pos = game.board(seat)
            mine = game.turn == seat and game.phase is Phase.MOVE
            steps: list[tuple[int, int]] = []
            if steps_text.strip():
                if not mine:
                    raise IllegalPlayError(f"player {seat} has no dice to move")
                assert game.dice is not None  # the move phase always has its dice
                for token in steps_text.split()[:8]:
                    src, _, dst = token.partition("/")
                    if not (src.isascii() and src.isdigit() and dst.isascii() and dst.isdigit()
                            and len(src) <= 2 and len(dst) <= 2):
                        raise IllegalPlayError(f"a step is FROM/TO in numbers (25 bar, 0 off), "
                                               f"got {token[:20]!r}")
                    step = (int(src), int(dst))
                    if list(step) not in [list(m) for m in pos.legal_moves(game.dice, steps)]:
                        raise IllegalPlayError(f"{token} is not a legal step now")
                    steps.append(step)
            legal: list[list[int]] = []
            if mine:
                assert game.dice is not None  # the move phase always has its dice
                legal = [list(s) for s in pos.legal_moves(game.dice, steps)]
            current = pos.after_steps(steps)
            cube = (game.cube, None if game.cube_owner is None else (0 if game.cube_owner == seat else 1))
            dice = game.dice if game.dice is not None and game.turn == seat else None
            svg = board(current, dice=dice, cube=cube, size=size,
                        orientation="right").svg
            return {"seq": live.seq, "seat": seat, "steps": [list(s) for s in steps],
                    "legal_moves": legal, "complete": mine and not legal, "svg": svg,
                    "position_id": Position.position_id(current)}

    def _state(self, game_id: str, live: _Live) -> dict[str, Any]:
        game, obj, spec = live.game, live.obj, live.spec
        to_act = game.player_to_act
        view = to_act if to_act is not None else game.turn
        acts = [a for a in game.legal_actions() if a in ACTIONS]
        if game.phase is Phase.MOVE and "play" not in acts:
            acts.insert(0, "play")
        pid, mid = game.gnubg_id().split(":")
        state: dict[str, Any] = {
            "id": game_id, "seq": live.seq, "phase": game.phase.value,
            "player_to_act": to_act, "turn": game.turn,
            "dice": list(game.dice) if game.dice else None,
            "cube": game.cube, "cube_owner": game.cube_owner,
            "score": _score(obj, game),
            "match_length": spec["match_length"], "crawford": game.crawford,
            "game_number": len(obj.games) if isinstance(obj, Match) else 1,
            "position_id": pid, "match_id": mid, "legal_actions": acts,
            "board": game.board(view).tolist(), "board_player": view,
            "resignation": (None if game.resignation is None else
                            {"player": game.resignation[0], "kind": game.resignation[1]}),
            "result": None if game.result is None else game.result.to_dict(),
            "over": obj.over, "winner": (obj.winner if isinstance(obj, Match) else
                                         (None if game.result is None else game.result.winner)),
            "bot": spec["bot"], "over_the_board": spec["over_the_board"],
        }
        if game.phase is Phase.MOVE and not game.steps:
            assert game.dice is not None  # the move phase always has its dice
            state["legal_plays"] = [{"play": str(p), "moves": [list(m) for m in p.moves]}
                                    for p in game.position.legal_plays(game.dice)]
        return state

    # ------------------------------------------------------------ acting

    def act(self, game_id: str, token: str | None, request: dict[str, Any],
            key: str | None = None) -> dict[str, Any]:
        """Apply one action for the token's seat (and the bot's answers after it),
        commit them, and return the new state."""
        live, tokens = self._live(game_id)
        seat = next((int(s) for s, h in tokens.items()
                     if token is not None and hmac.compare_digest(h, _hash(token))), None)
        if seat is None:
            raise Forbidden("this action needs the token of a seat of this game "
                            "(Authorization: Bearer TOKEN)")
        with live.lock:
            if live.stale:  # another request's failure changed it: fetch it afresh
                return self.act(game_id, token, request, key)
            seq = request.get("seq")
            if seq != live.seq:
                if (key is not None and isinstance(seq, int) and 0 <= seq < live.seq
                        and self.store.request_key(game_id, seq) == key):
                    state = self._state(game_id, live)  # a retry of a request that was applied
                    state["replayed"] = True
                    return state
                raise SeqMismatch(f"seq {seq!r} is not the game's: it has {live.seq} actions "
                                  "(GET the game and retry)", live.seq)
            if live.seq >= MAX_JOURNAL:  # e.g. resign and reject forever: the database is bounded
                raise IllegalActionError(f"this game has {live.seq:,} actions, the most a game "
                                         "keeps: start a new game")
            start = live.seq
            entries: list[dict[str, Any]] = []
            try:
                self._apply(live, seat, request, entries)
                self._bot(live, entries)
                new = self.store.append(game_id, start, entries, key)
            except Conflict as exc:
                self._evict(game_id, live)
                if key is not None and self.store.request_key(game_id, start) == key:
                    # the same request, applied by another worker first (a retry that
                    # raced its original): the answer is the state, replayed
                    again, _ = self._live(game_id)
                    with again.lock:
                        state = self._state(game_id, again)
                    state["replayed"] = True
                    return state
                raise SeqMismatch(f"another request changed the game first (it has {exc.seq} "
                                  "actions now): GET it and retry", exc.seq) from None
            except BackgammonError:
                if entries:  # an action of the bot failed after the player's: start clean
                    self._evict(game_id, live)
                raise
            except BaseException:
                self._evict(game_id, live)
                raise
            live.seq = new
            return self._state(game_id, live)

    def _record(self, live: _Live, before: int, index: int, entries: list[dict[str, Any]]) -> None:
        game = live.obj.games[index] if isinstance(live.obj, Match) else live.obj
        entries.extend(_entry(index, a) for a in game.actions[before:])

    def _apply(self, live: _Live, seat: int, req: dict[str, Any],
               entries: list[dict[str, Any]]) -> None:
        kind = req.get("action")
        if kind not in ACTIONS:
            raise IllegalActionError(f"action is one of {', '.join(ACTIONS)}, got {kind!r}"[:200])
        game = live.game
        index = len(live.obj.games) - 1 if isinstance(live.obj, Match) else 0
        to_act = game.player_to_act
        if to_act is not None and to_act != seat:
            # a resignation too: offered on one's own turn (or before the opening
            # roll), never to an opponent who is thinking, again and again
            raise Forbidden(f"it is player {to_act}'s decision, not player {seat}'s")
        if kind == "roll" and req.get("dice") is not None and not live.spec["over_the_board"]:
            raise IllegalActionError("the server rolls the dice in this game: send no dice")
        if kind == "roll" and req.get("dice") is None and live.spec["over_the_board"]:
            raise IllegalActionError("this game is entered over the board: send the dice rolled")
        before = len(game.actions)
        if kind == "roll":
            game.roll(req.get("dice"), player=None if game.phase is Phase.OPENING else seat)
        elif kind == "play":
            play = req.get("play")
            if play is None:
                play = req.get("moves")
            if play is None:
                raise IllegalActionError('a play gives "play" (notation, "" for no move) or "moves"')
            if isinstance(play, list):
                play = [tuple(m) if isinstance(m, list) else m for m in play]
            game.play(play, player=seat)
        elif kind == "resign":
            points = req.get("points") or 1
            kinds = {1: "single", 2: "gammon", 3: "backgammon"}
            game.resign(kinds.get(points, points) if isinstance(points, int) else points,
                        player=seat)
        else:
            getattr(game, kind)(player=seat)
        self._record(live, before, index, entries)
        _advance(live)

    # ------------------------------------------------------------ the bot

    def _bot(self, live: _Live, entries: list[dict[str, Any]]) -> None:
        bot = live.spec["bot"]
        if bot is None:
            return
        for _ in range(_BOT_ACTIONS):
            obj, game = live.obj, live.game
            if obj.over or game.player_to_act != bot["seat"]:
                return
            index = len(obj.games) - 1 if isinstance(obj, Match) else 0
            before = len(game.actions)
            self._bot_action(game, bot["seat"], bot["ply"])
            self._record(live, before, index, entries)
            _advance(live)
        raise RuntimeError("the bot did not finish its turn")

    def _cube(self, game: Game, ply: int, field: str, fallback: Any) -> Any:
        """A field of the nets' cube decision; ``fallback`` (no double, take) when the
        model has no answer (a score its match equity table lacks): the game goes on."""
        try:
            return getattr(game.cube_decision(ply, self.evaluator), field)
        except BackgammonError:
            return fallback

    def _bot_action(self, game: Game, seat: int, ply: int) -> None:
        from backgammon.nn import best_play, evaluate
        phase = game.phase
        if phase is Phase.ROLL:
            if game.can_double() and self._cube(game, ply, "action", "").startswith(
                    ("Double", "Redouble")):
                game.double(player=seat)
            else:
                game.roll(player=seat)
        elif phase is Phase.MOVE:
            game.play(best_play(game.position, game.dice, ply, self.evaluator), player=seat)
        elif phase is Phase.DOUBLED:
            (game.take if self._cube(game, ply, "take", True) else game.drop)(player=seat)
        elif phase is Phase.RESIGNED:
            # Accept what is offered when it is at least the cubeless points the
            # bot expects by playing on (its equity on roll or not, times the cube).
            assert game.resignation is not None
            offered = {"single": 1, "gammon": 2, "backgammon": 3}[game.resignation[1]]
            e = evaluate(game.position, ply, self.evaluator).equity  # the player on turn's
            equity = e if game.turn == seat else -e
            (game.accept if offered >= equity else game.reject)(player=seat)
        else:  # never: the loop stops when the bot has nothing to do
            raise RuntimeError(f"the bot cannot act in phase {phase.value}")
