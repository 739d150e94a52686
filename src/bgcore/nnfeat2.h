/*
 * nnfeat2.h -- the extra feature inputs of encoding 2 (included by nn.h).
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

/* The points Y may hit (land on) with roll d1-d2 honouring its bar. */
static inline uint32_t bg_nn2_hits(uint32_t ymask, int ybar, uint32_t closed, int d1, int d2)
{
    const uint32_t bar = 1u << 25;
    uint32_t hits = 0;
    int k, left;
    if (d1 != d2) {
        uint32_t e1 = bg_nn2_step(bar, d1, closed), e2 = bg_nn2_step(bar, d2, closed);
        if (ybar == 0) {
            uint32_t r1 = bg_nn2_step(ymask, d1, closed), r2 = bg_nn2_step(ymask, d2, closed);
            return r1 | r2 | bg_nn2_step(r1, d2, closed) | bg_nn2_step(r2, d1, closed);
        }
        if (ybar >= 2) return e1 | e2;
        if (e1) hits |= e1 | bg_nn2_step(ymask | e1, d2, closed);
        if (e2) hits |= e2 | bg_nn2_step(ymask | e2, d1, closed);
        return hits;
    }
    if (ybar == 0) {
        uint32_t r = ymask;
        for (k = 0; k < 4; k++) { r = bg_nn2_step(r, d1, closed); hits |= r; }
        return hits;
    }
    {
        uint32_t e = bg_nn2_step(bar, d1, closed), r;
        if (!e) return 0;
        hits = e;
        left = 4 - (ybar < 4 ? ybar : 4);
        r = ymask | e;
        for (k = 0; k < left; k++) { r = bg_nn2_step(r, d1, closed); hits |= r; }
        return hits;
    }
}

/* The ten features of side X (cx) against Y (cy), into f[0..9]. */
static inline void bg_nn2_side(const int *cx, const int *cy, float *f)
{
    int p, q, anchors = 0, back = 0, timing = 0, home = 0, exposed = 0, shots = 0, loss = 0;
    int rear_y = 0, total = 0, d1, d2;
    uint32_t closed = 0, blots = 0, ymask = 0;      /* Y's numbering */
    uint32_t made = 0;                               /* X's made points, X's numbering */
    for (p = 1; p <= 24; p++) {
        int n = cx[p];
        total += n;
        if (n >= 2) { made |= 1u << p; closed |= 1u << (25 - p); }
        if (n == 1) blots |= 1u << (25 - p);
        if (p >= 19 && n >= 2) anchors++;
        if (p >= 19) back += n;
        if (p > 6) timing += (p - 6) * n;
        if (p <= 6 && n >= 2) home++;
        if (cy[p] > 0) ymask |= 1u << p;
    }
    total += cx[25];
    back += cx[25];
    timing += 19 * cx[25];
    for (q = 25; q >= 1; q--) if (cy[q] > 0) { rear_y = q; break; }
    /* direct range: a Y checker 1..6 points behind the blot (Y's numbering) */
    for (q = 1; q <= 24; q++) {
        int d;
        if (!(blots & (1u << q))) continue;
        for (d = 1; d <= 6 && q + d <= 25; d++)
            if (cy[q + d] > 0) { exposed++; break; }
    }
    for (d1 = 1; d1 <= 6; d1++)
        for (d2 = d1; d2 <= 6; d2++) {
            uint32_t h = bg_nn2_hits(ymask, cy[25], closed, d1, d2) & blots;
            int w = d1 == d2 ? 1 : 2;
            if (h) {
                /* the hit blot farthest along Y's way is nearest X's home:
                   the lowest X point, the highest Y point: X loses 25 - p */
                int yq = bg_highbit(h), xp = 25 - yq;
                shots += w;
                loss += w * (25 - xp);
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

/* The 20 extra features of board b (the side on roll, then the opponent). */
static inline void bg_nn2_features(const int8_t *b, const bg_nn_scan_t *s, float *f)
{
    bg_nn2_sides v;
    int p;
    (void)s;
    for (p = 1; p <= 24; p++) {
        v.cx[p] = b[p] > 0 ? b[p] : 0;
        v.cy[p] = b[25 - p] < 0 ? -b[25 - p] : 0;
    }
    v.cx[0] = v.cy[0] = 0;
    v.cx[25] = b[BG_BAR] > 0 ? b[BG_BAR] : 0;
    v.cy[25] = b[0] < 0 ? -b[0] : 0;
    bg_nn2_side(v.cx, v.cy, f);
    bg_nn2_side(v.cy, v.cx, f + BG_NN2_PER_SIDE);
}

#endif /* BGCORE_NNFEAT2_H */
