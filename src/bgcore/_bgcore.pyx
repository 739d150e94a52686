# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled core of ``backgammon``: thin wrappers over ``movegen.h``.

Private: users import :mod:`backgammon`.  Boards cross this boundary as
26-byte ``bytes`` objects (two's-complement int8, the public board
convention) or as ``int8`` numpy arrays.  Errors are raised here, with the
exception classes of :mod:`backgammon.errors`.
"""
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.exc cimport PyErr_CheckSignals, PyErr_Occurred
from cpython.pycapsule cimport PyCapsule_New, PyCapsule_GetPointer
from libc.stdint cimport int8_t, int16_t, uint8_t, int64_t
from libc.stdlib cimport free
from libc.string cimport memcpy, memset, memcmp

cimport numpy as cnp
import threading

import numpy as np

from backgammon._show import shown
from backgammon.errors import GameOverError, InvalidDiceError, InvalidPositionError, RolloutError

from movegen cimport *
from bearoff cimport *   # used by the nets (exact bear-offs) and its own area

cnp.import_array()

cdef extern from "Python.h":
    # declared without an exception clause: called from a nogil callback,
    # which leaves the exception set for the loop's caller to raise
    int _check_signals "PyErr_CheckSignals" () nogil

NPTS = BG_NPTS

# One generator, reused by the calls that keep the GIL (they are short).  A
# call that finds it busy (re-entered from a finaliser run by the garbage
# collector, or from another thread while this one waits inside an
# allocation) takes a fresh one.  Calls that release the GIL take their own.
cdef bg_gen *_G = bg_gen_new()
cdef bint _G_busy = False
if _G == NULL:
    raise MemoryError()


cdef bg_gen *_acquire() except NULL:
    global _G_busy
    cdef bg_gen *g
    if not _G_busy:
        _G_busy = True
        g = _G
        g.out.n = 0
        g.want_moves = 0
        return g
    g = bg_gen_new()
    if g == NULL:
        raise MemoryError()
    return g


cdef void _release(bg_gen *g) noexcept:
    global _G_busy
    if g == _G:
        _G.want_moves = 0
        _G_busy = False
    else:
        bg_gen_free(g)

# ----------------------------------------------------------------------
# The areas of the core, one file each, in this order (module-level code runs in it)

include "cancel.pxi"
include "movegen.pxi"
include "playout.pxi"
include "nn.pxi"
include "duel.pxi"
include "bearoff.pxi"
include "cube.pxi"
include "rollout.pxi"
include "env.pxi"   # encoders and environments (encode.h, venv.h)
