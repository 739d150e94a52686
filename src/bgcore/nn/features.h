/*
 * nn/features.h -- part of the neural evaluator (included by nn.h, never alone).
 * The inputs: the raw encoding of the points, the scan of a board and the hand-made features of encodings 1 to 4 (feat2.h, feat3.h, feat4.h).
 */
#ifndef BGCORE_NN_FEATURES_H
#define BGCORE_NN_FEATURES_H

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

/* The cells (bits 0..25) where boards a and b differ.  With SSE2, two
 * overlapping 16-byte compares cover the 26. */
static inline uint32_t bg_nn_changed_cells(const int8_t *a, const int8_t *b)
{
#ifdef BG_SSE2
    return ~((uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(
                 _mm_loadu_si128((const __m128i *)a), _mm_loadu_si128((const __m128i *)b)))
             | (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(
                 _mm_loadu_si128((const __m128i *)(a + 10)),
                 _mm_loadu_si128((const __m128i *)(b + 10)))) << 10)
           & ((1u << BG_NPTS) - 1);
#else
    uint32_t diff = 0;
    int i;
    for (i = 0; i < BG_NPTS; i++)
        if (a[i] != b[i]) diff |= 1u << i;
    return diff;
#endif
}

#include "nn/feat2.h"
#include "nn/feat3.h"
#include "nn/feat4.h"
#include "nn/feat5.h"
#include "nn/feat6.h"

/* The feature inputs of encoding enc from board b and its scan; returns
 * how many (BG_NN_NFEAT, BG_NN_NFEAT2, BG_NN_NFEAT3 or BG_NN_NFEAT4): each
 * encoding appends its features to those of the one before. */
static inline int bg_nn_features_enc(int enc, const int8_t *b, const bg_nn_scan_t *s, float *f)
{
    if (enc == 5) { bg_nn5_features(s, f); return BG_NN_NFEAT5; }   /* counts, not values */
    if (enc == 6) { bg_nn6_features(b, s, f); return BG_NN_NFEAT6; }
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
    return enc == 1 ? BG_NN_NIN : enc == 2 ? BG_NN_NIN2 : enc == 3 ? BG_NN_NIN3
         : enc == 4 ? BG_NN_NIN4 : enc == 5 ? BG_NN_NIN5 : BG_NN_NIN6;
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
    if (enc == 5) return bg_nn5_encode(b, s, idx, val, f);
    if (enc == 6) return bg_nn6_encode(b, s, idx, val, f);
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

#endif /* BGCORE_NN_FEATURES_H */
