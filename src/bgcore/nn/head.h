/*
 * nn/head.h -- part of the neural evaluator (included by nn.h, never alone).
 * After the first layer: the activation, the middle layer, the outputs, and whole evaluations.
 */
#ifndef BGCORE_NN_HEAD_H
#define BGCORE_NN_HEAD_H

static inline float bg_nn_logistic(float x)
{
    if (x < -40.0f) x = -40.0f;
    return 1.0f / (1.0f + expf(-x));
}

/* Hidden activations h of the sums acc, and the five output sums t (before
 * the logistic); padded entries multiply zero weights.  The plain version
 * is the reference: eight partial sums per output, then
 * ((s0 + s4) + (s1 + s5)) + ((s2 + s6) + (s3 + s7)); the SSE2 and AVX2
 * versions do the same operations lane by lane, so all three agree bit for bit. */
/* The soft sigmoid of n sums, elementwise (every version rounds alike). */
static inline void bg_nn_act(const float *acc, float *h, int n)
{
    int j;
    for (j = 0; j < n; j++) h[j] = 0.5f + 0.5f * acc[j] / (1.0f + fabsf(acc[j]));
}

/* The clipped ReLU of n sums, elementwise. */
static inline void bg_nn_act_crelu(const float *acc, float *h, int n)
{
    int j;
    for (j = 0; j < n; j++) h[j] = acc[j] < 0.0f ? 0.0f : acc[j] > 1.0f ? 1.0f : acc[j];
}

/* The reference dot product of w and h (n a multiple of 8): eight partial
 * sums, folded ((s0 + s4) + (s1 + s5)) + ((s2 + s6) + (s3 + s7)). */
static inline float bg_nn_dot8(const float *w, const float *h, int n)
{
    float s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int j, l;
    for (j = 0; j < n; j += 8)
        for (l = 0; l < 8; l++) s[l] += w[j + l] * h[j + l];
    return ((s[0] + s[4]) + (s[1] + s[5])) + ((s[2] + s[6]) + (s[3] + s[7]));
}

static inline void bg_nn_head_plain(const float *w2, int hp, const float *acc, float *h, float *t)
{
    int k;
    bg_nn_act(acc, h, hp);
    for (k = 0; k < BG_NN_NOUT; k++) t[k] = bg_nn_dot8(w2 + (size_t)k * hp, h, hp);
}

#ifdef BG_SSE2
static inline float bg_nn_fold4(__m128 u)
{
    float v[4];
    _mm_storeu_ps(v, u);
    return (v[0] + v[1]) + (v[2] + v[3]);
}

/* The soft sigmoid of four sums: bg_nn_act's steps, lane by lane. */
static inline __m128 bg_nn_soft4(__m128 a)
{
    const __m128 half = _mm_set1_ps(0.5f), one = _mm_set1_ps(1.0f);
    const __m128 absmask = _mm_castsi128_ps(_mm_set1_epi32(0x7FFFFFFF));
    return _mm_add_ps(half, _mm_div_ps(_mm_mul_ps(half, a),
                                       _mm_add_ps(one, _mm_and_ps(a, absmask))));
}

static inline void bg_nn_head_base(const float *w2, int hp, const float *acc, float *h, float *t)
{
    __m128 s[BG_NN_NOUT][2];
    int k, j, q;
    for (k = 0; k < BG_NN_NOUT; k++) s[k][0] = s[k][1] = _mm_setzero_ps();
    for (j = 0; j < hp; j += 8) {
        __m128 x[2];
        for (q = 0; q < 2; q++) {
            x[q] = bg_nn_soft4(_mm_loadu_ps(acc + j + 4 * q));
            _mm_storeu_ps(h + j + 4 * q, x[q]);
        }
        for (k = 0; k < BG_NN_NOUT; k++) {
            const float *w = w2 + (size_t)k * hp + j;
            s[k][0] = _mm_add_ps(s[k][0], _mm_mul_ps(_mm_loadu_ps(w), x[0]));
            s[k][1] = _mm_add_ps(s[k][1], _mm_mul_ps(_mm_loadu_ps(w + 4), x[1]));
        }
    }
    for (k = 0; k < BG_NN_NOUT; k++) t[k] = bg_nn_fold4(_mm_add_ps(s[k][0], s[k][1]));
}
#else
#define bg_nn_head_base bg_nn_head_plain
#endif

#ifdef BG_NN_X86_DISPATCH
/* The fold of bg_nn_dot8 over the eight lanes of s. */
__attribute__((target("avx2"))) static inline float bg_nn_fold8(__m256 s)
{
    return bg_nn_fold4(_mm_add_ps(_mm256_castps256_ps128(s), _mm256_extractf128_ps(s, 1)));
}

/* The soft sigmoid of eight sums: bg_nn_act's steps, lane by lane. */
__attribute__((target("avx2"))) static inline __m256 bg_nn_soft8(__m256 a)
{
    const __m256 half = _mm256_set1_ps(0.5f), one = _mm256_set1_ps(1.0f);
    const __m256 absmask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF));
    return _mm256_add_ps(half, _mm256_div_ps(_mm256_mul_ps(half, a),
                                             _mm256_add_ps(one, _mm256_and_ps(a, absmask))));
}

__attribute__((target("avx2"))) static void bg_nn_head_avx2(const float *w2, int hp,
                                                             const float *acc, float *h, float *t)
{
    __m256 s[BG_NN_NOUT];
    int k, j;
    for (k = 0; k < BG_NN_NOUT; k++) s[k] = _mm256_setzero_ps();
    for (j = 0; j < hp; j += 8) {
        __m256 x = bg_nn_soft8(_mm256_loadu_ps(acc + j));
        _mm256_storeu_ps(h + j, x);
        for (k = 0; k < BG_NN_NOUT; k++)
            s[k] = _mm256_add_ps(s[k], _mm256_mul_ps(_mm256_loadu_ps(w2 + (size_t)k * hp + j), x));
    }
    for (k = 0; k < BG_NN_NOUT; k++) t[k] = bg_nn_fold8(s[k]);
}
#endif

#ifdef BG_NN_X86_DISPATCH
/* One pass of the fused kernel: NV x 8 sums from jb, started from the base
 * sums a0, every column added, then their activations folded into the
 * five output sums s, as bg_nn_head_avx2 folds them (j rising by 8). */
#define BG_NN_FUSED_PASS(NV) do {                                                       \
        __m256 a[NV];                                                                   \
        BG_NN_AVX2_COLUMNS(NV, a0);                                                     \
        for (k = 0; k < NV; k++) {                                                      \
            __m256 x = bg_nn_soft8(a[k]);                                               \
            for (q = 0; q < BG_NN_NOUT; q++)                                            \
                s[q] = _mm256_add_ps(s[q], _mm256_mul_ps(                               \
                    _mm256_loadu_ps(w2 + (size_t)q * hpad + jb + 8 * k), x));           \
        }                                                                               \
        jb += 8 * NV;                                                                   \
    } while (0)

/* The five output sums t of a one-layer net whose first-layer sums are a0
 * plus the n columns: bg_nn_addcols_avx2 then bg_nn_head_avx2 in one pass,
 * bit for bit (the same adds in the same order), without storing the sums
 * or the activations.  Passes of 64 sums: with the five output sums they
 * fill 13 of the 16 registers. */
__attribute__((target("avx2"))) static void bg_nn_delta_head_avx2(
    const float *a0, const float *w1, int hpad, const int16_t *idx, const float *val, int n,
    const float *w2, float *t)
{
    __m256 s[BG_NN_NOUT];
    int i, jb = 0, k, q;
    for (q = 0; q < BG_NN_NOUT; q++) s[q] = _mm256_setzero_ps();
    while (hpad - jb >= 64) BG_NN_FUSED_PASS(8);
    while (jb < hpad) BG_NN_FUSED_PASS(1);
    for (q = 0; q < BG_NN_NOUT; q++) t[q] = bg_nn_fold8(s[q]);
}
#undef BG_NN_FUSED_PASS
#undef BG_NN_AVX2_COLUMNS
#endif

/* The middle layer's sums u = bm + wm h of the first layer's activations
 * h.  The plain version is the reference: eight partial sums per unit,
 * folded as the head folds them; the AVX2 one does the same operations
 * lane by lane (four units at a time), so both agree bit for bit. */
static inline void bg_nn_mid_plain(const bg_mlp *m, const float *h, float *u)
{
    int i;
    for (i = 0; i < m->mpad; i++) u[i] = bg_nn_dot8(m->wm + (size_t)i * m->hpad, h, m->hpad) + m->bm[i];
}

#ifdef BG_NN_X86_DISPATCH
__attribute__((target("avx2"))) static void bg_nn_mid_avx2(const bg_mlp *m, const float *h,
                                                            float *u)
{
    int i, j, q, hp = m->hpad;
    for (i = 0; i < m->mpad; i += 4) {          /* mpad is a multiple of 8 */
        __m256 s[4];
        for (q = 0; q < 4; q++) s[q] = _mm256_setzero_ps();
        for (j = 0; j < hp; j += 8) {
            __m256 x = _mm256_loadu_ps(h + j);
            for (q = 0; q < 4; q++)
                s[q] = _mm256_add_ps(s[q], _mm256_mul_ps(
                    _mm256_loadu_ps(m->wm + (size_t)(i + q) * hp + j), x));
        }
        for (q = 0; q < 4; q++) u[i + q] = bg_nn_fold8(s[q]) + m->bm[i + q];
    }
}
#endif

/* The five output sums t of the last hidden layer's sums acc (hp of
 * them), its activations into h. */
static inline void bg_nn_head_sums(const float *w2, int hp, const float *acc, float *h, float *t)
{
#ifdef BG_NN_X86_DISPATCH
    if (bg_nn_avx2) { bg_nn_head_avx2(w2, hp, acc, h, t); return; }
#endif
    bg_nn_head_base(w2, hp, acc, h, t);
}

/* The hidden activations into h (the first layer's hpad, then a middle
 * layer's mpad: BG_NN_HBUF floats) and the five raw output probabilities. */
static inline void bg_nn_head(const bg_mlp *m, const float *acc, float *h, float *out)
{
    float t[BG_NN_NOUT];
    int k;
    if (m->nmid) {
        float u[BG_NN_MAXMID];
        if (m->act == BG_NN_CRELU) bg_nn_act_crelu(acc, h, m->hpad);
        else bg_nn_act(acc, h, m->hpad);
#ifdef BG_NN_X86_DISPATCH
        if (bg_nn_avx2) bg_nn_mid_avx2(m, h, u);
        else
#endif
        bg_nn_mid_plain(m, h, u);
        bg_nn_head_sums(m->w2, m->mpad, u, h + m->hpad, t);
    } else {
        bg_nn_head_sums(m->w2, m->hpad, acc, h, t);
    }
    for (k = 0; k < BG_NN_NOUT; k++) out[k] = bg_nn_logistic(t[k] + m->b2[k]);
}

/* The exact value of a finished board (a side has no checkers), or 0 if
 * the game goes on.  `out` is for the player on roll. */
static inline int bg_nn_terminal_scan(const int8_t *b, const bg_nn_scan_t *s, float *out)
{
    int p, pts;
    if (s->own_count && s->opp_count) return 0;
    memset(out, 0, sizeof(float) * BG_NN_NOUT);
    if (!s->own_count) {      /* the player on roll has borne off everything */
        out[0] = 1.0f;
        pts = s->opp_count < BG_MAXCHK ? 1 : 2;
        if (pts == 2) {
            if (b[0] < 0) pts = 3;
            for (p = 1; p <= 6; p++) if (b[p] < 0) pts = 3;   /* our home board */
        }
        if (pts >= 2) out[1] = 1.0f;
        if (pts >= 3) out[2] = 1.0f;
    } else {                  /* the opponent has */
        pts = s->own_count < BG_MAXCHK ? 1 : 2;
        if (pts == 2) {
            if (b[BG_BAR] > 0) pts = 3;
            for (p = 19; p <= 24; p++) if (b[p] > 0) pts = 3;  /* the opponent's home */
        }
        if (pts >= 2) out[3] = 1.0f;
        if (pts >= 3) out[4] = 1.0f;
    }
    return 1;
}

static inline int bg_nn_terminal(const int8_t *b, float *out)
{
    bg_nn_scan_t s;
    bg_nn_scan(b, &s);
    return bg_nn_terminal_scan(b, &s, out);
}

/* Orders the outputs (win >= wg >= wb, 1 - win >= lg >= lb) and zeroes the
 * gammons that cannot happen (a side that has borne off cannot lose one). */
static inline void bg_nn_tidy_scan(const bg_nn_scan_t *s, float *out)
{
    if (s->opp_count < BG_MAXCHK) out[1] = out[2] = 0.0f;
    if (s->own_count < BG_MAXCHK) out[3] = out[4] = 0.0f;
    if (out[1] > out[0]) out[1] = out[0];
    if (out[2] > out[1]) out[2] = out[1];
    if (out[3] > 1.0f - out[0]) out[3] = 1.0f - out[0];
    if (out[4] > out[3]) out[4] = out[3];
}

/* The evaluator hook for exact values (the bear-off database): asked only
 * about positions with both sides entirely in their home boards; returns 1
 * and fills out when it knows the position. */
typedef int (*bg_exact_fn)(const void *ctx, const int8_t *b, float *out);

#define BG_NN_MAXKEEP 16       /* plays a pruned move choice passes to the full nets at most */

typedef struct {
    const bg_nn *nn;
    bg_exact_fn exact;     /* may be NULL */
    const void *exact_ctx;
    const bg_nn *prune;    /* may be NULL: small nets that screen a move choice's plays */
    int keep;              /* with prune: how many of the screen's best the full nets see */
    float margin;          /* with prune, if > 0: only those within margin of the screen's best */
} bg_evaluator;

/* An exact value of b (finished, or known to the hook): 1 and out filled. */
static inline int bg_nn_known(const bg_evaluator *ev, const int8_t *b, const bg_nn_scan_t *s,
                              float *out)
{
    if (bg_nn_terminal_scan(b, s, out)) return 1;
    return ev->exact && bg_nn_scan_home(s) && ev->exact(ev->exact_ctx, b, out);
}

/* The raw outputs of net m whose first-layer sums are a0 plus the n columns
 * idx x val.  acc and h are scratch (BG_NN_MAXH and BG_NN_HBUF floats): with
 * AVX2 a one-layer net fuses the adds and the head and leaves them unused. */
static inline void bg_nn_outputs_from(const bg_mlp *m, const float *a0, const int16_t *idx,
                                      const float *val, int n, float *acc, float *h, float *out)
{
#ifdef BG_NN_X86_DISPATCH
    if (bg_nn_avx2 && !m->nmid) {      /* the same sums, bit for bit, never stored */
        float t[BG_NN_NOUT];
        int k;
        bg_nn_delta_head_avx2(a0, m->w1, m->hpad, idx, val, n, m->w2, t);
        for (k = 0; k < BG_NN_NOUT; k++) out[k] = bg_nn_logistic(t[k] + m->b2[k]);
        return;
    }
#endif
    memcpy(acc, a0, sizeof(float) * (size_t)m->hpad);
    bg_nn_addcols(acc, m->w1, m->hpad, idx, val, n);
    bg_nn_head(m, acc, h, out);
}

/* nn/quant.h: the raw outputs of a quantised net from its biases. */
static inline void bg_q_forward(const struct bg_qnet_s *q, const int16_t *idx, const float *val,
                                int n, float *out);

/* Raw outputs of net m at board b (scanned); acc and h are scratch. */
static inline void bg_nn_forward_scan(const bg_mlp *m, const int8_t *b, const bg_nn_scan_t *s,
                                      float *acc, float *h, float *out)
{
    int16_t idx[BG_NN_MAXNZ];
    float val[BG_NN_MAXNZ];
    int n = bg_nn_encode_scan_enc(m->enc, b, s, idx, val);
    if (m->q) bg_q_forward(m->q, idx, val, n, out);
    else bg_nn_outputs_from(m, m->b1, idx, val, n, acc, h, out);
}

/* The five probabilities of board b for the player on roll, before rolling. */
static inline void bg_eval(const bg_evaluator *ev, const int8_t *b, float *out)
{
    float acc[BG_NN_MAXH], h[BG_NN_HBUF];
    bg_nn_scan_t s;
    bg_nn_scan(b, &s);
    if (bg_nn_known(ev, b, &s, out)) return;
    bg_nn_forward_scan(&ev->nn->net[bg_nn_class(ev->nn, b, &s)], b, &s, acc, h, out);
    bg_nn_tidy_scan(&s, out);
}

static inline float bg_equity(const float *p)
{
    return 2.0f * p[0] - 1.0f + p[1] - p[3] + p[2] - p[4];
}

/* The other player's view of the same five probabilities. */
static inline void bg_flip(const float *p, float *q)
{
    float w = 1.0f - p[0], wg = p[3], wb = p[4], lg = p[1], lb = p[2];
    q[0] = w; q[1] = wg; q[2] = wb; q[3] = lg; q[4] = lb;
}

#endif /* BGCORE_NN_HEAD_H */
