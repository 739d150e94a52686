# Cython declarations of TD self-play training (train.h).
from libc.stdint cimport int8_t, uint64_t, int64_t
from movegen cimport bg_cancel
from nn cimport bg_evaluator

cdef extern from "train.h" nogil:
    ctypedef struct bg_mlp_rw:
        float *w1
        float *b1
        float *w2
        float *b2
        float *wm
        float *bm

    int64_t bg_td_games(const bg_evaluator *ev, const bg_mlp_rw *rw, const int8_t *start,
                        uint64_t seed, int64_t first_game, int64_t ngames, float lr,
                        bg_cancel *cancel)
