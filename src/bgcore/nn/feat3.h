/*
 * nn/feat3.h -- the extra feature inputs of encoding 3 (included by nn/features.h).
 *
 * Encoding 3 is encoding 2 followed by seven features a side, first of the
 * side on roll (X) against its opponent (Y), then of Y against X.  They are
 * written from the published descriptions of the inputs of gnubg's contact
 * net (containment, bar entry, breaking contact, back checker, double
 * hits), in our own definitions (docs/nn.md lists each with its scale):
 *
 *   0 contain   X's blockade: 36 minus the fewest escapes (bg_nn3_esc) of a
 *               Y checker on any of Y's points 15..24 (X's 10..1), / 36
 *   1 contain2  contain squared
 *   2 dance     with X on the bar: the chance of rolling no entering die,
 *               (k / 6)^2 with k Y's made home points; else 0
 *   3 dance2    with two or more X checkers on the bar: the chance that not
 *               both enter, 1 - ((6 - k) / 6)^2; else 0
 *   4 break     pips X must move to take every checker past Y's rearmost
 *               checker: the sum of (p - r) over X's checkers at p > r, r
 *               that checker's point in X's numbering (bar: X 25, Y 0) / 150
 *   5 rear      X's rearmost checker's point (bar 25) / 25
 *   6 dshots    rolls of 36 with which Y reaches two or more X blots
 *               (bg_nn2_hits' landing points, honouring Y's bar) / 36
 *
 * Escapes come from a 4,096-entry table of the 12 points in front of a
 * checker (bg_nn3_init fills it once, before any evaluation).
 */
#ifndef BGCORE_NNFEAT3_H
#define BGCORE_NNFEAT3_H

#define BG_NN3_PER_SIDE 7

/* bg_nn3_esc[m]: the rolls (of 36) with which a lone checker lands beyond
 * the farthest blocked point of the 12 in front of it, where bit j of m
 * marks the point j + 1 pips ahead as blocked (a landing there is not
 * allowed, so a move cannot pass through it either); points past the 12 are
 * open.  36 when none is blocked.  Non-doubles move either die first;
 * doubles take up to four steps. */
static uint8_t bg_nn3_esc[4096];
static int bg_nn3_ready = 0;

static inline int bg_nn3_open(int m, int d)
{
    return d > 12 || !((m >> (d - 1)) & 1);
}

static inline void bg_nn3_init(void)
{
    int m, d1, d2, k;
    if (bg_nn3_ready) return;
    for (m = 0; m < 4096; m++) {
        int far = m ? bg_highbit((uint32_t)m) + 1 : 0, count = 0;
        for (d1 = 1; d1 <= 6; d1++)
            for (d2 = d1; d2 <= 6; d2++) {
                int out = 0;
                if (d1 == d2) {
                    for (k = 1; k <= 4 && bg_nn3_open(m, k * d1); k++)
                        if (k * d1 > far) { out = 1; break; }
                } else {
                    if (d1 > far || d2 > far) out = 1;
                    else if ((bg_nn3_open(m, d1) || bg_nn3_open(m, d2))
                             && bg_nn3_open(m, d1 + d2) && d1 + d2 > far) out = 1;
                }
                if (out) count += d1 == d2 ? 1 : 2;
            }
        bg_nn3_esc[m] = (uint8_t)(m ? count : 36);
    }
    bg_nn3_ready = 1;
}

static inline int bg_nn3_esc_of(int pattern)
{
    return bg_nn3_esc[pattern & 0xFFF];
}

/* 36 minus the fewest escapes past the made points `made` (in the numbering
 * of the side that made them) of a checker of the other side on any of the
 * maker's points 1..10, which moves up that numbering. */
static inline int bg_nn3_contain(uint32_t made)
{
    int t, low = 36;
    for (t = 1; t <= 10; t++) {
        int e = bg_nn3_esc[(made >> (t + 1)) & 0xFFFu];
        if (e < low) low = e;
    }
    return 36 - low;
}

/* Rolls (of 36) with which the hitter (checkers ymask, ybar on the bar,
 * landing off `closed`, its numbering) reaches two or more of `blots`,
 * from bg_nn2_landings (t & (t - 1) is nonzero when t has two or more bits). */
static inline int bg_nn3_dshots(uint32_t ymask, int ybar, uint32_t closed, uint32_t blots)
{
    uint32_t land[21];
    int k, n = 0;
    if (!(blots & (blots - 1u))) return 0;
    bg_nn2_landings(ymask, ybar, closed, land);
    for (k = 0; k < 21; k++) {
        uint32_t t = land[k] & blots;
        n += (k < 15 ? 2 : 1) * ((t & (t - 1u)) != 0);
    }
    return n;
}

/* Double shots of both sides, as two bg_nn3_dshots calls (side 0's blots hit
 * by checkers ym0 off closed0, side 1's by ym1 off closed1) into out[0..1].
 * With SSE2, when neither hitter is on the bar and both sides have two blots
 * or more, the 21 rolls run once for both sides in two 32-bit lanes
 * (bg_nn2_landings_lanes).  Otherwise the scalar function, side by side. */
static inline void bg_nn3_dshots_both(uint32_t ym0, int ybar0, uint32_t closed0, uint32_t blots0,
                                      uint32_t ym1, int ybar1, uint32_t closed1, uint32_t blots1,
                                      int *out)
{
#ifdef BG_SSE2
    if (!ybar0 && !ybar1 && (blots0 & (blots0 - 1u)) && (blots1 & (blots1 - 1u))) {
        const __m128i B = _mm_setr_epi32((int)blots0, (int)blots1, 0, 0);
        const __m128i z = _mm_setzero_si128(), one = _mm_set1_epi32(1);
        __m128i land[21], few2 = z, few1 = z;
        int32_t f2[4], f1[4];
        int k;
        bg_nn2_landings_lanes(_mm_setr_epi32((int)ym0, (int)ym1, 0, 0),
                              _mm_setr_epi32((int)(~closed0 & 0x1FFFFFEu),
                                             (int)(~closed1 & 0x1FFFFFEu), 0, 0), land);
        /* a roll reaching fewer than two blots counts -1 */
#define BG_NN3_FEW(k) _mm_cmpeq_epi32(_mm_and_si128(_mm_and_si128(land[k], B), \
                                      _mm_sub_epi32(_mm_and_si128(land[k], B), one)), z)
        for (k = 0; k < 15; k++) few2 = _mm_add_epi32(few2, BG_NN3_FEW(k));
        for (; k < 21; k++) few1 = _mm_add_epi32(few1, BG_NN3_FEW(k));
#undef BG_NN3_FEW
        _mm_storeu_si128((__m128i *)f2, few2);
        _mm_storeu_si128((__m128i *)f1, few1);
        /* 15 non-doubles (weight 2) and 6 doubles */
        out[0] = 2 * (15 + f2[0]) + (6 + f1[0]);
        out[1] = 2 * (15 + f2[1]) + (6 + f1[1]);
        return;
    }
#endif
    out[0] = bg_nn3_dshots(ym0, ybar0, closed0, blots0);
    out[1] = bg_nn3_dshots(ym1, ybar1, closed1, blots1);
}

/* The pips X must move to take every checker past Y's rearmost checker
 * (brk_x), and the same of Y (brk_y); both 0 when either side has no
 * checker on the board.  rear_x and rear_y: each side's rearmost point in its
 * own numbering (bar 25).  With Y's rearmost at our point r = 25 - rear_y,
 * brk_x sums (i - r) x X's checkers over our points i > r; Y's checker on
 * our point i is rear_x - i pips short of passing X's rearmost, so brk_y
 * sums (rear_x - i) x Y's checkers over i < rear_x.  With SSE2: both sums
 * over the 26 cells at once, two overlapping 16-byte loads as int16 lanes
 * (integer sums: the same as the loops). */
static inline void bg_nn3_break(const int8_t *b, int rear_x, int rear_y, int *brk_x, int *brk_y)
{
    int x = 0, y = 0;
    if (rear_x && rear_y) {
        int r = 25 - rear_y;
#ifdef BG_SSE2
        const __m128i z = _mm_setzero_si128();
        const __m128i R = _mm_set1_epi16((int16_t)r), Q = _mm_set1_epi16((int16_t)rear_x);
        __m128i sx = z, sy = z;
        int32_t lx[4], ly[4];
        int k;
        for (k = 0; k < 2; k++) {
            /* cells 0..15, then 10..25 with lanes 10..15 (seen already) weighing 0 */
            const __m128i v = _mm_loadu_si128((const __m128i *)(b + 10 * k));
            __m128i half[2], idx[2];
            int j;
            half[0] = _mm_srai_epi16(_mm_unpacklo_epi8(v, v), 8);
            half[1] = _mm_srai_epi16(_mm_unpackhi_epi8(v, v), 8);
            idx[0] = k ? _mm_setr_epi16(-99, -99, -99, -99, -99, -99, 16, 17)
                       : _mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7);
            idx[1] = k ? _mm_setr_epi16(18, 19, 20, 21, 22, 23, 24, 25)
                       : _mm_setr_epi16(8, 9, 10, 11, 12, 13, 14, 15);
            for (j = 0; j < 2; j++) {
                /* -99 marks a lane already counted: both of its weights are 0 */
                __m128i seen = _mm_cmpeq_epi16(idx[j], _mm_set1_epi16(-99));
                __m128i wx = _mm_max_epi16(_mm_sub_epi16(idx[j], R), z);
                __m128i wy = _mm_andnot_si128(seen, _mm_max_epi16(_mm_sub_epi16(Q, idx[j]), z));
                sx = _mm_add_epi32(sx, _mm_madd_epi16(_mm_max_epi16(half[j], z), wx));
                sy = _mm_add_epi32(sy, _mm_madd_epi16(_mm_max_epi16(_mm_sub_epi16(z, half[j]), z), wy));
            }
        }
        _mm_storeu_si128((__m128i *)lx, sx);
        _mm_storeu_si128((__m128i *)ly, sy);
        x = lx[0] + lx[1] + lx[2] + lx[3];
        y = ly[0] + ly[1] + ly[2] + ly[3];
#else
        int p;
        for (p = r + 1; p <= 25; p++) x += (p - r) * (b[p] > 0 ? b[p] : 0);
        for (p = 0; p < rear_x; p++) y += (rear_x - p) * (b[p] < 0 ? -b[p] : 0);
#endif
    }
    *brk_x = x;
    *brk_y = y;
}

/* The 14 features of encoding 3 of board b (the side on roll, then the
 * opponent) from its scan. */
static inline void bg_nn3_features(const int8_t *b, const bg_nn_scan_t *s, float *f)
{
    float *g = f + BG_NN3_PER_SIDE;
    int bar_x = b[BG_BAR] > 0 ? b[BG_BAR] : 0, bar_y = b[0] < 0 ? -b[0] : 0;
    int kx = bg_popcount(s->own_made & 0x7Eu);          /* X's made home points */
    int ky = bg_popcount(s->opp_made & 0x1F80000u);     /* Y's, our 19..24 */
    int rear_x = s->own ? bg_highbit(s->own) : 0;       /* our numbering, 25 = bar */
    int rear_y = s->opp ? bg_highbit(s->opp) : 0;       /* its numbering */
    int brk_x, brk_y, c, c2[2];
    c = bg_nn3_contain(s->own_made);
    f[0] = (float)c * (1.0f / 36.0f);
    f[1] = f[0] * f[0];
    c = bg_nn3_contain(bg_nn_rev26(s->opp_made));
    g[0] = (float)c * (1.0f / 36.0f);
    g[1] = g[0] * g[0];
    f[2] = bar_x ? (float)(ky * ky) * (1.0f / 36.0f) : 0.0f;
    f[3] = bar_x >= 2 ? 1.0f - (float)((6 - ky) * (6 - ky)) * (1.0f / 36.0f) : 0.0f;
    g[2] = bar_y ? (float)(kx * kx) * (1.0f / 36.0f) : 0.0f;
    g[3] = bar_y >= 2 ? 1.0f - (float)((6 - kx) * (6 - kx)) * (1.0f / 36.0f) : 0.0f;
    bg_nn3_break(b, rear_x, rear_y, &brk_x, &brk_y);
    f[4] = (float)brk_x * (1.0f / 150.0f);
    g[4] = (float)brk_y * (1.0f / 150.0f);
    f[5] = (float)rear_x * (1.0f / 25.0f);
    g[5] = (float)rear_y * (1.0f / 25.0f);
    bg_nn3_dshots_both(s->opp & 0x1FFFFFEu, bar_y, s->own_made_t, s->own_blot_t,
                       s->own & 0x1FFFFFEu, bar_x, s->opp_made, s->opp_blot, c2);
    f[6] = (float)c2[0] * (1.0f / 36.0f);
    g[6] = (float)c2[1] * (1.0f / 36.0f);
}

#endif /* BGCORE_NNFEAT3_H */
