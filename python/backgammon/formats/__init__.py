"""Interchange formats: gnubg's Position ID, Match ID and GNUbgID, XGID,
Jellyfish/gnubg ``.mat`` match files, gnubg's SGF and the library's JSON record,
and :func:`read_record`, a record file of any of those formats."""

from backgammon.formats.match_id import MatchKey, decode_match_id, encode_match_id
from backgammon.formats.mat import MatRecord, read_mat, write_mat
from backgammon.formats.position_id import decode_position_id, encode_position_id
from backgammon.formats.sgf import SgfRecord, read_sgf, write_sgf
from backgammon.formats.record import (
    Record,
    read_json,
    record_from_dict,
    record_to_dict,
    write_json,
)
from backgammon.formats.xgid import XGIDFields, decode_xgid, encode_xgid
from backgammon.formats.files import MAX_RECORD_BYTES, read_record

__all__ = [
    "MAX_RECORD_BYTES",
    "MatRecord",
    "MatchKey",
    "Record",
    "SgfRecord",
    "XGIDFields",
    "decode_match_id",
    "decode_position_id",
    "decode_xgid",
    "encode_match_id",
    "encode_position_id",
    "encode_xgid",
    "read_json",
    "read_mat",
    "read_record",
    "read_sgf",
    "record_from_dict",
    "record_to_dict",
    "write_json",
    "write_mat",
    "write_sgf",
]
