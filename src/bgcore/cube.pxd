# Cython declarations of the plain-C cube decisions (cube.h).
from libc.stdint cimport int8_t, int64_t

cdef extern from "cube.h" nogil:
    enum:
        BG_MET_MAX
        BG_MET_AWAY_MAX
        BG_CUBE_MAX_VALUE
        BG_CUBE_CENTRED
        BG_CUBE_OWN
        BG_CUBE_OPPONENT
        BG_CUBE_NO_DOUBLE_TAKE
        BG_CUBE_NO_DOUBLE_BEAVER
        BG_CUBE_DOUBLE_TAKE
        BG_CUBE_DOUBLE_BEAVER
        BG_CUBE_DOUBLE_PASS
        BG_CUBE_TOO_GOOD_PASS
        BG_CUBE_TOO_GOOD_TAKE
        BG_CUBE_TOO_GOOD_BEAVER
        BG_CUBE_NOT_AVAILABLE
        BG_CUBE_NACTIONS
        BG_CUBE_AVAILABLE
        BG_CUBE_OPPONENT_OWNS
        BG_CUBE_AT_LIMIT
        BG_CUBE_CRAWFORD
        BG_CUBE_NREASONS
        BG_CUBE_OK
        BG_CUBE_E_RANGE
        BG_CUBE_E_ORDER
        BG_CUBE_E_X
        BG_CUBE_E_OWNER
        BG_CUBE_E_CUBE
        BG_CUBE_E_TABLE
        BG_CUBE_E_BEYOND
        BG_CUBE_E_BOTH_WON
        BG_CUBE_E_POST

    ctypedef struct bg_met:
        int n
        double pre[BG_MET_MAX][BG_MET_MAX]
        double post[BG_MET_MAX]
        int ext
        double edge_z[BG_MET_MAX]
        double post_anchor[2]
        double crawford_anchor[2]
        double ratio

    ctypedef struct bg_cube_ctx:
        int cube
        int owner
        double x
        int64_t max_cube
        int cube_disabled
        int jacoby
        int beaver
        int match
        int away
        int opponent_away
        int post_crawford
        const bg_met *met

    ctypedef struct bg_cube_result:
        double no_double
        double double_take
        double double_pass
        int take
        int beaver
        int available
        int action
        int reason

    int bg_cube_check_chances(const double c[5])
    int bg_met_check_score(const bg_met *met, int away, int opponent_away, int post_crawford)
    int bg_cube_check_value(int64_t cube)
    double bg_money_equity_d(const double c[5], int owner, double x, int jacoby)
    double bg_money_equity(const float probs[5], int owner, double x, int jacoby)
    double bg_match_equity_d(const double c[5], int away, int opponent_away, int64_t cube,
                             int owner, double x, int post_crawford, int64_t max_cube,
                             const bg_met *met)
    double bg_match_equity(const float probs[5], int away, int opponent_away, int64_t cube,
                           int owner, double x, int post_crawford, int64_t max_cube,
                           const bg_met *met)
    int bg_cube_check_ctx(const bg_cube_ctx *ctx)
    int bg_cube_decide_d(const double c[5], const bg_cube_ctx *ctx, bg_cube_result *r)
    int bg_cube_decide(const float probs[5], const bg_cube_ctx *ctx, bg_cube_result *r)
    double bg_cube_efficiency(const int8_t *board)
    int bg_cube_reason_of(const bg_cube_ctx *ctx)
