/*
 * nn/feat4.h -- the race inputs of encoding 4 (included by nn/features.h).
 *
 * Encoding 4 is encoding 3 followed by five inputs a side, first of the side
 * on roll (X), then of its opponent (Y), which are 0 unless the position is
 * a race (no contact: bg_nn_scan_race), so the contact and crashed nets
 * never see them and pay nothing for them.  Each side's are its own, counted
 * in its own numbering (docs/nn.md lists them):
 *
 *   0 saved     1 once the side has borne off a checker (no gammon can be lost)
 *   1 cross     crossovers to bring every checker home: a checker on point p
 *               crosses (p - 1) / 6 quarter boundaries (bar: 4) / 10
 *   2 outside   checkers outside the home board (points 7..25) / 15
 *   3 turns     the expected turns to bear off all its checkers once
 *               gathered: its home board with every outside checker put on
 *               the 6-point, from the one-sided bear-off database / 10
 *   4 first     the same position's expected turns to bear off a first
 *               checker, playing for it (0 when saved) / 3
 *
 * With the pips still to bring home (encoding 2's timing) the gathered
 * position gives a side's bear-off as the database sees it: the wastage of
 * gaps and stacks, and for the gammon races how far the trailer is from
 * saving the gammon: sums over the whole board that a net is slow to learn
 * from the point-by-point inputs.
 *
 * The database's two tables of means come from bg_nn4_init, called once
 * (the Python layer builds the database first) before any evaluation in
 * encoding 4.
 */
#ifndef BGCORE_NNFEAT4_H
#define BGCORE_NNFEAT4_H

#include "bearoff.h"

#define BG_NN4_PER_SIDE 5

static const float *bg_nn4_mean = NULL;         /* bg_bearoff.mean: turns to bear off all */
static const float *bg_nn4_mean_first = NULL;   /* bg_bearoff.mean_first: turns to a first checker off */

static inline void bg_nn4_init(const bg_bearoff *db)
{
    bg_nn4_mean = db->mean;
    bg_nn4_mean_first = db->mean_first;
}

/* One side's checkers c[1..25] (its numbering, 25 = bar) gathered home as the
 * race inputs see them: how many (n), how many outside the home board, the
 * crossovers to bring those home; returns the one-sided database's index of the
 * home board with every outside checker put on the 6-point (encoding 6 shares it). */
static inline int bg_nn4_gather(const int *c, int *n, int *outside, int *cross)
{
    int8_t home[6];
    int p;
    *n = *outside = *cross = 0;
    for (p = 1; p <= 6; p++) { home[p - 1] = (int8_t)c[p]; *n += c[p]; }
    for (p = 7; p <= 25; p++) {
        *outside += c[p];
        *cross += c[p] * (p == 25 ? 4 : (p - 1) / 6);
    }
    *n += *outside;
    home[5] = (int8_t)(home[5] + *outside);
    return bg_bearoff_index(home);
}

/* The five inputs of one side from its checkers c[1..25] (its numbering, 25 = bar). */
static inline void bg_nn4_side(const int *c, float *f)
{
    int n, outside, cross, idx = bg_nn4_gather(c, &n, &outside, &cross);
    f[0] = n < BG_MAXCHK ? 1.0f : 0.0f;
    f[1] = (float)cross * 0.1f;
    f[2] = (float)outside * (1.0f / 15.0f);
    f[3] = bg_nn4_mean[idx] * 0.1f;
    f[4] = n < BG_MAXCHK ? 0.0f : bg_nn4_mean_first[idx] * (1.0f / 3.0f);
}

/* The 10 race inputs of board b (the side on roll, then the opponent) from
 * its scan: all 0 in a contact position. */
static inline void bg_nn4_features(const int8_t *b, const bg_nn_scan_t *s, float *f)
{
    bg_nn2_sides v;
    int p;
    if (!bg_nn_scan_race(s)) {
        for (p = 0; p < 2 * BG_NN4_PER_SIDE; p++) f[p] = 0.0f;
        return;
    }
    bg_nn2_split(b, &v);
    bg_nn4_side(v.cx, f);
    bg_nn4_side(v.cy, f + BG_NN4_PER_SIDE);
}

#endif /* BGCORE_NNFEAT4_H */
