# Cython declarations of the plain-C playout loops (playout.h).
from libc.stdint cimport int8_t, uint32_t, uint64_t, int64_t
from movegen cimport bg_gen, bg_cancel
from nn cimport bg_evaluator

cdef extern from "playout.h" nogil:
    enum:
        BG_POLICY_RANDOM
        BG_POLICY_PUBEVAL
        BG_POLICY_NET
        BG_DU_FIELDS
        BG_DU_PAIRS
        BG_DU_GAMES
        BG_DU_A_WIN
        BG_DU_A_GAMMON
        BG_DU_A_BACKGAMMON
        BG_DU_B_WIN
        BG_DU_B_GAMMON
        BG_DU_B_BACKGAMMON
        BG_DU_SUM
        BG_DU_SUM_PAIR2
        BG_DU_PLIES
        BG_ST_FIELDS
        BG_STRATA
        BG_E_TOO_LONG
        BG_MAX_PLIES

    ctypedef struct bg_rng:
        uint64_t s[4]

    ctypedef struct bg_pubeval:
        int ready

    void bg_rng_seed(bg_rng *r, uint64_t seed, uint64_t game)
    uint32_t bg_rng_below(bg_rng *r, uint32_t n)
    void bg_pubeval_set(bg_pubeval *pe, int race, const double *w)
    int bg_is_race(const int8_t *b)
    double bg_pubeval_score(const bg_pubeval *pe, const int8_t *b, int race)
    int bg_finished(const int8_t *b)
    int64_t bg_choose(bg_gen *g, int64_t n, const int8_t *before, int policy,
                      const bg_pubeval *pe, bg_rng *r)
    int64_t bg_choose_ev(bg_gen *g, int64_t n, const int8_t *before, int policy,
                         const bg_pubeval *pe, const bg_evaluator *ev, bg_rng *r)
    void bg_record(int64_t *stats, int stratum, int points, int64_t plies)
    void bg_game_roll(bg_rng *r, int64_t game, int64_t ply, int stratify, int *d1, int *d2)
    ctypedef struct bg_play_slot:
        int8_t key[32]
        int8_t res[32]
    int BG_PLAY_CACHE_SLOTS
    bg_play_slot *bg_play_cache_new()
    size_t bg_play_slot_index(const int8_t *board, int d1, int d2, int8_t *key)
    int bg_playout_range(const int8_t *start, uint64_t seed, int64_t first_game,
                         int64_t ngames, int policy, const bg_pubeval *pe,
                         int stratify, int64_t *stats, const bg_evaluator *ev,
                         bg_cancel *cancel, bg_play_slot *cache)

    ctypedef struct bg_player:
        int policy
        const bg_evaluator *ev

    int bg_duel_range(const int8_t *start, uint64_t seed, int64_t first_pair,
                      int64_t npairs, const bg_player *a, const bg_player *b,
                      const bg_pubeval *pe, int64_t *stats, bg_cancel *cancel)

from cube cimport bg_cube_ctx

cdef extern from "playout.h" nogil:
    enum:
        BG_RX_FIELDS
        BG_RX_NQ
        BG_RX_SHIFT
        BG_RX_SHIFT2
        BG_E_CUBE

    ctypedef struct bg_rollout_opts:
        int cube_on
        bg_cube_ctx ctx
        int backgammon_value
        int vr
        int64_t truncate
        int rotation
        uint32_t rot_offset
        int no_double

    int bg_rollout_range(const int8_t *start, uint64_t seed, int64_t first_game,
                         int64_t ngames, const bg_rollout_opts *o, int64_t *stats,
                         const bg_evaluator *ev, bg_cancel *cancel, bg_play_slot *cache)

cdef extern from "playout.h" nogil:
    void bg_roll_sched(bg_rng *r, int64_t game, int64_t ply, const bg_rollout_opts *o,
                       int *d1, int *d2)
