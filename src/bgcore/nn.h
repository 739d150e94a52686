/*
 * nn.h -- the neural evaluator: input encoding and multilayer perceptrons in
 * float32, plain C the compiler vectorises.  No Python, no globals: weights
 * are read-only during evaluation, so any number of threads may evaluate
 * with the same nets (docs/nn.md describes the encoding).
 *
 * A net maps a board seen by the player on roll, BEFORE rolling, to five
 * probabilities in gnubg's cumulative convention: win, win gammon (includes
 * backgammons), win backgammon, lose gammon, lose backgammon.  Two nets:
 * contact and race (no contact: bg_nn_is_race).
 *
 * Layout.  First-layer weights are stored input-major (w1[i * hpad + j]):
 * the H weights of one input are contiguous, so the first layer is a sum of
 * the columns of the few nonzero inputs (about 40 of 204), each a vector
 * add.  hpad is the hidden size rounded up to 8 (the padding is zero).
 *
 * Move choice (bg_nn_choose) is incremental: the candidates of a roll differ
 * from the position before it in a few points, so the first-layer sums of
 * that position are computed once and each candidate adds the columns of the
 * inputs it changes (as chess NNUE does).  The sums are float, so they can
 * differ from a full evaluation in the last bits (about 1e-7).
 *
 * Hidden units use the "soft sigmoid" s(x) = 1/2 + x / (2 (1 + |x|)): it
 * vectorises (no exp), and its derivative, (1 - |2s - 1|)^2 / 2, comes from
 * s alone.  Outputs use the logistic function.
 */
#ifndef BGCORE_NN_H
#define BGCORE_NN_H

#include <math.h>
#include "movegen.h"

#define BG_NN_CONTACT 0
#define BG_NN_RACE 1
#define BG_NN_CRASHED 2        /* only in files with three nets */
#define BG_NN_MAXNETS 3
#define BG_NN_SIDE 98          /* inputs per side: 24 points x 4, bar, off */
#define BG_NN_RAW (2 * BG_NN_SIDE)
#define BG_NN_NFEAT 8          /* feature inputs of encoding 1 */
#define BG_NN_NFEAT2 28        /* ... of encoding 2: those 8, then 10 a side (nn.h, docs/nn.md) */
#define BG_NN_NFEAT3 42        /* ... of encoding 3: those 28, then 7 a side (nnfeat3.h) */
#define BG_NN_NFEAT4 52        /* ... of encoding 4: those 42, then 5 race inputs a side (nnfeat4.h) */
#define BG_NN_MAXFEAT BG_NN_NFEAT4
#define BG_NN_NIN (BG_NN_RAW + BG_NN_NFEAT)
#define BG_NN_NIN2 (BG_NN_RAW + BG_NN_NFEAT2)
#define BG_NN_NIN3 (BG_NN_RAW + BG_NN_NFEAT3)
#define BG_NN_NIN4 (BG_NN_RAW + BG_NN_NFEAT4)
#define BG_NN_NOUT 5
#define BG_NN_MAXNZ 192        /* nonzero inputs: 2 x (15 x 4 + 2) + 52 = 176 at most, + slack */
#define BG_NN_MAXH 2048       /* hidden units of a net at most (an ensemble of two 1,024s) */
#define BG_NN_MAXMID 128       /* units of a second hidden layer at most */
#define BG_NN_HBUF (BG_NN_MAXH + BG_NN_MAXMID)   /* activations of both hidden layers */
#define BG_NN_NPTS_DELTA (26 * 8 + 2 + BG_NN_MAXFEAT + 4)   /* inputs a candidate may change, + slack */
#define BG_NN_ENCODING 1       /* the encoding of the bundled nets (docs/nn.md) */
#define BG_NN_ENCODING_MAX 4   /* encodings this core runs: 1 to 4 */
#define BG_NN_CRASHED_MAX 6    /* a side with this many checkers in play or fewer is crashed */

/* Feature inputs (after the 196 raw ones). */
#define BG_F_PIPS 0            /* pips / 100, on roll then opponent */
#define BG_F_SHOTS 2           /* rolls of 36 that hit a blot / 36 */
#define BG_F_PRIME 4           /* longest run of made points / 6 */
#define BG_F_ESCAPE 6          /* rolls of 36 that take the rearmost checker past the
                                  blockade in front of it / 36 */

typedef struct {
    int nin, nhid, hpad;
    int enc;           /* input encoding: 1 to 4 (nin = BG_NN_NIN, BG_NN_NIN2, BG_NN_NIN3 or BG_NN_NIN4) */
    const float *w1;   /* nin x hpad, input-major */
    const float *b1;   /* hpad */
    const float *w2;   /* 5 x opad, output-major: the outputs' weights on the last
                          hidden layer (opad: hpad, or mpad with a middle layer) */
    const float *b2;   /* 5 */
    int nmid, mpad;    /* a second ("middle") hidden layer of nmid units padded to
                          mpad (0, 0: none); it costs no first-layer work, so the
                          incremental move choice keeps its speed */
    const float *wm;   /* mpad x hpad, unit-major: the middle units' weights on the first layer */
    const float *bm;   /* mpad */
} bg_mlp;

typedef struct {
    bg_mlp net[BG_NN_MAXNETS];  /* BG_NN_CONTACT, BG_NN_RACE, BG_NN_CRASHED */
    int nnets;                  /* 2 (crashed positions go to the contact net) or 3 */
} bg_nn;

/* ------------------------------------------------------------------ */
/* Encoding                                                            */

/* No contact: the on-roll side's rearmost checker (25 = bar) has passed
 * the opponent's (0 = bar); a side without checkers counts as a race. */
static inline int bg_nn_is_race(const int8_t *b)
{
    int hi = 0, lo = 25, p;
    for (p = BG_BAR; p >= 1; p--) if (b[p] > 0) { hi = p; break; }
    for (p = 0; p <= 24; p++) if (b[p] < 0) { lo = p; break; }
    if (hi == 0 || lo == 25) return 1;
    return hi < lo;
}

/* The raw inputs of board cell i holding v != 0: a point's checkers as
 * Tesauro's four units (n >= 1, n >= 2, n >= 3, (n - 3) / 2), each side in
 * its own numbering; a bar as n / 2.  Writes up to 4 entries (always 4
 * slots: callers leave room) and returns how many count. */
static inline int bg_nn_cell_signed(int i, int v, float one, int16_t *idx, float *val)
{
    int base, n = v > 0 ? v : -v;
    float half = 0.5f * one;          /* +-0.5: the products are exact negations */
    if (i == BG_BAR || i == 0) {
        idx[0] = (int16_t)(i == 0 ? BG_NN_SIDE + 96 : 96);
        val[0] = half * (float)n;
        return 1;
    }
    base = v > 0 ? (i - 1) * 4 : BG_NN_SIDE + (24 - i) * 4;   /* opponent's point 25 - i */
    idx[0] = (int16_t)base; idx[1] = (int16_t)(base + 1);
    idx[2] = (int16_t)(base + 2); idx[3] = (int16_t)(base + 3);
    val[0] = val[1] = val[2] = one;
    val[3] = half * (float)(n - 3);
    return n < 4 ? n : 4;
}

static inline int bg_nn_cell(int i, int v, int16_t *idx, float *val)
{
    return bg_nn_cell_signed(i, v, 1.0f, idx, val);
}

/* Rolls (of 36) in which the side whose checkers are `own` (bits 1..25)
 * can hit a blot in `blot` (bits 1..24), landing only on points not in
 * `closed`.  Entering from the bar first is not required: a cheap count. */
static inline int bg_nn_shots(uint32_t own, uint32_t blot, uint32_t closed)
{
    int d1, d2, k, count = 0;
    uint32_t open = ~closed;
    if (!blot) return 0;
    for (d1 = 1; d1 <= 6; d1++) {
        uint32_t a = (own >> d1) & open;
        for (d2 = d1; d2 <= 6; d2++) {
            uint32_t hit;
            if (d1 == d2) {
                uint32_t r = own;
                hit = 0;
                for (k = 0; k < 4; k++) { r = (r >> d1) & open; hit |= r; }
            } else {
                uint32_t c = (own >> d2) & open;
                hit = a | c | (a >> d2) | (c >> d1);
            }
            if (hit & blot) count += d1 == d2 ? 1 : 2;
        }
    }
    return count;
}

/* The points (bit mask) a checker at point p can reach with roll d1-d2,
 * landing only on points not in `closed` (all steps of doubles; both
 * orders of a non-double; one die alone too). */
static inline uint32_t bg_nn_reach(int p, int d1, int d2, uint32_t closed)
{
    uint32_t open = ~closed, s = 1u << p, r, a, c;
    int k;
    if (d1 == d2) {
        r = s; a = 0;
        for (k = 0; k < 4; k++) { r = (r >> d1) & open; a |= r; }
        return a;
    }
    a = (s >> d1) & open;
    c = (s >> d2) & open;
    return a | c | ((a >> d2) & open) | ((c >> d1) & open);
}

/* Rolls (of 36) with which a checker at point p (25 = bar) gets past the
 * lowest point the other side has made among the 12 in front of it; 36
 * when there is none.  `closed`: the other side's made points, our numbering. */
static inline int bg_nn_escapes(int p, uint32_t closed)
{
    int lo = p - 12 < 1 ? 1 : p - 12, low, d1, d2, count = 0;
    uint32_t window = closed & (((1u << p) - 1) & ~((1u << lo) - 1)), past;
    if (!window) return 36;
    low = bg_highbit(window & (~window + 1u));   /* the lowest bit */
    past = ((1u << low) - 1) & ~1u;    /* points 1 .. low - 1 */
    for (d1 = 1; d1 <= 6; d1++)
        for (d2 = d1; d2 <= 6; d2++)
            if (bg_nn_reach(p, d1, d2, closed) & past) count += d1 == d2 ? 1 : 2;
    return count;
}

static inline int bg_nn_run(uint32_t made)
{
    int len = 0;
    while (made) { made &= made >> 1; len++; }
    return len;
}

/* Everything the encoding needs from a board, in one pass.  Masks of a
 * side's checkers are in the numbering of the side that would move over
 * them; a run's length is the same in both. */
typedef struct {
    uint32_t own, opp;             /* ours (bits 1..25, 25 = bar) / theirs, each its own numbering */
    uint32_t own_made, opp_made;   /* made points, our numbering */
    uint32_t opp_blot;             /* their blots, our numbering */
    uint32_t own_blot_t, own_made_t; /* ours in their numbering */
    int own_count, opp_count;      /* checkers on the board and bar */
    int pips_own, pips_opp;
} bg_nn_scan_t;

/* Bits 0..25 reversed (bit p -> bit 25 - p): a mask in the other side's numbering. */
static inline uint32_t bg_nn_rev26(uint32_t x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
    x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);
    x = (x >> 16) | (x << 16);
    return x >> 6;
}

/* The portable scan, and the reference of the SSE2 one. */
static inline void bg_nn_scan_plain(const int8_t *b, bg_nn_scan_t *s)
{
    int p;
    memset(s, 0, sizeof *s);
    for (p = 1; p <= 24; p++) {
        int v = b[p];
        if (v > 0) {
            s->own |= 1u << p;
            s->own_count += v;
            s->pips_own += p * v;
            if (v >= 2) { s->own_made |= 1u << p; s->own_made_t |= 1u << (25 - p); }
            else s->own_blot_t |= 1u << (25 - p);
        } else if (v < 0) {
            s->opp |= 1u << (25 - p);
            s->opp_count -= v;
            s->pips_opp -= (25 - p) * v;
            if (v <= -2) s->opp_made |= 1u << p; else s->opp_blot |= 1u << p;
        }
    }
    if (b[BG_BAR] > 0) { s->own |= 1u << 25; s->own_count += b[BG_BAR]; s->pips_own += 25 * b[BG_BAR]; }
    if (b[0] < 0) { s->opp |= 1u << 25; s->opp_count -= b[0]; s->pips_opp -= 25 * b[0]; }
}

static inline void bg_nn_scan(const int8_t *b, bg_nn_scan_t *s)
{
#ifdef BG_SSE2
    int8_t b32[32];
    const __m128i z = _mm_setzero_si128(), one = _mm_set1_epi8(1), m1 = _mm_set1_epi8(-1);
    __m128i lo, hi, gl, gh, nl, nh, pl, ph, ql, qh, t;
    uint32_t gt0, ge2, eq1, lt0, lem2, eqm1;
    bg_pad(b, b32);
    lo = _mm_loadu_si128((const __m128i *)b32);
    hi = _mm_loadu_si128((const __m128i *)(b32 + 16));
#define BG_MM(op, x, y) ((uint32_t)_mm_movemask_epi8(op(lo, x)) | ((uint32_t)_mm_movemask_epi8(op(hi, y)) << 16))
    gt0 = BG_MM(_mm_cmpgt_epi8, z, z);
    ge2 = BG_MM(_mm_cmpgt_epi8, one, one);
    eq1 = BG_MM(_mm_cmpeq_epi8, one, one);
    lt0 = BG_MM(_mm_cmplt_epi8, z, z);
    lem2 = BG_MM(_mm_cmplt_epi8, m1, m1);
    eqm1 = BG_MM(_mm_cmpeq_epi8, m1, m1);
#undef BG_MM
    s->own = gt0 & 0x3FFFFFEu;
    s->own_made = ge2 & 0x1FFFFFEu;
    s->own_made_t = bg_nn_rev26(s->own_made);
    s->own_blot_t = bg_nn_rev26(eq1 & 0x1FFFFFEu);
    s->opp = bg_nn_rev26(lt0 & 0x1FFFFFFu);
    s->opp_made = lem2 & 0x1FFFFFEu;
    s->opp_blot = eqm1 & 0x1FFFFFEu;
    gl = _mm_cmpgt_epi8(lo, z); gh = _mm_cmpgt_epi8(hi, z);
    nl = _mm_cmpgt_epi8(z, lo); nh = _mm_cmpgt_epi8(z, hi);
    pl = _mm_and_si128(lo, gl); ph = _mm_and_si128(hi, gh);                     /* own counts */
    ql = _mm_and_si128(_mm_sub_epi8(z, lo), nl); qh = _mm_and_si128(_mm_sub_epi8(z, hi), nh);
    t = _mm_add_epi64(_mm_sad_epu8(pl, z), _mm_sad_epu8(ph, z));
    s->own_count = _mm_cvtsi128_si32(t) + _mm_cvtsi128_si32(_mm_unpackhi_epi64(t, t));
    t = _mm_add_epi64(_mm_sad_epu8(ql, z), _mm_sad_epu8(qh, z));
    s->opp_count = _mm_cvtsi128_si32(t) + _mm_cvtsi128_si32(_mm_unpackhi_epi64(t, t));
    {
        /* pips: sum of weight x count over 32 cells, in 16-bit lanes */
        const __m128i w0 = _mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7);
        const __m128i w1 = _mm_setr_epi16(8, 9, 10, 11, 12, 13, 14, 15);
        const __m128i w2 = _mm_setr_epi16(16, 17, 18, 19, 20, 21, 22, 23);
        const __m128i w3 = _mm_setr_epi16(24, 25, 0, 0, 0, 0, 0, 0);
        const __m128i v0 = _mm_setr_epi16(25, 24, 23, 22, 21, 20, 19, 18);
        const __m128i v1 = _mm_setr_epi16(17, 16, 15, 14, 13, 12, 11, 10);
        const __m128i v2 = _mm_setr_epi16(9, 8, 7, 6, 5, 4, 3, 2);
        const __m128i v3 = _mm_setr_epi16(1, 0, 0, 0, 0, 0, 0, 0);
        __m128i a = _mm_add_epi32(
            _mm_add_epi32(_mm_madd_epi16(_mm_unpacklo_epi8(pl, z), w0), _mm_madd_epi16(_mm_unpackhi_epi8(pl, z), w1)),
            _mm_add_epi32(_mm_madd_epi16(_mm_unpacklo_epi8(ph, z), w2), _mm_madd_epi16(_mm_unpackhi_epi8(ph, z), w3)));
        __m128i c = _mm_add_epi32(
            _mm_add_epi32(_mm_madd_epi16(_mm_unpacklo_epi8(ql, z), v0), _mm_madd_epi16(_mm_unpackhi_epi8(ql, z), v1)),
            _mm_add_epi32(_mm_madd_epi16(_mm_unpacklo_epi8(qh, z), v2), _mm_madd_epi16(_mm_unpackhi_epi8(qh, z), v3)));
        a = _mm_add_epi32(a, _mm_shuffle_epi32(a, 0x4E));
        a = _mm_add_epi32(a, _mm_shuffle_epi32(a, 0xB1));
        c = _mm_add_epi32(c, _mm_shuffle_epi32(c, 0x4E));
        c = _mm_add_epi32(c, _mm_shuffle_epi32(c, 0xB1));
        s->pips_own = _mm_cvtsi128_si32(a);
        s->pips_opp = _mm_cvtsi128_si32(c);
    }
#else
    bg_nn_scan_plain(b, s);
#endif
}

/* No contact (as bg_nn_is_race) from a scan: our rearmost point (bit
 * 25 = bar) is below their rearmost one, 25 - its point in their numbering. */
static inline int bg_nn_scan_race(const bg_nn_scan_t *s)
{
    if (!s->own || !s->opp) return 1;
    return bg_highbit(s->own) + bg_highbit(s->opp) < 25;
}

/* Every checker of both sides in its home board (bits 1..6): the only
 * positions the exact hook (the bear-off database) is asked about. */
static inline int bg_nn_scan_home(const bg_nn_scan_t *s)
{
    return !(s->own & ~0x7Eu) && !(s->opp & ~0x7Eu) && s->own && s->opp;
}

/* The lowest point the other side has made among the 12 in front of a
 * checker at p, as the mask of the points past it (1 .. low - 1); 0 with
 * *none = 1 when there is no such point (the checker escapes with any roll). */
static inline uint32_t bg_nn_past(int p, uint32_t closed, int *none)
{
    int lo = p - 12 < 1 ? 1 : p - 12, low;
    uint32_t window = closed & (((1u << p) - 1) & ~((1u << lo) - 1));
    *none = !window;
    if (!window) return 0;
    low = bg_highbit(window & (~window + 1u));
    return ((1u << low) - 1) & ~1u;
}

/* Shots and escapes of both sides (bg_nn_shots, bg_nn_escapes) in one pass
 * over the 21 rolls: four 32-bit lanes (our checkers, our rearmost, theirs,
 * their rearmost) shift together, the same integer counts. */
static inline void bg_nn_shots_escapes(const bg_nn_scan_t *s, int *out)
{
#ifdef BG_SSE2
    int none_us = 1, none_them = 1, d1, d2, k;
    uint32_t rear_us = s->own ? 1u << bg_highbit(s->own) : 0;
    uint32_t rear_them = s->opp ? 1u << bg_highbit(s->opp) : 0;
    uint32_t past_us = s->own ? bg_nn_past(bg_highbit(s->own), s->opp_made, &none_us) : 0;
    uint32_t past_them = s->opp ? bg_nn_past(bg_highbit(s->opp), s->own_made_t, &none_them) : 0;
    int32_t c[4];
    const __m128i M = _mm_setr_epi32((int)s->own, (int)rear_us, (int)s->opp, (int)rear_them);
    const __m128i O = _mm_setr_epi32((int)~s->opp_made, (int)~s->opp_made,
                                     (int)~s->own_made_t, (int)~s->own_made_t);
    const __m128i T = _mm_setr_epi32((int)s->opp_blot, (int)past_us, (int)s->own_blot_t,
                                     (int)past_them);
    const __m128i z = _mm_setzero_si128(), one = _mm_set1_epi32(1);
    __m128i S[7], cnt = z;
    for (d1 = 1; d1 <= 6; d1++) S[d1] = _mm_and_si128(_mm_srl_epi32(M, _mm_cvtsi32_si128(d1)), O);
    for (d1 = 1; d1 <= 6; d1++) {
        const __m128i sh1 = _mm_cvtsi32_si128(d1);
        for (d2 = d1; d2 <= 6; d2++) {
            __m128i hit, w;
            if (d1 == d2) {
                __m128i r = S[d1];
                hit = r;
                for (k = 1; k < 4; k++) {
                    r = _mm_and_si128(_mm_srl_epi32(r, sh1), O);
                    hit = _mm_or_si128(hit, r);
                }
                w = one;
            } else {
                const __m128i sh2 = _mm_cvtsi32_si128(d2);
                hit = _mm_or_si128(_mm_or_si128(S[d1], S[d2]),
                                   _mm_or_si128(_mm_and_si128(_mm_srl_epi32(S[d1], sh2), O),
                                                _mm_and_si128(_mm_srl_epi32(S[d2], sh1), O)));
                w = _mm_add_epi32(one, one);
            }
            /* lanes where hit & T != 0 add the roll's weight */
            cnt = _mm_add_epi32(cnt, _mm_andnot_si128(_mm_cmpeq_epi32(_mm_and_si128(hit, T), z), w));
        }
    }
    _mm_storeu_si128((__m128i *)c, cnt);
    out[0] = c[0];
    out[1] = s->own ? (none_us ? 36 : c[1]) : 0;
    out[2] = c[2];
    out[3] = s->opp ? (none_them ? 36 : c[3]) : 0;
#else
    out[0] = bg_nn_shots(s->own, s->opp_blot, s->opp_made);
    out[1] = s->own ? bg_nn_escapes(bg_highbit(s->own), s->opp_made) : 0;
    out[2] = bg_nn_shots(s->opp, s->own_blot_t, s->own_made_t);
    out[3] = s->opp ? bg_nn_escapes(bg_highbit(s->opp), s->own_made_t) : 0;
#endif
}

/* The eight feature inputs from a scan. */
static inline void bg_nn_scan_features(const bg_nn_scan_t *s, float *f)
{
    int se[4];
    bg_nn_shots_escapes(s, se);
    f[BG_F_PIPS] = (float)s->pips_own * 0.01f;
    f[BG_F_PIPS + 1] = (float)s->pips_opp * 0.01f;
    f[BG_F_SHOTS] = (float)se[0] * (1.0f / 36.0f);
    f[BG_F_SHOTS + 1] = (float)se[2] * (1.0f / 36.0f);
    f[BG_F_PRIME] = (float)bg_nn_run(s->own_made) * (1.0f / 6.0f);
    f[BG_F_PRIME + 1] = (float)bg_nn_run(s->opp_made) * (1.0f / 6.0f);
    f[BG_F_ESCAPE] = (float)se[1] * (1.0f / 36.0f);
    f[BG_F_ESCAPE + 1] = (float)se[3] * (1.0f / 36.0f);
}

/* The eight feature inputs of board b. */
static inline void bg_nn_features(const int8_t *b, float *f)
{
    bg_nn_scan_t s;
    bg_nn_scan(b, &s);
    bg_nn_scan_features(&s, f);
}

/* Checkers borne off by each side. */
static inline void bg_nn_off(const int8_t *b, int *own_off, int *opp_off)
{
    int p, own = 0, opp = 0;
    for (p = 0; p < BG_NPTS; p++) {
        if (b[p] > 0) own += b[p]; else opp -= b[p];
    }
    *own_off = BG_MAXCHK - own;
    *opp_off = BG_MAXCHK - opp;
}

#include "nnfeat2.h"
#include "nnfeat3.h"
#include "nnfeat4.h"

/* The feature inputs of encoding enc from board b and its scan; returns
 * how many (BG_NN_NFEAT, BG_NN_NFEAT2, BG_NN_NFEAT3 or BG_NN_NFEAT4): each
 * encoding appends its features to those of the one before. */
static inline int bg_nn_features_enc(int enc, const int8_t *b, const bg_nn_scan_t *s, float *f)
{
    bg_nn_scan_features(s, f);
    if (enc == 1) return BG_NN_NFEAT;
    bg_nn2_features(b, s, f + BG_NN_NFEAT);
    if (enc == 2) return BG_NN_NFEAT2;
    bg_nn3_features(b, s, f + BG_NN_NFEAT2);
    if (enc == 3) return BG_NN_NFEAT3;
    bg_nn4_features(b, s, f + BG_NN_NFEAT3);
    return BG_NN_NFEAT4;
}

/* The inputs of encoding enc. */
static inline int bg_nn_inputs(int enc)
{
    return enc == 1 ? BG_NN_NIN : enc == 2 ? BG_NN_NIN2 : enc == 3 ? BG_NN_NIN3 : BG_NN_NIN4;
}

/* The nonzero inputs of board b with its scan in encoding enc: n (index,
 * value) pairs in a fixed order (cells 0..25, then borne off, then
 * features).  Returns n. */
static inline int bg_nn_encode_scan_enc(int enc, const int8_t *b, const bg_nn_scan_t *s,
                                        int16_t *idx, float *val)
{
    int i, n = 0, nf, own_off = BG_MAXCHK - s->own_count, opp_off = BG_MAXCHK - s->opp_count;
    float f[BG_NN_MAXFEAT];
    uint32_t cells = (s->own >> 0) | bg_nn_rev26(s->opp);   /* nonzero cells, ascending */
    while (cells) {
        i = bg_highbit(cells & (~cells + 1u));
        cells &= cells - 1;
        n += bg_nn_cell(i, b[i], idx + n, val + n);
    }
    if (own_off) { idx[n] = 97; val[n++] = (float)own_off * (1.0f / 15.0f); }
    if (opp_off) { idx[n] = BG_NN_SIDE + 97; val[n++] = (float)opp_off * (1.0f / 15.0f); }
    nf = bg_nn_features_enc(enc, b, s, f);
    for (i = 0; i < nf; i++) {
        if (f[i] != 0.0f) { idx[n] = (int16_t)(BG_NN_RAW + i); val[n++] = f[i]; }
    }
    return n;
}

static inline int bg_nn_encode_scan(const int8_t *b, const bg_nn_scan_t *s, int16_t *idx, float *val)
{
    return bg_nn_encode_scan_enc(1, b, s, idx, val);
}

static inline int bg_nn_encode_enc(int enc, const int8_t *b, int16_t *idx, float *val)
{
    bg_nn_scan_t s;
    bg_nn_scan(b, &s);
    return bg_nn_encode_scan_enc(enc, b, &s, idx, val);
}

static inline int bg_nn_encode(const int8_t *b, int16_t *idx, float *val)
{
    return bg_nn_encode_enc(1, b, idx, val);
}

/* Checkers of the side on roll in play, for the crashed test: on the board
 * and the bar, less those on its 1-point when two or more are there, and
 * less all but one on its 2-point (checkers buried that deep take no part
 * in the play).  The opponent's: the same on the swapped board. */
static inline int bg_nn_in_play(const int8_t *b, int own_count)
{
    int ace = b[1] > 0 ? b[1] : 0, deuce = b[2] > 0 ? b[2] : 0;
    return own_count - (ace >= 2 ? ace : 0) - (deuce > 1 ? deuce - 1 : 0);
}

static inline int bg_nn_in_play_opp(const int8_t *b, int opp_count)
{
    int ace = b[24] < 0 ? -b[24] : 0, deuce = b[23] < 0 ? -b[23] : 0;
    return opp_count - (ace >= 2 ? ace : 0) - (deuce > 1 ? deuce - 1 : 0);
}

/* Crashed: a contact position in which a side has at most
 * BG_NN_CRASHED_MAX checkers in play (bg_nn_in_play). */
static inline int bg_nn_scan_crashed(const int8_t *b, const bg_nn_scan_t *s)
{
    return !bg_nn_scan_race(s) && (bg_nn_in_play(b, s->own_count) <= BG_NN_CRASHED_MAX
                                   || bg_nn_in_play_opp(b, s->opp_count) <= BG_NN_CRASHED_MAX);
}

/* The net of nn that answers board b (scanned). */
static inline int bg_nn_class(const bg_nn *nn, const int8_t *b, const bg_nn_scan_t *s)
{
    if (bg_nn_scan_race(s)) return BG_NN_RACE;
    if (nn->nnets > BG_NN_CRASHED && bg_nn_scan_crashed(b, s)) return BG_NN_CRASHED;
    return BG_NN_CONTACT;
}

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

static inline void bg_nn_head_base(const float *w2, int hp, const float *acc, float *h, float *t)
{
    const __m128 half = _mm_set1_ps(0.5f), one = _mm_set1_ps(1.0f);
    const __m128 absmask = _mm_castsi128_ps(_mm_set1_epi32(0x7FFFFFFF));
    __m128 s[BG_NN_NOUT][2];
    int k, j, q;
    for (k = 0; k < BG_NN_NOUT; k++) s[k][0] = s[k][1] = _mm_setzero_ps();
    for (j = 0; j < hp; j += 8) {
        __m128 x[2];
        for (q = 0; q < 2; q++) {
            __m128 a = _mm_loadu_ps(acc + j + 4 * q);
            __m128 d = _mm_add_ps(one, _mm_and_ps(a, absmask));
            x[q] = _mm_add_ps(half, _mm_div_ps(_mm_mul_ps(half, a), d));
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

__attribute__((target("avx2"))) static void bg_nn_head_avx2(const float *w2, int hp,
                                                             const float *acc, float *h, float *t)
{
    const __m256 half = _mm256_set1_ps(0.5f), one = _mm256_set1_ps(1.0f);
    const __m256 absmask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF));
    __m256 s[BG_NN_NOUT];
    int k, j;
    for (k = 0; k < BG_NN_NOUT; k++) s[k] = _mm256_setzero_ps();
    for (j = 0; j < hp; j += 8) {
        __m256 a = _mm256_loadu_ps(acc + j);
        __m256 d = _mm256_add_ps(one, _mm256_and_ps(a, absmask));
        __m256 x = _mm256_add_ps(half, _mm256_div_ps(_mm256_mul_ps(half, a), d));
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
            __m256 d = _mm256_add_ps(one, _mm256_and_ps(a[k], absmask));                \
            __m256 x = _mm256_add_ps(half, _mm256_div_ps(_mm256_mul_ps(half, a[k]), d)); \
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
    const __m256 half = _mm256_set1_ps(0.5f), one = _mm256_set1_ps(1.0f);
    const __m256 absmask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF));
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
        bg_nn_act(acc, h, m->hpad);
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

/* Raw outputs of net m at board b (scanned); acc and h are scratch. */
static inline void bg_nn_forward_scan(const bg_mlp *m, const int8_t *b, const bg_nn_scan_t *s,
                                      float *acc, float *h, float *out)
{
    int16_t idx[BG_NN_MAXNZ];
    float val[BG_NN_MAXNZ];
    int n = bg_nn_encode_scan_enc(m->enc, b, s, idx, val);
    bg_nn_outputs_from(m, m->b1, idx, val, n, acc, h, out);
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

/* ------------------------------------------------------------------ */
/* Move choice, incremental                                            */

typedef struct {
    int8_t base[32];       /* the position after swapping (26 bytes) */
    bg_nn_scan_t scan;
    int ready[BG_NN_MAXNETS];
    float f[BG_NN_MAXNETS][BG_NN_MAXFEAT];   /* the base's features in each net's encoding */
    float acc[BG_NN_MAXNETS][BG_NN_MAXH];
} bg_nn_base;

/* base: the position after swapping, scanned as scan */
static inline void bg_nn_base_init(bg_nn_base *s, const int8_t *base, const bg_nn_scan_t *scan)
{
    int c;
    memcpy(s->base, base, BG_NPTS);
    for (c = 0; c < BG_NN_MAXNETS; c++) s->ready[c] = 0;
    s->scan = *scan;
}

/*
 * What move choices from one position share: its first-layer sums for the
 * full nets and for the screen, kept until a choice from another position
 * (the 21 rolls of an evaluation one ply deeper are choices from one
 * position, so they pay for its sums once).  One chooser serves one
 * evaluator.
 */
typedef struct {
    bg_nn_base full, screen;
    int have;              /* full and screen hold a position */
} bg_nn_chooser;

static inline void bg_nn_chooser_init(bg_nn_chooser *c) { c->have = 0; }

static inline void bg_nn_chooser_at(bg_nn_chooser *c, const int8_t *before)
{
    int8_t base[32];
    bg_nn_scan_t scan;
    bg_swap(before, base);
    if (c->have && memcmp(base, c->full.base, BG_NPTS) == 0) return;
    bg_nn_scan(base, &scan);
    bg_nn_base_init(&c->full, base, &scan);
    bg_nn_base_init(&c->screen, base, &scan);
    c->have = 1;
}

static inline const float *bg_nn_base_acc(bg_nn_base *s, const bg_mlp *m, int cls)
{
    if (!s->ready[cls]) {
        int16_t idx[BG_NN_MAXNZ];
        float val[BG_NN_MAXNZ];
        int n = bg_nn_encode_scan_enc(m->enc, s->base, &s->scan, idx, val);
        bg_nn_features_enc(m->enc, s->base, &s->scan, s->f[cls]);
        bg_nn_accumulate(m, idx, val, n, s->acc[cls]);
        s->ready[cls] = 1;
    }
    return s->acc[cls];
}

/* Raw outputs of board e (scanned as es, both sides playing, of class
 * cls) from the first-layer sums of the base position plus e's differences. */
static inline void bg_nn_delta_eval(bg_nn_base *s, const bg_mlp *m, int cls, const int8_t *e,
                                    const bg_nn_scan_t *es, float *out)
{
    float acc[BG_NN_MAXH], h[BG_NN_HBUF], f[BG_NN_MAXFEAT];
    int16_t idx[BG_NN_NPTS_DELTA];
    float val[BG_NN_NPTS_DELTA];
    int i, n = 0, nf;
    const float *bf;
    int d_own = s->scan.own_count - es->own_count, d_opp = s->scan.opp_count - es->opp_count;
    const int8_t *b0 = s->base;
    const float *a0 = bg_nn_base_acc(s, m, cls);   /* fills s->f[cls] */
#ifdef BG_SSE2
    /* the points that changed, in rising order as the plain loop takes them:
     * two overlapping 16-byte compares cover the 26 */
    uint32_t diff = ~((uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(
                          _mm_loadu_si128((const __m128i *)e), _mm_loadu_si128((const __m128i *)b0)))
                      | (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(
                          _mm_loadu_si128((const __m128i *)(e + 10)),
                          _mm_loadu_si128((const __m128i *)(b0 + 10)))) << 10)
                    & ((1u << BG_NPTS) - 1);
    for (; diff; diff &= diff - 1) {
        i = bg_ctz(diff);
#else
    for (i = 0; i < BG_NPTS; i++) {
        if (e[i] == b0[i]) continue;
#endif
        n += bg_nn_cell_signed(i, b0[i], -1.0f, idx + n, val + n);   /* the old cell leaves */
        n += bg_nn_cell(i, e[i], idx + n, val + n);
    }
    /* borne off: 15 - count, so the change is the count's fall */
    if (d_own) { idx[n] = 97; val[n++] = (float)d_own * (1.0f / 15.0f); }
    if (d_opp) { idx[n] = BG_NN_SIDE + 97; val[n++] = (float)d_opp * (1.0f / 15.0f); }
    nf = bg_nn_features_enc(m->enc, e, es, f);
    bf = s->f[cls];
    for (i = 0; i < nf; i++)
        if (f[i] != bf[i]) { idx[n] = (int16_t)(BG_NN_RAW + i); val[n++] = f[i] - bf[i]; }
    bg_nn_outputs_from(m, a0, idx, val, n, acc, h, out);
}

/* Scores play e (swapped, scanned as es) with the nets of nn from base s:
 * the mover's equity; out receives the opponent's five probabilities. */
static inline float bg_nn_score(const bg_evaluator *ev, const bg_nn *nn, bg_nn_base *s,
                                const int8_t *e, const bg_nn_scan_t *es, float *out)
{
    if (!bg_nn_known(ev, e, es, out)) {
        int cls = bg_nn_class(nn, e, es);
        bg_nn_delta_eval(s, &nn->net[cls], cls, e, es, out);
        bg_nn_tidy_scan(es, out);
    }
    return -bg_equity(out);
}

static inline int64_t bg_nn_choose_pruned(const bg_evaluator *ev, bg_nn_chooser *c,
                                          const int8_t *cands, int64_t n, float *best_probs);

/*
 * The index of the best of the n plays at `cands` (26 bytes each, seen by
 * the player who moves, who played from `before`): the highest cubeless
 * equity for the mover; ties go to the first.  When `probs` is not NULL it
 * receives, for every play, the five probabilities of the resulting
 * position for the OPPONENT, now on roll (n x 5); `best_probs` (5, may be
 * NULL) those of the chosen play.  An evaluator with a screen (ev->prune)
 * makes the choices that need no probs by bg_nn_choose_pruned.  The
 * chooser c keeps the sums of `before` for the next choice (bg_nn_chooser).
 */
static inline int64_t bg_nn_choose_in(const bg_evaluator *ev, bg_nn_chooser *c,
                                      const int8_t *cands, int64_t n, const int8_t *before,
                                      float *probs, float *best_probs)
{
    int8_t e[32];
    float out[BG_NN_NOUT], best_out[BG_NN_NOUT];
    float best = 0.0f;
    int64_t i, pick = 0;
    bg_nn_chooser_at(c, before);
    if (ev->prune && !probs && (n > ev->keep || (ev->margin > 0.0f && n > 1)))
        return bg_nn_choose_pruned(ev, c, cands, n, best_probs);
    for (i = 0; i < n; i++) {
        float eq;
        bg_nn_scan_t es;
        bg_swap(cands + i * BG_NPTS, e);
        bg_nn_scan(e, &es);
        eq = bg_nn_score(ev, ev->nn, &c->full, e, &es, out);
        if (probs) memcpy(probs + i * BG_NN_NOUT, out, sizeof out);
        if (i == 0 || eq > best) { best = eq; pick = i; memcpy(best_out, out, sizeof out); }
    }
    if (best_probs) memcpy(best_probs, best_out, sizeof best_out);
    return pick;
}

/* bg_nn_choose_in for one choice. */
static inline int64_t bg_nn_choose(const bg_evaluator *ev, const int8_t *cands, int64_t n,
                                   const int8_t *before, float *probs, float *best_probs)
{
    bg_nn_chooser c;
    bg_nn_chooser_init(&c);
    return bg_nn_choose_in(ev, &c, cands, n, before, probs, best_probs);
}

/*
 * A choice with a screen (ev->prune, gnubg's "pruning nets" in spirit): the
 * small nets score every play, and only the ev->keep best of those are
 * scored by the full nets, which pick among them (ties: the first); with a
 * margin (ev->margin > 0), only those of them within the margin of the
 * screen's best (a play far behind is rarely the full nets' best).  For
 * choices where only the chosen play counts: rollouts, duels and the
 * replies inside 1- and 2-ply evaluations.  The screen's errors are
 * measured in docs/nn.md ("Pruning").
 */
static inline int64_t bg_nn_choose_pruned(const bg_evaluator *ev, bg_nn_chooser *c,
                                          const int8_t *cands, int64_t n, float *best_probs)
{
    int8_t e[32];
    float out[BG_NN_NOUT], best_out[BG_NN_NOUT], top_eq[BG_NN_MAXKEEP], eq, best = 0.0f;
    int64_t top[BG_NN_MAXKEEP], i, pick = 0;
    int k = 0, j, keep = ev->keep;
    bg_nn_scan_t es;
    if (keep > BG_NN_MAXKEEP) keep = BG_NN_MAXKEEP;
    if (keep < 1) keep = 1;
    for (i = 0; i < n; i++) {
        bg_swap(cands + i * BG_NPTS, e);
        bg_nn_scan(e, &es);
        eq = bg_nn_score(ev, ev->prune, &c->screen, e, &es, out);
        if (k < keep || eq > top_eq[k - 1]) {   /* into the screen's best, best first */
            j = k < keep ? k++ : k - 1;
            while (j > 0 && top_eq[j - 1] < eq) {
                top_eq[j] = top_eq[j - 1];
                top[j] = top[j - 1];
                j--;
            }
            top_eq[j] = eq;
            top[j] = i;
        }
    }
    if (ev->margin > 0.0f)                       /* the screen's best, then those close to it */
        while (k > 1 && top_eq[k - 1] < top_eq[0] - ev->margin) k--;
    for (i = 1; i < k; i++) {                    /* in play order: ties go to the first */
        int64_t t = top[i];
        for (j = (int)i; j > 0 && top[j - 1] > t; j--) top[j] = top[j - 1];
        top[j] = t;
    }
    for (j = 0; j < k; j++) {
        bg_swap(cands + top[j] * BG_NPTS, e);
        bg_nn_scan(e, &es);
        eq = bg_nn_score(ev, ev->nn, &c->full, e, &es, out);
        if (j == 0 || eq > best) { best = eq; pick = top[j]; memcpy(best_out, out, sizeof out); }
    }
    if (best_probs) memcpy(best_probs, best_out, sizeof best_out);
    return pick;
}

#endif /* BGCORE_NN_H */
