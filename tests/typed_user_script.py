"""A user's typed script: ``mypy --strict`` must see precise types in the public API
(tests/test_result_types.py runs it; not a test module itself)."""

import backgammon as bg

pos = bg.Position.initial()
plays: bg.RankedPlays = pos.rank_plays("31")
best: bg.RankedPlay = plays[0]
top: bg.RankedPlays = plays[:3]
equity: float = best.equity
win: float = best.evaluation.win
text: str = str(best.play)
game = bg.Game()
decision: bg.CubeDecision = game.cube_decision()
action: str = decision.action
nd: float = decision.no_double
result: bg.RolloutResult = bg.rollout(pos, games=72, seed=1)
low: float = result.win.low
cube: bg.CubeDecision = bg.rollout_cube(pos, games=1296, seed=1)
match = bg.Match(5)
analysis: bg.Analysis = bg.analyse(match)
state: bg.Game = analysis.decisions[0].to_game() if analysis.decisions else game
