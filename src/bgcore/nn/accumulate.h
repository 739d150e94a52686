/*
 * nn/accumulate.h -- part of the neural evaluator (included by nn.h, never alone).
 * The first layer: sums of weight columns over the nonzero inputs, with its SIMD kernels (baseline SSE2, AVX2 chosen at run time) and their dispatch.
 */
#ifndef BGCORE_NN_ACCUMULATE_H
#define BGCORE_NN_ACCUMULATE_H

/* ------------------------------------------------------------------ */
/* Forward pass                                                        */

/* acc += sum of val[i] x column idx[i]: the first layer's whole cost.  Each
 * acc[j] adds the same products in the same order whatever the vector
 * width, and no fused multiply-add is used, so the AVX2 version (chosen at
 * run time, bg_nn_init_cpu) gives results identical to the baseline one.
 * (Skipping the multiply for values of 1, exact in IEEE arithmetic, saves
 * instructions but costs time here: the branch on each column's value
 * mispredicts.) */
/* The portable loop: the reference for the others. */
static inline void bg_nn_addcols_plain(float *acc, const float *w1, int hpad, const int16_t *idx,
                                       const float *val, int n)
{
    int i, j;
    for (i = 0; i < n; i++) {
        const float *col = w1 + (size_t)idx[i] * hpad;
        float v = val[i];
        for (j = 0; j < hpad; j++) acc[j] += v * col[j];
    }
}

#ifdef BG_SSE2
/* SSE2: 32 sums held in eight registers while every column is added. */
static inline void bg_nn_addcols_base(float *acc, const float *w1, int hpad, const int16_t *idx,
                                      const float *val, int n)
{
    int i, jb = 0, k;
    for (; jb + 32 <= hpad; jb += 32) {
        __m128 a[8];
        for (k = 0; k < 8; k++) a[k] = _mm_loadu_ps(acc + jb + 4 * k);
        for (i = 0; i < n; i++) {
            const float *col = w1 + (size_t)idx[i] * hpad + jb;
            __m128 v = _mm_set1_ps(val[i]);
            for (k = 0; k < 8; k++) a[k] = _mm_add_ps(a[k], _mm_mul_ps(v, _mm_loadu_ps(col + 4 * k)));
        }
        for (k = 0; k < 8; k++) _mm_storeu_ps(acc + jb + 4 * k, a[k]);
    }
    for (; jb < hpad; jb += 8) {
        __m128 a0 = _mm_loadu_ps(acc + jb), a1 = _mm_loadu_ps(acc + jb + 4);
        for (i = 0; i < n; i++) {
            const float *col = w1 + (size_t)idx[i] * hpad + jb;
            __m128 v = _mm_set1_ps(val[i]);
            a0 = _mm_add_ps(a0, _mm_mul_ps(v, _mm_loadu_ps(col)));
            a1 = _mm_add_ps(a1, _mm_mul_ps(v, _mm_loadu_ps(col + 4)));
        }
        _mm_storeu_ps(acc + jb, a0);
        _mm_storeu_ps(acc + jb + 4, a1);
    }
}
#else
#define bg_nn_addcols_base bg_nn_addcols_plain
#endif

#if defined(__GNUC__) && defined(__x86_64__) && defined(BG_SSE2)
#include <immintrin.h>
#define BG_NN_X86_DISPATCH 1
/* The NV x 8 sums a[] from jb: those of `from`, plus every column, added in
 * order (the one order of adds both AVX2 kernels below share). */
#define BG_NN_AVX2_COLUMNS(NV, from) do {                                              \
        for (k = 0; k < NV; k++) a[k] = _mm256_loadu_ps((from) + jb + 8 * k);           \
        for (i = 0; i < n; i++) {                                                       \
            const float *col = w1 + (size_t)idx[i] * hpad + jb;                         \
            __m256 v = _mm256_set1_ps(val[i]);                                          \
            for (k = 0; k < NV; k++)                                                    \
                a[k] = _mm256_add_ps(a[k], _mm256_mul_ps(v, _mm256_loadu_ps(col + 8 * k))); \
        }                                                                               \
    } while (0)

/* One pass of the AVX2 kernel: NV x 8 sums from jb, held in registers
 * while every column is added. */
#define BG_NN_AVX2_PASS(NV) do {                                                        \
        __m256 a[NV];                                                                   \
        BG_NN_AVX2_COLUMNS(NV, acc);                                                    \
        for (k = 0; k < NV; k++) _mm256_storeu_ps(acc + jb + 8 * k, a[k]);             \
        jb += 8 * NV;                                                                   \
    } while (0)

/* AVX2 (no FMA: a fused multiply-add would round differently).  Passes of
 * 96 sums (12 of the 16 registers) where they fit, else 64: 192 hidden
 * units take two passes over the columns, not three; a pass's order of
 * adds is the same whatever its width. */
__attribute__((target("avx2"))) static void bg_nn_addcols_avx2(
    float *acc, const float *w1, int hpad, const int16_t *idx, const float *val, int n)
{
    int i, jb = 0, k;
    while (hpad - jb >= 96 && hpad - jb != 128) BG_NN_AVX2_PASS(12);
    while (hpad - jb >= 64) BG_NN_AVX2_PASS(8);
    while (jb < hpad) BG_NN_AVX2_PASS(1);
}
#undef BG_NN_AVX2_PASS
static int bg_nn_avx2 = 0;
#endif

/* Chooses the AVX2 kernels when the CPU has them; call once before any
 * evaluation (the module does at import).  Returns 1 when AVX2 is used. */
static inline int bg_nn_init_cpu(int allow)
{
#ifdef BG_NN_X86_DISPATCH
    __builtin_cpu_init();
    bg_nn_avx2 = allow && __builtin_cpu_supports("avx2");
    return bg_nn_avx2;
#else
    (void)allow;
    return 0;
#endif
}

static inline void bg_nn_addcols(float *acc, const float *w1, int hpad, const int16_t *idx,
                                 const float *val, int n)
{
#ifdef BG_NN_X86_DISPATCH
    if (bg_nn_avx2) { bg_nn_addcols_avx2(acc, w1, hpad, idx, val, n); return; }
#endif
    bg_nn_addcols_base(acc, w1, hpad, idx, val, n);
}

/* acc = b1 + sum of value x column over the encoded inputs. */
static inline void bg_nn_accumulate(const bg_mlp *m, const int16_t *idx, const float *val,
                                    int n, float *acc)
{
    memcpy(acc, m->b1, sizeof(float) * (size_t)m->hpad);
    bg_nn_addcols(acc, m->w1, m->hpad, idx, val, n);
}

#endif /* BGCORE_NN_ACCUMULATE_H */
