"""Interchange formats: gnubg's Position ID (and, later, Match ID, XGID, .mat)."""

from backgammon.formats.position_id import decode_position_id, encode_position_id

__all__ = ["decode_position_id", "encode_position_id"]
