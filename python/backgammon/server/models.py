"""The request and response bodies of the API, as pydantic models: what the
OpenAPI schema shows and what a request must match (extra fields refused,
integers as JSON Schema has them)."""

from typing import Annotated, Any, Literal, Optional

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictBool

from backgammon.server import app as bounds   # the MAX_* bounds

__all__ = ["ActionModel", "BotModel", "Created", "CubeInfo", "ErrorMessage", "EvalResponse",
           "GameCreate", "JsonInt", "MoveDetail", "MoveInfo", "MoveResponse", "Probabilities",
           "RolloutRequest", "RulesModel", "Strict"]


def json_int(value: Any) -> Any:
    """An integer of a JSON body: an int, or a float with no fraction (JSON Schema's
    ``integer``); a boolean or a string is refused."""
    if isinstance(value, bool) or isinstance(value, str):
        raise ValueError("Input should be a valid integer")
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**63:
        return int(value)
    return value


# an integer as JSON Schema has it: 3 or 3.0, never true or "3"
JsonInt = Annotated[int, BeforeValidator(json_int)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RulesModel(Strict):
    cube: StrictBool = True
    max_cube: JsonInt = 64
    jacoby: StrictBool = False
    beaver: StrictBool = False
    automatic_doubles: JsonInt = 0
    backgammon_value: JsonInt = 3
    opening: Literal["opening_dice", "roll_again"] = "opening_dice"


class BotModel(Strict):
    seat: JsonInt = Field(1, ge=0, le=1)
    ply: JsonInt = Field(2, ge=0, le=2, description="search depth (default 2: a few "
                                                   "milliseconds of CPU a move)")


class GameCreate(Strict):
    match_length: JsonInt = Field(0, ge=0, le=64,
                                    description="0: a money game; N: a match to N")
    rules: Optional[RulesModel] = None
    bot: Optional[BotModel] = Field(None, description="a seat played by the server's bot")
    over_the_board: StrictBool = Field(False,
                                       description="the players enter the dice they roll")
    crawford: StrictBool = True


class Created(BaseModel):
    id: str
    tokens: dict[str, str]


class ActionModel(Strict):
    action: Literal["roll", "play", "double", "take", "drop", "beaver", "resign",
                    "accept", "reject"]
    seq: JsonInt = Field(..., ge=0, description="the game's seq this action follows")
    play: Optional[str] = Field(None, max_length=200,
                                description='gnubg notation, e.g. "8/5 6/5"; "" for no move')
    moves: Optional[list[tuple[JsonInt, JsonInt]]] = Field(None, max_length=8)
    points: Optional[JsonInt] = Field(None, ge=1, le=3,
                                  description="resign: 1 single, 2 gammon, 3 backgammon")
    dice: Optional[tuple[JsonInt, JsonInt]] = Field(
        None, description="over the board: the roll")


class RolloutRequest(Strict):
    position: str = Field("4HPwATDgc/ABMA", max_length=100,
                          description="a Position ID, GNUbgID or XGID")
    games: JsonInt = Field(1296, ge=1, le=bounds.MAX_ROLLOUT_GAMES)
    seed: Optional[JsonInt] = Field(None, ge=0, le=2**53,
                                   description="up to 2**53 (exact in every JSON reader)")
    policy: Literal["net", "pubeval", "random"] = "net"
    cube: StrictBool = False
    variance_reduction: StrictBool = False
    truncate: Optional[JsonInt] = Field(None, ge=1, le=1000)


class MoveDetail(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    from_: int = Field(..., alias="from", ge=1, le=25, description="25 is the bar")
    to: int = Field(..., ge=0, le=24, description="0 is off")


class Probabilities(BaseModel):
    win: float
    winG: float
    winBg: float
    loseG: float
    loseBg: float


class MoveInfo(BaseModel):
    play: list[MoveDetail]
    probabilities: Probabilities


class MoveResponse(BaseModel):
    moves: list[MoveInfo]


class CubeInfo(BaseModel):
    double: bool
    accept: bool


class EvalResponse(BaseModel):
    cube: CubeInfo
    probabilities: Probabilities


class ErrorMessage(BaseModel):
    error: str
    message: str
