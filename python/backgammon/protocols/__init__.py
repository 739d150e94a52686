"""Engine protocols: FIBS board strings (and, later, UBGI and gnubg's external player).

    >>> import backgammon as bg
    >>> game = bg.Game.from_position(bg.Position.initial(), turn=0, dice=(3, 1))
    >>> text = to_fibs_board(game)
    >>> from_fibs_board(text).position == game.position
    True
"""

from backgammon.protocols.fibs import FibsBoard, from_fibs_board, parse_fibs_board, to_fibs_board

__all__ = ["FibsBoard", "from_fibs_board", "parse_fibs_board", "to_fibs_board"]
