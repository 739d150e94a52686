/*
 * nn/quant.h -- part of the neural evaluator (included by nn.h, never alone).
 * Integer inference for nets of binary inputs (encoding 5, nn/feat5.h).
 *
 * A quantised net (bg_qnet, made from a float one by backgammon.nn.quant):
 *   first layer  int16 sums: the int16 biases plus or minus the int16 weight
 *                columns of the inputs set (no multiply; a play's candidates
 *                add and subtract the few columns they change);
 *   activation   h = trunc(2^BG_Q_HBITS s(sum 2^-s1) + 1/2), s the soft
 *                sigmoid of nn.h, in float, lane by lane; or, for the
 *                clipped ReLU (BG_NN_CRELU), h = min(max(sum, 0), 2^s1);
 *   dense layer  int32 sums of int16 weights times h: the middle layer, or
 *                the five outputs of a net without one;
 *   the rest     in float as nn/head.h does it: the middle sums scaled and
 *                biased, their soft sigmoid, the outputs, the logistic.
 *
 * Integer sums are exact, so their order does not matter: the plain loops,
 * SSE2, AVX2, AVX-512 VNNI and NEON give the same sums, and the float steps
 * are the same IEEE operations in the same order on every target (the
 * module is built with -ffp-contract=off: no fused multiply-add).  The
 * quantiser picks the scales so that no sum can leave its type: every
 * first-layer unit's scale keeps its bound over all positions (docs/nn.md,
 * "Integer nets") within int16 (the adds wrap, so any order of adds and
 * subtracts ends at the same exact sum); every
 * dense row's sum of |weight| times the largest activation (2^BG_Q_HBITS, or
 * 2^s1 for the clipped ReLU) fits an int32.
 */
#ifndef BGCORE_NN_QUANT_H
#define BGCORE_NN_QUANT_H

#define BG_Q_HBITS 13          /* activations 0 .. 2^13 */
#define BG_Q_ALIGN 32          /* first-layer units are padded to a multiple of this */
#define BG_Q_OUTROWS 8         /* dense rows of a net without a middle layer (5 used) */

typedef struct bg_qnet_s {
    int hpad;                  /* first-layer units, a multiple of BG_Q_ALIGN (padding zero) */
    int mid;                   /* middle units (padded, a multiple of 8), or 0: the dense layer is the outputs */
    int drows;                 /* rows of the dense layer: mid, or BG_Q_OUTROWS */
    const float *s1;           /* hpad: 2^-s1 of each unit, its first-layer sum to float (each
                                  unit its own scale: the finest its bound allows) */
    float s2;                  /* a dense sum to float: 2^-(BG_Q_HBITS + s2), or 2^-(s1 + s2) */
    int crelu;                 /* the first layer's clipped ReLU: h = min(max(sum, 0), top) */
    int16_t top;               /* with crelu: 2^s1, the sum of 1.0 (one s1 for all units) */
    const int16_t *w1;         /* inputs x hpad, input-major */
    const int16_t *b1;         /* hpad */
    const int16_t *wd;         /* drows x hpad, row-major */
    const float *bd;           /* drows: the middle biases, or the output biases */
    const float *w2;           /* with a middle layer: 5 x mid, the outputs' weights */
    const float *b2;           /* with a middle layer: 5 */
} bg_qnet;

#define BG_Q_PLAIN 0
#define BG_Q_SSE2 1
#define BG_Q_AVX2 2
#define BG_Q_VNNI 3            /* AVX2 with AVX-512 VNNI's dot products (on 256-bit vectors) */
#define BG_Q_NEON 4
static int bg_q_target = BG_Q_PLAIN;

/* ------------------------------------------------------------------ */
/* The plain loops: the reference                                      */

/* acc = a0 plus the columns idx[i] whose val[i] > 0, less those whose val[i] < 0. */
static inline void bg_q_cols_plain(int16_t *acc, const int16_t *a0, const int16_t *w1, int hpad,
                                   const int16_t *idx, const float *val, int n)
{
    int i, j;
    for (j = 0; j < hpad; j++) acc[j] = a0[j];
    for (i = 0; i < n; i++) {
        const int16_t *col = w1 + (size_t)idx[i] * hpad;
        /* wrapping adds (in uint16_t: signed overflow is undefined in C) */
        if (val[i] > 0.0f)
            for (j = 0; j < hpad; j++) acc[j] = (int16_t)(uint16_t)((uint16_t)acc[j] + (uint16_t)col[j]);
        else
            for (j = 0; j < hpad; j++) acc[j] = (int16_t)(uint16_t)((uint16_t)acc[j] - (uint16_t)col[j]);
    }
}

/* One activation: the float steps every target takes, lane by lane. */
static inline int16_t bg_q_act1(int16_t a, float scale)
{
    float x = (float)a * scale;
    float s = 0.5f + 0.5f * x / (1.0f + fabsf(x));
    return (int16_t)(int)(s * (float)(1 << BG_Q_HBITS) + 0.5f);
}

static inline void bg_q_act_plain(const int16_t *acc, int16_t *h, int hpad, const float *scale)
{
    int j;
    for (j = 0; j < hpad; j++) h[j] = bg_q_act1(acc[j], scale[j]);
}

static inline void bg_q_clip_plain(const int16_t *acc, int16_t *h, int hpad, int16_t top)
{
    int j;
    for (j = 0; j < hpad; j++) h[j] = acc[j] < 0 ? 0 : acc[j] > top ? top : acc[j];
}

/* u[r] = sum over j of w[r][j] h[j], for rows r < rows. */
static inline void bg_q_dense_plain(const int16_t *w, int rows, int hpad, const int16_t *h,
                                    int32_t *u)
{
    int r, j;
    for (r = 0; r < rows; r++) {
        int32_t s = 0;
        const int16_t *row = w + (size_t)r * hpad;
        for (j = 0; j < hpad; j++) s += (int32_t)row[j] * h[j];
        u[r] = s;
    }
}

/* ------------------------------------------------------------------ */
/* SSE2 (every x86-64)                                                 */

#ifdef BG_SSE2
static inline void bg_q_cols_sse2(int16_t *acc, const int16_t *a0, const int16_t *w1, int hpad,
                                  const int16_t *idx, const float *val, int n)
{
    int i, jb, k, nv;
    for (jb = 0; jb < hpad; jb += 8 * nv) {      /* up to 64 sums in eight registers */
        __m128i a[8];
        nv = (hpad - jb) / 8 < 8 ? (hpad - jb) / 8 : 8;
        for (k = 0; k < nv; k++) a[k] = _mm_loadu_si128((const __m128i *)(a0 + jb + 8 * k));
        for (i = 0; i < n; i++) {
            const int16_t *col = w1 + (size_t)idx[i] * hpad + jb;
            if (val[i] > 0.0f)
                for (k = 0; k < nv; k++)
                    a[k] = _mm_add_epi16(a[k], _mm_loadu_si128((const __m128i *)(col + 8 * k)));
            else
                for (k = 0; k < nv; k++)
                    a[k] = _mm_sub_epi16(a[k], _mm_loadu_si128((const __m128i *)(col + 8 * k)));
        }
        for (k = 0; k < nv; k++) _mm_storeu_si128((__m128i *)(acc + jb + 8 * k), a[k]);
    }
}

/* The activation of four int32 sums, as bg_q_act1. */
static inline __m128i bg_q_act4_sse2(__m128i a, __m128 scale)
{
    const __m128 half = _mm_set1_ps(0.5f), top = _mm_set1_ps((float)(1 << BG_Q_HBITS));
    __m128 s = bg_nn_soft4(_mm_mul_ps(_mm_cvtepi32_ps(a), scale));
    return _mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(s, top), half));
}

static inline void bg_q_act_sse2(const int16_t *acc, int16_t *h, int hpad, const float *scale)
{
    int j;
    for (j = 0; j < hpad; j += 8) {
        __m128i v = _mm_loadu_si128((const __m128i *)(acc + j));
        __m128i lo = _mm_srai_epi32(_mm_unpacklo_epi16(v, v), 16);   /* sign-extended */
        __m128i hi = _mm_srai_epi32(_mm_unpackhi_epi16(v, v), 16);
        _mm_storeu_si128((__m128i *)(h + j),
                         _mm_packs_epi32(bg_q_act4_sse2(lo, _mm_loadu_ps(scale + j)),
                                         bg_q_act4_sse2(hi, _mm_loadu_ps(scale + j + 4))));
    }
}

static inline void bg_q_clip_sse2(const int16_t *acc, int16_t *h, int hpad, int16_t top)
{
    const __m128i z = _mm_setzero_si128(), t = _mm_set1_epi16(top);
    int j;
    for (j = 0; j < hpad; j += 8)
        _mm_storeu_si128((__m128i *)(h + j), _mm_min_epi16(_mm_max_epi16(
            _mm_loadu_si128((const __m128i *)(acc + j)), z), t));
}

static inline int32_t bg_q_hsum_sse2(__m128i s)
{
    int32_t v[4];
    _mm_storeu_si128((__m128i *)v, s);
    return (v[0] + v[1]) + (v[2] + v[3]);
}

static inline void bg_q_dense_sse2(const int16_t *w, int rows, int hpad, const int16_t *h,
                                   int32_t *u)
{
    int r, j;
    for (r = 0; r < rows; r++) {
        __m128i s = _mm_setzero_si128();
        const int16_t *row = w + (size_t)r * hpad;
        for (j = 0; j < hpad; j += 8)
            s = _mm_add_epi32(s, _mm_madd_epi16(_mm_loadu_si128((const __m128i *)(row + j)),
                                                _mm_loadu_si128((const __m128i *)(h + j))));
        u[r] = bg_q_hsum_sse2(s);
    }
}
#endif

/* ------------------------------------------------------------------ */
/* AVX2 and AVX-512 VNNI (chosen at run time)                          */

#ifdef BG_NN_X86_DISPATCH
/* Passes of up to 256 sums (16 registers hold them; the columns stream). */
__attribute__((target("avx2"))) static void bg_q_cols_avx2(
    int16_t *acc, const int16_t *a0, const int16_t *w1, int hpad, const int16_t *idx,
    const float *val, int n)
{
    int i, jb, k, nv;
    for (jb = 0; jb < hpad; jb += 16 * nv) {
        __m256i a[12];
        nv = (hpad - jb) / 16;                   /* 12 vectors a pass, or 8 + 8 for 16 */
        if (nv > 12) nv = nv >= 24 ? 12 : 8;
        for (k = 0; k < nv; k++) a[k] = _mm256_loadu_si256((const __m256i *)(a0 + jb + 16 * k));
        for (i = 0; i < n; i++) {
            const int16_t *col = w1 + (size_t)idx[i] * hpad + jb;
            if (val[i] > 0.0f)
                for (k = 0; k < nv; k++)
                    a[k] = _mm256_add_epi16(a[k], _mm256_loadu_si256((const __m256i *)(col + 16 * k)));
            else
                for (k = 0; k < nv; k++)
                    a[k] = _mm256_sub_epi16(a[k], _mm256_loadu_si256((const __m256i *)(col + 16 * k)));
        }
        for (k = 0; k < nv; k++) _mm256_storeu_si256((__m256i *)(acc + jb + 16 * k), a[k]);
    }
}

__attribute__((target("avx2"))) static inline __m256i bg_q_act8_avx2(__m256i a, __m256 scale)
{
    const __m256 half = _mm256_set1_ps(0.5f), top = _mm256_set1_ps((float)(1 << BG_Q_HBITS));
    __m256 s = bg_nn_soft8(_mm256_mul_ps(_mm256_cvtepi32_ps(a), scale));
    return _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(s, top), half));
}

__attribute__((target("avx2"))) static void bg_q_act_avx2(const int16_t *acc, int16_t *h, int hpad,
                                                           const float *scale)
{
    int j;
    for (j = 0; j < hpad; j += 16) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(acc + j));
        __m256i lo = bg_q_act8_avx2(_mm256_cvtepi16_epi32(_mm256_castsi256_si128(v)),
                                    _mm256_loadu_ps(scale + j));
        __m256i hi = bg_q_act8_avx2(_mm256_cvtepi16_epi32(_mm256_extracti128_si256(v, 1)),
                                    _mm256_loadu_ps(scale + j + 8));
        /* packs works within 128-bit halves: restore the order of the quarters */
        _mm256_storeu_si256((__m256i *)(h + j),
                            _mm256_permute4x64_epi64(_mm256_packs_epi32(lo, hi), 0xD8));
    }
}

__attribute__((target("avx2"))) static void bg_q_clip_avx2(const int16_t *acc, int16_t *h,
                                                            int hpad, int16_t top)
{
    const __m256i z = _mm256_setzero_si256(), t = _mm256_set1_epi16(top);
    int j;
    for (j = 0; j < hpad; j += 16)
        _mm256_storeu_si256((__m256i *)(h + j), _mm256_min_epi16(_mm256_max_epi16(
            _mm256_loadu_si256((const __m256i *)(acc + j)), z), t));
}

__attribute__((target("avx2"))) static inline int32_t bg_q_hsum_avx2(__m256i s)
{
    __m128i q = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
    return bg_q_hsum_sse2(q);
}

/* The eight sums of s[0..7] in one vector, in order: pairwise horizontal adds,
 * then the two 128-bit halves added. */
__attribute__((target("avx2"))) static inline __m256i bg_q_hsum8_avx2(const __m256i *s)
{
    __m256i a = _mm256_hadd_epi32(s[0], s[1]), b = _mm256_hadd_epi32(s[2], s[3]);
    __m256i c = _mm256_hadd_epi32(s[4], s[5]), d = _mm256_hadd_epi32(s[6], s[7]);
    a = _mm256_hadd_epi32(a, b);     /* lanes: rows 0-3 (low half), 0-3 (high half) */
    c = _mm256_hadd_epi32(c, d);     /* rows 4-7 likewise */
    return _mm256_add_epi32(_mm256_permute2x128_si256(a, c, 0x20),
                            _mm256_permute2x128_si256(a, c, 0x31));
}

/* Eight rows at a time (each load of h serves eight rows, and one vector
 * reduction ends them), then the rows left one by one. */
#define BG_Q_DENSE_X86(NAME, TARGET, MAC)                                                   \
    __attribute__((target(TARGET))) static void NAME(const int16_t *w, int rows, int hpad,  \
                                                      const int16_t *h, int32_t *u)          \
    {                                                                                       \
        int r, j, q;                                                                        \
        for (r = 0; r + 8 <= rows; r += 8) {                                                \
            __m256i s[8];                                                                   \
            const int16_t *wr = w + (size_t)r * hpad;                                       \
            for (q = 0; q < 8; q++) s[q] = _mm256_setzero_si256();                          \
            for (j = 0; j < hpad; j += 16) {                                                \
                __m256i x = _mm256_loadu_si256((const __m256i *)(h + j));                   \
                for (q = 0; q < 8; q++)                                                     \
                    s[q] = MAC(s[q], _mm256_loadu_si256(                                    \
                        (const __m256i *)(wr + (size_t)q * hpad + j)), x);                  \
            }                                                                               \
            _mm256_storeu_si256((__m256i *)(u + r), bg_q_hsum8_avx2(s));                    \
        }                                                                                   \
        for (; r < rows; r++) {                                                             \
            __m256i s0 = _mm256_setzero_si256();                                            \
            for (j = 0; j < hpad; j += 16)                                                  \
                s0 = MAC(s0, _mm256_loadu_si256((const __m256i *)(w + (size_t)r * hpad + j)), \
                         _mm256_loadu_si256((const __m256i *)(h + j)));                     \
            u[r] = bg_q_hsum_avx2(s0);                                                      \
        }                                                                                   \
    }

#define BG_Q_MADD_AVX2(s, a, b) _mm256_add_epi32((s), _mm256_madd_epi16((a), (b)))
#define BG_Q_MADD_VNNI(s, a, b) _mm256_dpwssd_epi32((s), (a), (b))
BG_Q_DENSE_X86(bg_q_dense_avx2, "avx2", BG_Q_MADD_AVX2)
BG_Q_DENSE_X86(bg_q_dense_vnni, "avx2,avx512vl,avx512vnni", BG_Q_MADD_VNNI)
#undef BG_Q_DENSE_X86
#endif

/* ------------------------------------------------------------------ */
/* NEON (every aarch64)                                                */

#if defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>
#define BG_Q_HAVE_NEON 1
static inline void bg_q_cols_neon(int16_t *acc, const int16_t *a0, const int16_t *w1, int hpad,
                                  const int16_t *idx, const float *val, int n)
{
    int i, jb, k;
    for (jb = 0; jb < hpad; jb += 128) {         /* 128 sums in 16 of the 32 registers */
        int16x8_t a[16];
        int nv = (hpad - jb) / 8 < 16 ? (hpad - jb) / 8 : 16;
        for (k = 0; k < nv; k++) a[k] = vld1q_s16(a0 + jb + 8 * k);
        for (i = 0; i < n; i++) {
            const int16_t *col = w1 + (size_t)idx[i] * hpad + jb;
            if (val[i] > 0.0f) for (k = 0; k < nv; k++) a[k] = vaddq_s16(a[k], vld1q_s16(col + 8 * k));
            else for (k = 0; k < nv; k++) a[k] = vsubq_s16(a[k], vld1q_s16(col + 8 * k));
        }
        for (k = 0; k < nv; k++) vst1q_s16(acc + jb + 8 * k, a[k]);
    }
}

static inline int32x4_t bg_q_act4_neon(int32x4_t a, float32x4_t scale)
{
    const float32x4_t half = vdupq_n_f32(0.5f), one = vdupq_n_f32(1.0f);
    const float32x4_t top = vdupq_n_f32((float)(1 << BG_Q_HBITS));
    float32x4_t x = vmulq_f32(vcvtq_f32_s32(a), scale);
    float32x4_t d = vaddq_f32(one, vabsq_f32(x));
    float32x4_t s = vaddq_f32(half, vdivq_f32(vmulq_f32(half, x), d));
    return vcvtq_s32_f32(vaddq_f32(vmulq_f32(s, top), half));   /* truncates, as cvtt */
}

static inline void bg_q_act_neon(const int16_t *acc, int16_t *h, int hpad, const float *scale)
{
    int j;
    for (j = 0; j < hpad; j += 8) {
        int16x8_t v = vld1q_s16(acc + j);
        int32x4_t lo = bg_q_act4_neon(vmovl_s16(vget_low_s16(v)), vld1q_f32(scale + j));
        int32x4_t hi = bg_q_act4_neon(vmovl_s16(vget_high_s16(v)), vld1q_f32(scale + j + 4));
        vst1q_s16(h + j, vcombine_s16(vmovn_s32(lo), vmovn_s32(hi)));
    }
}

static inline void bg_q_clip_neon(const int16_t *acc, int16_t *h, int hpad, int16_t top)
{
    const int16x8_t z = vdupq_n_s16(0), t = vdupq_n_s16(top);
    int j;
    for (j = 0; j < hpad; j += 8) vst1q_s16(h + j, vminq_s16(vmaxq_s16(vld1q_s16(acc + j), z), t));
}

static inline void bg_q_dense_neon(const int16_t *w, int rows, int hpad, const int16_t *h,
                                   int32_t *u)
{
    int r, j;
    for (r = 0; r < rows; r++) {
        int32x4_t s = vdupq_n_s32(0);
        const int16_t *row = w + (size_t)r * hpad;
        for (j = 0; j < hpad; j += 8) {
            int16x8_t a = vld1q_s16(row + j), b = vld1q_s16(h + j);
            s = vmlal_s16(s, vget_low_s16(a), vget_low_s16(b));
            s = vmlal_high_s16(s, a, b);
        }
        u[r] = vaddvq_s32(s);
    }
}
#endif

/* ------------------------------------------------------------------ */
/* Dispatch                                                            */

/* Whether this build and CPU can run target t. */
static inline int bg_q_has(int t)
{
    switch (t) {
    case BG_Q_PLAIN: return 1;
#ifdef BG_SSE2
    case BG_Q_SSE2: return 1;
#endif
#ifdef BG_NN_X86_DISPATCH
    case BG_Q_AVX2: __builtin_cpu_init(); return __builtin_cpu_supports("avx2");
    case BG_Q_VNNI:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("avx512vl")
               && __builtin_cpu_supports("avx512vnni");
#endif
#ifdef BG_Q_HAVE_NEON
    case BG_Q_NEON: return 1;
#endif
    default: return 0;
    }
}

/* Runs target t from now on (for tests and benchmarks, not while other
 * threads evaluate); returns 0 when this build or CPU cannot. */
static inline int bg_q_set_target(int t)
{
    if (!bg_q_has(t)) return 0;
    bg_q_target = t;
    return 1;
}

/* The best target there is, at most `most` (BG_Q_SSE2 keeps the baseline). */
static inline int bg_q_init(int most)
{
    int t;
    for (t = BG_Q_NEON; t > BG_Q_PLAIN; t--)
        if (t <= most && bg_q_has(t)) break;
    bg_q_target = t;
    return t;
}

static inline void bg_q_cols(int16_t *acc, const int16_t *a0, const int16_t *w1, int hpad,
                             const int16_t *idx, const float *val, int n)
{
    switch (bg_q_target) {
#ifdef BG_NN_X86_DISPATCH
    case BG_Q_AVX2: case BG_Q_VNNI: bg_q_cols_avx2(acc, a0, w1, hpad, idx, val, n); return;
#endif
#ifdef BG_SSE2
    case BG_Q_SSE2: bg_q_cols_sse2(acc, a0, w1, hpad, idx, val, n); return;
#endif
#ifdef BG_Q_HAVE_NEON
    case BG_Q_NEON: bg_q_cols_neon(acc, a0, w1, hpad, idx, val, n); return;
#endif
    default: bg_q_cols_plain(acc, a0, w1, hpad, idx, val, n);
    }
}

static inline void bg_q_act(const int16_t *acc, int16_t *h, int hpad, const float *scale)
{
    switch (bg_q_target) {
#ifdef BG_NN_X86_DISPATCH
    case BG_Q_AVX2: case BG_Q_VNNI: bg_q_act_avx2(acc, h, hpad, scale); return;
#endif
#ifdef BG_SSE2
    case BG_Q_SSE2: bg_q_act_sse2(acc, h, hpad, scale); return;
#endif
#ifdef BG_Q_HAVE_NEON
    case BG_Q_NEON: bg_q_act_neon(acc, h, hpad, scale); return;
#endif
    default: bg_q_act_plain(acc, h, hpad, scale);
    }
}

static inline void bg_q_clip(const int16_t *acc, int16_t *h, int hpad, int16_t top)
{
    switch (bg_q_target) {
#ifdef BG_NN_X86_DISPATCH
    case BG_Q_AVX2: case BG_Q_VNNI: bg_q_clip_avx2(acc, h, hpad, top); return;
#endif
#ifdef BG_SSE2
    case BG_Q_SSE2: bg_q_clip_sse2(acc, h, hpad, top); return;
#endif
#ifdef BG_Q_HAVE_NEON
    case BG_Q_NEON: bg_q_clip_neon(acc, h, hpad, top); return;
#endif
    default: bg_q_clip_plain(acc, h, hpad, top);
    }
}

static inline void bg_q_dense(const int16_t *w, int rows, int hpad, const int16_t *h, int32_t *u)
{
    switch (bg_q_target) {
#ifdef BG_NN_X86_DISPATCH
    case BG_Q_VNNI: bg_q_dense_vnni(w, rows, hpad, h, u); return;
    case BG_Q_AVX2: bg_q_dense_avx2(w, rows, hpad, h, u); return;
#endif
#ifdef BG_SSE2
    case BG_Q_SSE2: bg_q_dense_sse2(w, rows, hpad, h, u); return;
#endif
#ifdef BG_Q_HAVE_NEON
    case BG_Q_NEON: bg_q_dense_neon(w, rows, hpad, h, u); return;
#endif
    default: bg_q_dense_plain(w, rows, hpad, h, u);
    }
}

/* ------------------------------------------------------------------ */
/* Whole evaluations                                                   */

/* The five output sums t (before the logistic) of dense sums u: the
 * float steps, the same on every target.  The plain loop is the reference;
 * with a middle layer the SSE2 and AVX2 versions below take eight units a
 * step, the same IEEE operations lane by lane, and fold as bg_nn_dot8. */
static inline void bg_q_tail_plain(const bg_qnet *q, const int32_t *u, float *t)
{
    int i, k;
    if (q->mid) {
        float g[BG_NN_MAXMID];
        for (i = 0; i < q->mid; i++) {
            float x = (float)u[i] * q->s2 + q->bd[i];
            g[i] = 0.5f + 0.5f * x / (1.0f + fabsf(x));
        }
        for (k = 0; k < BG_NN_NOUT; k++)
            t[k] = bg_nn_dot8(q->w2 + (size_t)k * q->mid, g, q->mid) + q->b2[k];
    } else {
        for (k = 0; k < BG_NN_NOUT; k++) t[k] = (float)u[k] * q->s2 + q->bd[k];
    }
}

#ifdef BG_SSE2
static inline void bg_q_tail_sse2(const bg_qnet *q, const int32_t *u, float *t)
{
    const __m128 s2 = _mm_set1_ps(q->s2);
    __m128 lo[BG_NN_NOUT], hi[BG_NN_NOUT];      /* bg_nn_dot8's partial sums 0-3 and 4-7 */
    int i, k, h;
    for (k = 0; k < BG_NN_NOUT; k++) lo[k] = hi[k] = _mm_setzero_ps();
    for (i = 0; i < q->mid; i += 8) {           /* mid is a multiple of 8 */
        for (h = 0; h < 2; h++) {
            __m128 g = bg_nn_soft4(_mm_add_ps(_mm_mul_ps(_mm_cvtepi32_ps(
                           _mm_loadu_si128((const __m128i *)(u + i + 4 * h))), s2),
                           _mm_loadu_ps(q->bd + i + 4 * h)));
            for (k = 0; k < BG_NN_NOUT; k++) {
                __m128 p = _mm_mul_ps(_mm_loadu_ps(q->w2 + (size_t)k * q->mid + i + 4 * h), g);
                if (h) hi[k] = _mm_add_ps(hi[k], p);
                else lo[k] = _mm_add_ps(lo[k], p);
            }
        }
    }
    for (k = 0; k < BG_NN_NOUT; k++) t[k] = bg_nn_fold4(_mm_add_ps(lo[k], hi[k])) + q->b2[k];
}
#endif

#ifdef BG_NN_X86_DISPATCH
__attribute__((target("avx2"))) static void bg_q_tail_avx2(const bg_qnet *q, const int32_t *u,
                                                            float *t)
{
    const __m256 s2 = _mm256_set1_ps(q->s2);
    __m256 s[BG_NN_NOUT];
    int i, k;
    for (k = 0; k < BG_NN_NOUT; k++) s[k] = _mm256_setzero_ps();
    for (i = 0; i < q->mid; i += 8) {
        __m256 g = bg_nn_soft8(_mm256_add_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(
                       _mm256_loadu_si256((const __m256i *)(u + i))), s2),
                       _mm256_loadu_ps(q->bd + i)));
        for (k = 0; k < BG_NN_NOUT; k++)
            s[k] = _mm256_add_ps(s[k], _mm256_mul_ps(
                _mm256_loadu_ps(q->w2 + (size_t)k * q->mid + i), g));
    }
    for (k = 0; k < BG_NN_NOUT; k++) t[k] = bg_nn_fold8(s[k]) + q->b2[k];
}
#endif

static inline void bg_q_tail(const bg_qnet *q, const int32_t *u, float *t)
{
    if (q->mid) {
        switch (bg_q_target) {
#ifdef BG_NN_X86_DISPATCH
        case BG_Q_AVX2: case BG_Q_VNNI: bg_q_tail_avx2(q, u, t); return;
#endif
#ifdef BG_SSE2
        case BG_Q_SSE2: bg_q_tail_sse2(q, u, t); return;
#endif
        default: break;
        }
    }
    bg_q_tail_plain(q, u, t);
}

/* The first-layer sums of a0 with the columns idx x val (val +1 or -1). */
static inline void bg_q_accumulate(const bg_qnet *q, const int16_t *a0, const int16_t *idx,
                                   const float *val, int n, int16_t *acc)
{
    bg_q_cols(acc, a0, q->w1, q->hpad, idx, val, n);
}

/* The output sums t of the net whose first-layer sums are a0 plus the
 * columns idx x val. */
static inline void bg_q_sums(const bg_qnet *q, const int16_t *a0, const int16_t *idx,
                             const float *val, int n, float *t)
{
    int16_t acc[BG_NN_MAXH], h[BG_NN_MAXH];
    int32_t u[BG_NN_MAXMID];
    bg_q_cols(acc, a0, q->w1, q->hpad, idx, val, n);
    if (q->crelu) bg_q_clip(acc, h, q->hpad, q->top);
    else bg_q_act(acc, h, q->hpad, q->s1);
    bg_q_dense(q->wd, q->drows, q->hpad, h, u);
    bg_q_tail(q, u, t);
}

/* The five raw probabilities (as bg_nn_outputs_from). */
static inline void bg_q_outputs(const bg_qnet *q, const int16_t *a0, const int16_t *idx,
                                const float *val, int n, float *out)
{
    float t[BG_NN_NOUT];
    int k;
    bg_q_sums(q, a0, idx, val, n, t);
    for (k = 0; k < BG_NN_NOUT; k++) out[k] = bg_nn_logistic(t[k]);
}

static inline void bg_q_forward(const bg_qnet *q, const int16_t *idx, const float *val, int n,
                                float *out)
{
    bg_q_outputs(q, q->b1, idx, val, n, out);
}

#endif /* BGCORE_NN_QUANT_H */
