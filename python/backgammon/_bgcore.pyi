"""Type stubs of the compiled core ``backgammon._bgcore`` (private: use ``backgammon``)."""

from typing import Any, Callable

import numpy as np
import numpy.typing as npt

NPTS: int

class Cancelled(Exception):
    """A loop stopped because its Cancel token was set."""

class Cancel:
    """A stop flag shared by the C loops of one job (cancel.h); pickles as a fresh token."""
    def set(self) -> None: ...
    def is_set(self) -> bool: ...

def validation_error(code: int) -> str | None: ...
def validate(board: bytes) -> int: ...
def sides(board: bytes) -> int: ...
def parse_dice(dice: Any) -> tuple[int, int]: ...
def successors(board: bytes, dice: Any) -> npt.NDArray[np.int8]: ...
def plays(board: bytes, d1: int, d2: int) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.uint8], int]: ...
def reach(board: bytes, die: int, k: int) -> list[bytes]: ...
def step(board: bytes, src: int, die: int) -> bytes | None: ...
def swapped(board: bytes) -> bytes: ...
def perft(board: bytes, depth: int, rolls36: bool, cancel: Cancel | None = None) -> int: ...
def batch_successors(
    boards: npt.NDArray[np.int8], dice: npt.NDArray[np.uint8]
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]: ...
def set_pubeval_weights(race: Any, contact: Any) -> None: ...
def is_race(board: bytes) -> bool: ...
def pubeval_scores(boards: npt.NDArray[np.int8], race: int) -> npt.NDArray[np.float64]: ...
def pubeval_choice(board: bytes, dice: Any) -> int: ...
def playout(
    board: bytes,
    seed: int,
    first_game: int,
    ngames: int,
    policy: int,
    stratify: bool,
    cancel: Cancel | None = None,
    nets: Nets | None = None,
) -> npt.NDArray[np.int64]: ...
def playout_batched(
    board: bytes,
    seed: int,
    first_game: int,
    ngames: int,
    stratify: bool,
    evaluate: Callable[[npt.NDArray[np.int8]], npt.NDArray[np.float64]],
    in_flight: int,
) -> npt.NDArray[np.int64]: ...

ROLLOUT_FIELDS: int
ROLLOUT_QUANTITIES: int
ROLLOUT_SHIFT: int
ROLLOUT_SHIFT2: int
def scheduled_roll(game: int, ply: int, rotation: int, rot_offset: int = 0) -> int: ...
def rollout_games(
    board: bytes,
    seed: int,
    first_game: int,
    ngames: int,
    nets: Nets,
    cube: bool = False,
    cube_value: int = 1,
    owner: str | int = "centred",
    max_cube: int = 64,
    cube_disabled: bool = False,
    jacoby: bool = False,
    beaver: bool = False,
    backgammon_value: int = 3,
    score: tuple[int, int] | None = None,
    post_crawford: bool = False,
    table: CubeTable | None = None,
    vr: bool = False,
    truncate: int = -1,
    rotation: int = 2,
    rot_offset: int = 0,
    no_double: bool = False,
    cancel: Cancel | None = None,
) -> npt.NDArray[np.int64]: ...

# The neural evaluator (nn.h), TD self-play (train.h), duels (playout.h)
NN_INPUTS: int
NN_OUTPUTS: int
NN_MAX_HIDDEN: int
NN_ENCODING: int

class Nets:
    arrays: tuple[npt.NDArray[np.float32], ...]
    hidden: tuple[int, int]
    def __init__(self, arrays: Any, hidden: Any) -> None: ...
    def evaluate(self, boards: npt.NDArray[np.int8]) -> npt.NDArray[np.float32]: ...
    def choose(self, before: bytes, cands: npt.NDArray[np.int8]) -> tuple[int, npt.NDArray[np.float32]]: ...
    def choose_groups(
        self, befores: npt.NDArray[np.int8], cands: npt.NDArray[np.int8], offsets: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]: ...
    def td_games(
        self, start: bytes, seed: int, first_game: int, ngames: int, lr: float, cancel: Cancel | None = None
    ) -> int: ...

def nn_encode(board: bytes) -> tuple[list[int], list[float]]: ...
def nn_is_race(board: bytes) -> bool: ...
def nn_scan_agrees(board: bytes) -> bool: ...
def nn_use_avx2(allow: bool) -> bool: ...
NN_AVX2: bool
def duel(
    start: bytes, seed: int, first_pair: int, npairs: int,
    policy_a: int, nets_a: Nets | None, policy_b: int, nets_b: Nets | None,
    cancel: Cancel | None = None,
) -> npt.NDArray[np.int64]: ...
def duel_batched(
    start: bytes, seed: int, first_pair: int, npairs: int,
    policy_a: int, nets_a: Nets | None, evaluate_a: Callable[[npt.NDArray[np.int8]], npt.NDArray[np.float64]] | None,
    policy_b: int, nets_b: Nets | None, evaluate_b: Callable[[npt.NDArray[np.int8]], npt.NDArray[np.float64]] | None,
    in_flight: int,
) -> npt.NDArray[np.int64]: ...
# The one-sided bear-off database (bearoff.h)
BEAROFF_NPOS: int
BEAROFF_TURNS: int
def bearoff_index(home: bytes) -> int: ...
def bearoff_home(index: int) -> tuple[int, int, int, int, int, int]: ...
def bearoff_turns(home: bytes, first: bool) -> npt.NDArray[np.float32]: ...
def bearoff_mean(home: bytes, first: bool) -> float: ...
def bearoff_applies(board: bytes) -> bool: ...
def bearoff_probs(boards: npt.NDArray[np.int8]) -> npt.NDArray[np.float32]: ...
def bearoff_tables() -> tuple[
    npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.float32]
]: ...
def bearoff_build_fresh() -> float: ...

# Cube decisions (cube.h); owners "centred" / "own" / "opponent" or 0 / 1 / 2
CUBE_OWNERS: dict[str, int]
CUBE_ACTIONS: tuple[str, ...]
CUBE_REASONS: tuple[str, ...]
CUBE_MAX_VALUE: int
def cube_action_text(action: int, reason: int, redouble: bool) -> str: ...

class CubeTable:
    name: str
    def __init__(self, pre_crawford: Any, post_crawford: Any, name: str = "") -> None: ...
    @property
    def length(self) -> int: ...

def cube_table(table: Any) -> CubeTable: ...
def cube_money_equity(chances: Any, owner: str | int = "centred", x: float = 0.68,
                      jacoby: bool = False) -> float: ...
def cube_match_equity(
    chances: Any, away: int, opponent_away: int, cube: int = 1, owner: str | int = "centred",
    x: float = 0.68, post_crawford: bool = False, max_cube: int = 64, table: CubeTable | None = None,
) -> float: ...
def cube_decide(
    chances: Any, *, cube: int = 1, owner: str | int = "centred", x: float = 0.68, max_cube: int = 64,
    cube_disabled: bool = False, jacoby: bool = False, beaver: bool = False,
    score: tuple[int, int] | None = None, post_crawford: bool = False, table: CubeTable | None = None,
) -> tuple[float, float, float, bool, bool, int, int]: ...
def cube_decide_batch(
    probs: Any, *, cube: int = 1, owner: str | int = "centred", x: float = 0.68, max_cube: int = 64,
    cube_disabled: bool = False, jacoby: bool = False, beaver: bool = False,
    score: tuple[int, int] | None = None, post_crawford: bool = False, table: CubeTable | None = None,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int8], npt.NDArray[np.bool_], npt.NDArray[np.bool_], int]: ...
def cube_efficiency(board: bytes) -> float: ...
