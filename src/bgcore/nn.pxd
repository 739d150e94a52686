# Cython declarations of the neural evaluator (nn.h).
from libc.stdint cimport int8_t, int16_t, uint32_t, uint64_t, int64_t
from movegen cimport bg_cancel
from bearoff cimport bg_bearoff

cdef extern from "nn.h" nogil:
    enum:
        BG_NN_NIN
        BG_NN_NIN2
        BG_NN_NFEAT
        BG_NN_NFEAT2
        BG_NN_NIN3
        BG_NN_NFEAT3
        BG_NN_NIN4
        BG_NN_NFEAT4
        BG_NN_NIN5
        BG_NN_NIN6
        BG_NN_NFEAT5
        BG_NN_MAXFEAT
        BG_NN_ENCODING_MAX
        BG_NN_MAXNETS
        BG_NN_CRASHED
        BG_NN_NOUT
        BG_NN_MAXH
        BG_NN_MAXMID
        BG_NN_MAXNZ
        BG_NN_ENCODING
        BG_NN_RACE
        BG_NN_CONTACT
        BG_NN_SOFT
        BG_NN_CRELU

    ctypedef struct bg_qnet "struct bg_qnet_s":
        int hpad, mid, drows
        const float *s1
        float s2
        int crelu
        int16_t top
        const int16_t *w1
        const int16_t *b1
        const int16_t *wd
        const float *bd
        const float *w2
        const float *b2

    enum:
        BG_Q_HBITS
        BG_Q_ALIGN
        BG_Q_OUTROWS
        BG_Q_PLAIN
        BG_Q_SSE2
        BG_Q_AVX2
        BG_Q_VNNI
        BG_Q_NEON
    int bg_q_target
    int bg_q_has(int t)
    int bg_q_set_target(int t)
    int bg_q_init(int most)

    ctypedef struct bg_mlp:
        int nin, nhid, hpad
        int enc
        const float *w1
        const float *b1
        const float *w2
        const float *b2
        int nmid, mpad
        const float *wm
        const float *bm
        const bg_qnet *q
        int act

    ctypedef struct bg_nn:
        bg_mlp net[3]
        int nnets

    ctypedef int (*bg_exact_fn)(const void *ctx, const int8_t *b, float *out) noexcept nogil

    ctypedef struct bg_evaluator:
        const bg_nn *nn
        bg_exact_fn exact
        const void *exact_ctx
        const bg_nn *prune
        int keep
        float margin

    int bg_nn_init_cpu(int allow)
    enum: BG_NN_MAXKEEP
    ctypedef struct bg_nn_scan_t:
        uint32_t own, opp, own_made, opp_made, opp_blot, own_blot_t, own_made_t
    int bg_nn_shots(uint32_t own, uint32_t blot, uint32_t closed)
    int bg_nn_escapes(int p, uint32_t closed)
    int bg_highbit(uint32_t m)
    void bg_nn_shots_escapes(const bg_nn_scan_t *s, int *out)
    void bg_nn_scan(const int8_t *b, bg_nn_scan_t *s)
    void bg_nn_scan_plain(const int8_t *b, bg_nn_scan_t *s)
    int bg_nn_is_race(const int8_t *b)
    int bg_nn_encode(const int8_t *b, int16_t *idx, float *val)
    int bg_nn_encode_enc(int enc, const int8_t *b, int16_t *idx, float *val)
    int bg_nn_class(const bg_nn *nn, const int8_t *b, const bg_nn_scan_t *s)
    int bg_nn_scan_crashed(const int8_t *b, const bg_nn_scan_t *s)
    int bg_nn_features_enc(int enc, const int8_t *b, const bg_nn_scan_t *s, float *f)
    int bg_nn_inputs(int enc)
    void bg_nn3_init()
    void bg_nn4_init(const bg_bearoff *db)
    int bg_nn3_esc_of(int pattern)
    void bg_nn2_features(const int8_t *b, const bg_nn_scan_t *s, float *f)
    void bg_nn2_features_plain(const int8_t *b, const bg_nn_scan_t *s, float *f)
    void bg_eval(const bg_evaluator *ev, const int8_t *b, float *out)
    int64_t bg_nn_choose(const bg_evaluator *ev, const int8_t *cands, int64_t n,
                         const int8_t *before, float *probs, float *best_probs)
    ctypedef struct bg_nn_chooser:
        pass
    void bg_nn_chooser_init(bg_nn_chooser *c)
    int64_t bg_nn_choose_in(const bg_evaluator *ev, bg_nn_chooser *c, const int8_t *cands,
                            int64_t n, const int8_t *before, float *probs, float *best_probs)
    int bg_nn_known(const bg_evaluator *ev, const int8_t *b, const bg_nn_scan_t *s, float *out)
    int bg_nn_scan_race(const bg_nn_scan_t *s)
