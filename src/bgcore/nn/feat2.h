/*
 * nn/feat2.h -- the extra feature inputs of encoding 2 (included by nn/features.h).
 *
 * Ten features a side, first of the side on roll (X) against its opponent
 * (Y), then of the opponent against the side on roll, written from the
 * published descriptions of gnubg's inputs (anchors, containment, timing,
 * shots, pip loss, prime, crashed), in our own definitions (docs/nn.md
 * lists each with its scale):
 *
 *   0 anchors    points X holds in Y's home board (X's 19..24) / 3
 *   1 back       X's checkers on the bar or in Y's home board / 5
 *   2 timing     X's pips outside its home board, sum of (p - 6) over p > 6 / 100
 *   3 home       points X holds in its home board (1..6) / 6
 *   4 piploss    mean over the 36 rolls of the most pips X loses to one hit
 *                (a blot on X's point p loses 25 - p) / 25
 *   5 exposed    X's blots within 6 pips in front of a Y checker (direct range) / 3
 *   6 shots      rolls of 36 with which Y hits an X blot, honouring Y's bar:
 *                with one checker on the bar Y must enter with one die first
 *                (then either die's other move may hit); with two or more
 *                only the entering checkers move; doubles enter with as many
 *                steps as there are checkers on the bar (up to 4) and move
 *                the rest / 36
 *   7 prime      longest run of points X holds in front of Y's rearmost
 *                checker (the points it still has to pass) / 6
 *   8 in play    X's checkers in play (bg_nn_in_play) / 15
 *   9 buried     X's checkers on its 1, 2 and 3 points / 15
 *
 * Masks are in Y's numbering (Y moves from 25 = bar toward 1): X's point p
 * is Y's 25 - p.
 */
#ifndef BGCORE_NNFEAT2_H
#define BGCORE_NNFEAT2_H

#define BG_NN2_PER_SIDE 10

/* Set bits of x.  Without the POPCNT instruction (portable builds) the
 * builtin is a call into libgcc, so the bit-parallel sum is inlined instead. */
static inline int bg_popcount(uint32_t x)
{
#if (defined(__GNUC__) || defined(__clang__)) && defined(__POPCNT__)
    return __builtin_popcount(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (int)((x * 0x01010101u) >> 24);
#endif
}

/* The index of the lowest set bit of x (x != 0). */
static inline int bg_ctz(uint32_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(x);           /* one instruction: bsf or tzcnt */
#else
    return bg_popcount((x & (0u - x)) - 1u);
#endif
}

/* Checkers of X (cx) and Y (cy) by point, each in its own numbering, 25 = bar. */
typedef struct {
    int cx[26], cy[26];
} bg_nn2_sides;

/* Y's landing points (mask, Y's numbering) one die d away from `from`,
 * through points not in `closed`. */
static inline uint32_t bg_nn2_step(uint32_t from, int d, uint32_t closed)
{
    return (from >> d) & ~closed & 0x1FFFFFEu;
}

/* The points (mask, Y's numbering) Y may land on with each roll,
 * honouring its bar, into hits[d1][d2] (d1 <= d2, 1..6).  One-die steps are
 * computed once (r[d]: every checker, e[d]: the entering one). */
static inline void bg_nn2_hits(uint32_t ymask, int ybar, uint32_t closed, uint32_t hits[7][7])
{
    const uint32_t bar = 1u << 25;
    uint32_t r[7], e[7];
    int d1, d2, k;
    for (d1 = 1; d1 <= 6; d1++) {
        r[d1] = bg_nn2_step(ymask, d1, closed);
        e[d1] = bg_nn2_step(bar, d1, closed);
    }
    for (d1 = 1; d1 <= 6; d1++)
        for (d2 = d1 + 1; d2 <= 6; d2++) {
            uint32_t h;
            if (ybar == 0)
                h = r[d1] | r[d2] | bg_nn2_step(r[d1], d2, closed) | bg_nn2_step(r[d2], d1, closed);
            else if (ybar >= 2)
                h = e[d1] | e[d2];
            else {
                /* enter with one die, then the other die moves any checker */
                h = 0;
                if (e[d1]) h |= e[d1] | r[d2] | bg_nn2_step(e[d1], d2, closed);
                if (e[d2]) h |= e[d2] | r[d1] | bg_nn2_step(e[d2], d1, closed);
            }
            hits[d1][d2] = h;
        }
    for (d1 = 1; d1 <= 6; d1++) {
        uint32_t h = 0, x;
        int left;
        if (ybar == 0) {
            x = r[d1];
            h = x;
            left = 3;
        } else {
            if (!e[d1]) { hits[d1][d1] = 0; continue; }
            left = 4 - (ybar < 4 ? ybar : 4);
            h = e[d1];
            x = ymask | e[d1];
            if (left) { x = bg_nn2_step(x, d1, closed); h |= x; left--; }
            else x = 0;
        }
        for (k = 0; k < left; k++) { x = bg_nn2_step(x, d1, closed); h |= x; }
        hits[d1][d1] = h;
    }
}

/* The ten features of side X (cx) against Y (cy), into f[0..9]. */
static inline void bg_nn2_side(const int *cx, const int *cy, float *f)
{
    int p, anchors = 0, back = 0, timing = 0, home = 0, exposed = 0, shots = 0, loss = 0;
    int rear_y, total = 0, d1, d2;
    uint32_t closed = 0, blots = 0, ymask = 0;      /* Y's numbering */
    uint32_t made = 0;                               /* X's made points, X's numbering */
    for (p = 1; p <= 24; p++) {
        int n = cx[p];
        total += n;
        if (n >= 2) { made |= 1u << p; closed |= 1u << (25 - p); }
        if (n == 1) blots |= 1u << (25 - p);
        if (p > 6) timing += (p - 6) * n;
        if (cy[p] > 0) ymask |= 1u << p;
    }
    anchors = bg_popcount(made & 0x1F80000u);                 /* X's 19..24 */
    home = bg_popcount(made & 0x7Eu);                         /* X's 1..6 */
    for (p = 19; p <= 24; p++) back += cx[p];
    total += cx[25];
    back += cx[25];
    timing += 19 * cx[25];
    {
        uint32_t yall = ymask | (cy[25] > 0 ? 1u << 25 : 0), b = blots;
        rear_y = yall ? bg_highbit(yall) : 0;
        /* direct range: a Y checker 1..6 points behind the blot (Y's numbering) */
        while (b) {
            int q = bg_highbit(b & (~b + 1u));
            b &= b - 1;
            if ((yall >> (q + 1)) & 0x3Fu) exposed++;
        }
    }
    if (blots) {
        uint32_t hits[7][7];
        bg_nn2_hits(ymask, cy[25], closed, hits);
        for (d1 = 1; d1 <= 6; d1++)
            for (d2 = d1; d2 <= 6; d2++) {
                uint32_t h = hits[d1][d2] & blots;
                int w = d1 == d2 ? 1 : 2;
                if (h) {
                    /* the hit blot farthest along Y's way is nearest X's home:
                       the highest Y point q, X's point 25 - q, which loses q pips */
                    shots += w;
                    loss += w * bg_highbit(h);
                }
            }
    }
    {
        /* X's points Y's rearmost checker (X's point 25 - rear_y) still has to pass */
        int from = rear_y ? 25 - rear_y + 1 : 25;
        uint32_t ahead = from <= 24 ? made & ~((1u << from) - 1u) : 0;
        f[7] = (float)bg_nn_run(ahead) * (1.0f / 6.0f);
    }
    {
        int ace = cx[1], deuce = cx[2];
        int in_play = total - (ace >= 2 ? ace : 0) - (deuce > 1 ? deuce - 1 : 0);
        f[8] = (float)in_play * (1.0f / 15.0f);
    }
    f[0] = (float)anchors * (1.0f / 3.0f);
    f[1] = (float)back * (1.0f / 5.0f);
    f[2] = (float)timing * 0.01f;
    f[3] = (float)home * (1.0f / 6.0f);
    f[4] = (float)loss * (1.0f / (36.0f * 25.0f));
    f[5] = (float)exposed * (1.0f / 3.0f);
    f[6] = (float)shots * (1.0f / 36.0f);
    f[9] = (float)(cx[1] + cx[2] + cx[3]) * (1.0f / 15.0f);
}

/* Board b's checkers split by side, each in its own numbering (25 = bar). */
static inline void bg_nn2_split(const int8_t *b, bg_nn2_sides *v)
{
    int p;
    for (p = 1; p <= 24; p++) {
        v->cx[p] = b[p] > 0 ? b[p] : 0;
        v->cy[p] = b[25 - p] < 0 ? -b[25 - p] : 0;
    }
    v->cx[0] = v->cy[0] = 0;
    v->cx[25] = b[BG_BAR] > 0 ? b[BG_BAR] : 0;
    v->cy[25] = b[0] < 0 ? -b[0] : 0;
}

/* The 20 extra features of board b (the side on roll, then the opponent),
 * point by point: the reference of bg_nn2_features. */
static inline void bg_nn2_features_plain(const int8_t *b, const bg_nn_scan_t *s, float *f)
{
    bg_nn2_sides v;
    (void)s;
    bg_nn2_split(b, &v);
    bg_nn2_side(v.cx, v.cy, f);
    bg_nn2_side(v.cy, v.cx, f + BG_NN2_PER_SIDE);
}

/* Each roll's landing points (mask, the hitter's numbering) for a hit on a
 * blot: bg_nn2_hits' points, for checkers ymask (+ ybar on the bar) that land
 * only off `closed`, the 15 non-doubles first (land[0..14]), then the
 * doubles 1-1 .. 6-6 (land[15..20]); no table, no branch per roll.
 *
 * Only land & blots is used, and a blot is an open point of 1..24, so a
 * move's last step needs no `& ~closed & mask` (bg_nn2_step): the
 * intermediate landings, which must be open, keep it; bit 0 is never a
 * blot.  Shots, pip loss (bg_nn2_shots) and double shots (bg_nn3_dshots)
 * count from these. */
static inline void bg_nn2_landings(uint32_t ymask, int ybar, uint32_t closed, uint32_t *land)
{
    const uint32_t bar = 1u << 25;
    uint32_t r[7], e[7], h, x;
    int d1, d2, k, j = 0;
    int left = ybar == 0 ? 3 : 4 - (ybar < 4 ? ybar : 4);
    for (d1 = 1; d1 <= 6; d1++) {
        r[d1] = bg_nn2_step(ymask, d1, closed);
        e[d1] = bg_nn2_step(bar, d1, closed);
    }
    for (d1 = 1; d1 <= 6; d1++) {
        for (d2 = d1 + 1; d2 <= 6; d2++) {
            if (ybar == 0) h = r[d1] | r[d2] | (r[d1] >> d2) | (r[d2] >> d1);
            else if (ybar >= 2) h = e[d1] | e[d2];
            else {
                /* one on the bar: enter with one die, then the other die moves any checker */
                h = 0;
                if (e[d1]) h |= e[d1] | r[d2] | (e[d1] >> d2);
                if (e[d2]) h |= e[d2] | r[d1] | (e[d2] >> d1);
            }
            land[j++] = h;
        }
        if (ybar == 0) {
            h = x = r[d1];
            for (k = 0; k < 2; k++) { x = bg_nn2_step(x, d1, closed); h |= x; }
            h |= x >> d1;
        } else if (ybar >= 2) {
            h = e[d1];
            if (h && left) {
                x = ymask | h;
                for (k = 0; k < left; k++) { x = bg_nn2_step(x, d1, closed); h |= x; }
            }
        } else {
            h = e[d1];
            if (h) {
                x = ymask | h;
                for (k = 0; k < 2; k++) { x = bg_nn2_step(x, d1, closed); h |= x; }
                h |= x >> d1;
            }
        }
        land[15 + d1 - 1] = h;
    }
}

/* The shots and pip loss (features 6 and 4) of a side whose blots are
 * `blots`, against checkers `ymask` (+ ybar on the bar) that land only off
 * `closed` (all in the hitter's numbering), from bg_nn2_landings: a roll
 * hitting the blot farthest along the hitter's way (highest point q) loses
 * q pips; highbit(t | 1) is 0 for no hit.  Non-doubles count twice. */
static inline void bg_nn2_shots(uint32_t ymask, int ybar, uint32_t closed, uint32_t blots,
                                int *shots, int *loss)
{
    uint32_t land[21];
    int k, s = 0, l = 0;
    *shots = *loss = 0;
    if (!blots) return;
    bg_nn2_landings(ymask, ybar, closed, land);
    for (k = 0; k < 21; k++) {
        uint32_t t = land[k] & blots;
        int w = k < 15 ? 2 : 1;
        s += w * (t != 0);
        l += w * bg_highbit(t | 1u);
    }
    *shots = s;
    *loss = l;
}

#ifdef BG_SSE2
/* bg_nn2_landings of two hitters at once, neither on the bar, in 32-bit
 * lanes 0 and 1: checkers Y, landing points O (~closed & 0x1FFFFFE). */
static inline void bg_nn2_landings_lanes(__m128i Y, __m128i O, __m128i *land)
{
    __m128i r[7], sh[7], x, h;
    int d1, d2, j = 0;
    for (d1 = 1; d1 <= 6; d1++) {
        sh[d1] = _mm_cvtsi32_si128(d1);
        r[d1] = _mm_and_si128(_mm_srl_epi32(Y, sh[d1]), O);
    }
    for (d1 = 1; d1 <= 6; d1++) {
        for (d2 = d1 + 1; d2 <= 6; d2++)
            land[j++] = _mm_or_si128(_mm_or_si128(r[d1], r[d2]),
                                     _mm_or_si128(_mm_srl_epi32(r[d1], sh[d2]),
                                                  _mm_srl_epi32(r[d2], sh[d1])));
        x = h = r[d1];
        x = _mm_and_si128(_mm_srl_epi32(x, sh[d1]), O); h = _mm_or_si128(h, x);
        x = _mm_and_si128(_mm_srl_epi32(x, sh[d1]), O); h = _mm_or_si128(h, x);
        land[15 + d1 - 1] = _mm_or_si128(h, _mm_srl_epi32(x, sh[d1]));
    }
}
#endif

/* Shots and pip loss of both sides at once, as two bg_nn2_shots calls
 * (side 0 is hit by checkers ym0 off closed0, side 1 by ym1 off closed1):
 * into out[0..3] = shots 0, loss 0, shots 1, loss 1.  With SSE2, when
 * neither hitter is on the bar and both sides have blots (most contact
 * positions), the 21 rolls run once for both sides in two 32-bit lanes;
 * the highest hit blot of a lane is the exponent of its mask converted to
 * float.  Otherwise the scalar function, side by side. */
static inline void bg_nn2_shots_both(uint32_t ym0, int ybar0, uint32_t closed0, uint32_t blots0,
                                     uint32_t ym1, int ybar1, uint32_t closed1, uint32_t blots1,
                                     int *out)
{
#ifdef BG_SSE2
    if (!ybar0 && !ybar1 && blots0 && blots1) {
        const __m128i B = _mm_setr_epi32((int)blots0, (int)blots1, 0, 0);
        const __m128i z = _mm_setzero_si128(), one = _mm_set1_epi32(1);
        __m128i land[21], miss[2] = {z, z}, ex[2] = {z, z};
        int32_t m2[4], m1[4], e2[4], e1[4];
        int k;
        bg_nn2_landings_lanes(_mm_setr_epi32((int)ym0, (int)ym1, 0, 0),
                              _mm_setr_epi32((int)(~closed0 & 0x1FFFFFEu),
                                             (int)(~closed1 & 0x1FFFFFEu), 0, 0), land);
        /* t: the roll's hit blots; misses count -1 each; t & ~(t >> 1) keeps
           t's top bit and clears the one below it, so converting it (| 1, for
           exponent 0 when nothing is hit) cannot round up to the next power;
           [0]: non-doubles, [1]: doubles */
        for (k = 0; k < 21; k++) {
            __m128i t = _mm_and_si128(land[k], B);
            __m128i u = _mm_or_si128(_mm_andnot_si128(_mm_srli_epi32(t, 1), t), one);
            int d = k >= 15;
            miss[d] = _mm_add_epi32(miss[d], _mm_cmpeq_epi32(t, z));
            ex[d] = _mm_add_epi32(ex[d], _mm_srli_epi32(_mm_castps_si128(_mm_cvtepi32_ps(u)), 23));
        }
        _mm_storeu_si128((__m128i *)m2, miss[0]);
        _mm_storeu_si128((__m128i *)m1, miss[1]);
        _mm_storeu_si128((__m128i *)e2, ex[0]);
        _mm_storeu_si128((__m128i *)e1, ex[1]);
        /* 15 non-doubles (weight 2) and 6 doubles; a float exponent is biased by 127 */
        out[0] = 2 * (15 + m2[0]) + (6 + m1[0]);
        out[1] = 2 * (e2[0] - 15 * 127) + (e1[0] - 6 * 127);
        out[2] = 2 * (15 + m2[1]) + (6 + m1[1]);
        out[3] = 2 * (e2[1] - 15 * 127) + (e1[1] - 6 * 127);
        return;
    }
#endif
    bg_nn2_shots(ym0, ybar0, closed0, blots0, out, out + 1);
    bg_nn2_shots(ym1, ybar1, closed1, blots1, out + 2, out + 3);
}

/* Positive part of a board cell (the side on roll's checkers). */
#define BG_POS(v) ((int)(v) > 0 ? (int)(v) : 0)
#define BG_NEG(v) ((int)(v) < 0 ? -(int)(v) : 0)

/* The 20 extra features of board b from its scan (masks and counts, no
 * pass over the points): equal to bg_nn2_features_plain (tested). */
static inline void bg_nn2_features(const int8_t *b, const bg_nn_scan_t *s, float *f)
{
    int p, sl[4], rear, from, bar_x = BG_POS(b[BG_BAR]), bar_y = BG_NEG(b[0]);
    int hp_x = 0, hn_x = 0, hp_y = 0, hn_y = 0, back_x = bar_x, back_y = bar_y;
    uint32_t near_y, near_x, ahead;
    float *g = f + BG_NN2_PER_SIDE;
    for (p = 1; p <= 6; p++) {
        int x = BG_POS(b[p]), y = BG_NEG(b[25 - p]);
        hp_x += p * x; hn_x += x;           /* X's home board */
        hp_y += p * y; hn_y += y;           /* Y's home board (its numbering) */
        back_y += BG_NEG(b[p]);             /* Y's checkers in X's home */
        back_x += BG_POS(b[25 - p]);        /* X's checkers in Y's home */
    }
    /* X (on roll) against Y: masks in Y's numbering are s->own_*_t and s->opp */
    f[0] = (float)bg_popcount(s->own_made & 0x1F80000u) * (1.0f / 3.0f);
    f[1] = (float)back_x * (1.0f / 5.0f);
    f[2] = (float)((s->pips_own - hp_x) - 6 * (s->own_count - hn_x)) * 0.01f;
    f[3] = (float)bg_popcount(s->own_made & 0x7Eu) * (1.0f / 6.0f);
    near_y = (s->opp >> 1) | (s->opp >> 2) | (s->opp >> 3) | (s->opp >> 4) | (s->opp >> 5)
             | (s->opp >> 6);
    f[5] = (float)bg_popcount(s->own_blot_t & near_y) * (1.0f / 3.0f);
    /* shots and pip loss: X's blots hit by Y, then Y's by X */
    bg_nn2_shots_both(s->opp & 0x1FFFFFEu, bar_y, s->own_made_t, s->own_blot_t,
                      s->own & 0x1FFFFFEu, bar_x, s->opp_made, s->opp_blot, sl);
    f[4] = (float)sl[1] * (1.0f / (36.0f * 25.0f));
    f[6] = (float)sl[0] * (1.0f / 36.0f);
    rear = s->opp ? bg_highbit(s->opp) : 0;            /* Y's rearmost, its numbering */
    from = rear ? 26 - rear : 25;                      /* X's points it still has to pass */
    ahead = from <= 24 ? s->own_made & ~((1u << from) - 1u) : 0;
    f[7] = (float)bg_nn_run(ahead) * (1.0f / 6.0f);
    f[8] = (float)(s->own_count - (BG_POS(b[1]) >= 2 ? BG_POS(b[1]) : 0)
                   - (BG_POS(b[2]) > 1 ? BG_POS(b[2]) - 1 : 0)) * (1.0f / 15.0f);
    f[9] = (float)(BG_POS(b[1]) + BG_POS(b[2]) + BG_POS(b[3])) * (1.0f / 15.0f);
    /* Y against X: masks in X's numbering are s->opp_made, s->opp_blot and s->own */
    g[0] = (float)bg_popcount(s->opp_made & 0x7Eu) * (1.0f / 3.0f);
    g[1] = (float)back_y * (1.0f / 5.0f);
    g[2] = (float)((s->pips_opp - hp_y) - 6 * (s->opp_count - hn_y)) * 0.01f;
    g[3] = (float)bg_popcount(s->opp_made & 0x1F80000u) * (1.0f / 6.0f);
    near_x = (s->own >> 1) | (s->own >> 2) | (s->own >> 3) | (s->own >> 4) | (s->own >> 5)
             | (s->own >> 6);
    g[5] = (float)bg_popcount(s->opp_blot & near_x) * (1.0f / 3.0f);
    g[4] = (float)sl[3] * (1.0f / (36.0f * 25.0f));
    g[6] = (float)sl[2] * (1.0f / 36.0f);
    rear = s->own ? bg_highbit(s->own) : 0;            /* X's rearmost, our numbering */
    ahead = rear ? s->opp_made & ((1u << rear) - 1u) : 0;  /* Y's points below it (ours) */
    g[7] = (float)bg_nn_run(ahead) * (1.0f / 6.0f);
    g[8] = (float)(s->opp_count - (BG_NEG(b[24]) >= 2 ? BG_NEG(b[24]) : 0)
                   - (BG_NEG(b[23]) > 1 ? BG_NEG(b[23]) - 1 : 0)) * (1.0f / 15.0f);
    g[9] = (float)(BG_NEG(b[24]) + BG_NEG(b[23]) + BG_NEG(b[22])) * (1.0f / 15.0f);
}

#undef BG_POS
#undef BG_NEG

#endif /* BGCORE_NNFEAT2_H */
