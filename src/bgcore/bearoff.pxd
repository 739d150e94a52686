# Cython declarations of the plain-C one-sided bear-off database (bearoff.h).
from libc.stdint cimport int8_t, int64_t

cdef extern from "bearoff.h" nogil:
    enum:
        BG_BO_NPOS
        BG_BO_NPOS14
        BG_BO_TURNS

    ctypedef struct bg_bearoff:
        float *off
        float *first
        float *mean
        float *mean_first

    int bg_bearoff_build(bg_bearoff *db)
    int bg_bearoff_build_reference(bg_bearoff *db)
    int64_t bg_bearoff_check_steps()
    void bg_bearoff_free(bg_bearoff *db)
    int bg_bearoff_index(const int8_t *home)
    void bg_bearoff_home(int idx, int8_t *home)
    int bg_bearoff_count(int idx)
    int bg_bearoff_applies(const int8_t *b)
    void bg_bearoff_race(const bg_bearoff *db, int me, int opp, float *out)
    void bg_bearoff_probs(const bg_bearoff *db, const int8_t *b, float *out)
