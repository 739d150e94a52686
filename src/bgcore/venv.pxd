# Cython declarations of turns step by step and the vector environment (venv.h).
from libc.stdint cimport int8_t, uint8_t, int32_t, int64_t, uint64_t
from movegen cimport bg_gen
from playout cimport bg_player, bg_pubeval, bg_rng

cdef extern from "venv.h" nogil:
    enum:
        BG_MICRO_N
        BG_OS_N
        BG_ACT_MICRO
        BG_ACT_OPENSPIEL
        BG_ACT_AFTERSTATE
        BG_OPP_EXTERNAL
        BG_OPP_SELF
        BG_VG_OPP_TO_MOVE
    ctypedef struct bg_turn:
        int8_t b[32]
        uint8_t left[8]
        int8_t need
        uint8_t only
        uint8_t d1, d2
        uint8_t seat
    int bg_turn_begin(bg_turn *t, bg_gen *g, const int8_t *b, int seat, int d1, int d2)
    int bg_turn_step(bg_turn *t, int src, int d)
    int bg_turn_micro_mask(const bg_turn *t, uint8_t *mask)
    int bg_turn_os_mask(const bg_turn *t, uint8_t *mask)
    int bg_turn_os_step(bg_turn *t, int id)
    int bg_micro_decode(int id, int *src, int *d)
    int bg_micro_id(int src, int d)
    int bg_os_id(int seat, int low_first, int s1, int s2)
    int bg_os_src(int seat, int digit)

    ctypedef struct bg_vgame:
        bg_turn t
        uint64_t episode
        int32_t plies
        int32_t decisions
    ctypedef struct bg_venv_cfg:
        uint64_t seed
        int actions
        int enc
        bg_player opp
        const bg_pubeval *pe
    int bg_vg_reset(bg_vgame *v, const bg_venv_cfg *c, bg_gen *g, uint64_t slot,
                    const int8_t *start)
    int bg_vg_act(bg_vgame *v, const bg_venv_cfg *c, bg_gen *g, int id, int *result)
    int bg_vg_opp_done(bg_vgame *v, const bg_venv_cfg *c, bg_gen *g, const int8_t *after)
    int bg_vg_mask(const bg_vgame *v, const bg_venv_cfg *c, uint8_t *mask)
    void bg_vg_observe(const bg_vgame *v, const bg_venv_cfg *c, float *obs)
    int bg_softmax_ok(const double *logits, const uint8_t *mask, int64_t m)
    int64_t bg_sample_softmax(bg_rng *r, const double *logits, const uint8_t *mask, int64_t m)
