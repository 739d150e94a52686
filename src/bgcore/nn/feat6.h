/*
 * nn/feat6.h -- part of the neural evaluator (included by nn.h, never alone).
 * Encoding 6: encoding 5's binary inputs with more feature counts, for the
 * integer first layer (nn/quant.h).
 *
 * The board's inputs are encoding 5's (nn/feat5.h: a unit for each count
 * 1..15 of each side's points, bar and borne-off checkers).  Then eleven
 * feature counts a side, the side on roll (X) first, each one-hot over its
 * values 1..max (0 sets nothing), in X's numbering for X's and Y's for Y's:
 *
 *   k  name      max  value
 *   0  hits       36  rolls with which X hits a Y blot (encoding 1)
 *   1  escapes    36  rolls that take X's rearmost checker past Y's blockade
 *   2  run         7  X's longest run of made points (longer count 7)
 *   3  contain    36  X's blockade: 36 minus the fewest escapes of a Y checker
 *                     on any of X's points 1..10 (encoding 3's contain x 36)
 *   4  bar        14  with X on the bar: 1 + k, k Y's made home points, + 7
 *                     with two or more there (encoding 3's dance and dance2)
 *   5  break      60  pips X must move to take every checker past Y's
 *                     rearmost checker, / 6 rounded up (encoding 3's break)
 *   6  rear       25  X's rearmost checker's point (bar 25)
 *   7  dshots     36  rolls with which Y reaches two or more X blots
 *   8  cross      40  race only: crossovers to bring X's checkers home
 *   9  turns      80  race only: 1 + 4 x the expected turns to bear off X's
 *                     checkers gathered (encoding 4's turns), rounded
 *  10  first      24  race only, X not saved: 4 x the expected turns to bear
 *                     off a first checker, rounded, at least 1
 *
 * The sums over the whole board (blockades, timing, the bear-off) that a net
 * is slow to learn from point-by-point inputs, as integers a play changes
 * as often as it changes them, so move choice keeps its few column adds.
 * The race counts need encoding 4's bear-off means (bg_nn4_init).
 */
#ifndef BGCORE_NN_FEAT6_H
#define BGCORE_NN_FEAT6_H

#define BG_NN6_PER_SIDE 11
#define BG_NN6_FEAT_SIDE (36 + 36 + 7 + 36 + 14 + 60 + 25 + 36 + 40 + 80 + 24)
#define BG_NN_NFEAT6 (2 * BG_NN6_PER_SIDE)
#define BG_NN_NIN6 (BG_NN5_RAW + 2 * BG_NN6_FEAT_SIDE)

/* The first input of each count's block within a side's (the maxima above, summed). */
static const int16_t bg_nn6_base[BG_NN6_PER_SIDE] = {0, 36, 72, 79, 115, 129, 189, 214, 250,
                                                     290, 370};
static const bg_nn_counts bg_nn6_counts = {BG_NN6_PER_SIDE, BG_NN6_FEAT_SIDE, bg_nn6_base};

static inline int bg_nn6_clamp(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* The three race counts of one side from its checkers c[1..25] (its
 * numbering, 25 = bar), as encoding 4 measures them. */
static inline void bg_nn6_race_side(const int *c, float *f)
{
    int n, outside, cross, idx = bg_nn4_gather(c, &n, &outside, &cross);
    f[0] = (float)(cross < 40 ? cross : 40);
    /* rounded half up (the means are positive) */
    f[1] = (float)(1 + bg_nn6_clamp((int)(4.0f * bg_nn4_mean[idx] + 0.5f), 0, 79));
    f[2] = n < BG_MAXCHK ? 0.0f
         : (float)bg_nn6_clamp((int)(4.0f * bg_nn4_mean_first[idx] + 0.5f), 1, 24);
}

/* The 22 feature counts (as floats, exact) of board b from its scan: the
 * side on roll's eleven, then the opponent's. */
static inline void bg_nn6_features(const int8_t *b, const bg_nn_scan_t *s, float *f)
{
    float *g = f + BG_NN6_PER_SIDE;
    int se[4], ds[2], brk_x, brk_y;
    int bar_x = b[BG_BAR] > 0 ? b[BG_BAR] : 0, bar_y = b[0] < 0 ? -b[0] : 0;
    int kx = bg_popcount(s->own_made & 0x7Eu);          /* X's made home points */
    int ky = bg_popcount(s->opp_made & 0x1F80000u);     /* Y's, our 19..24 */
    int rear_x = s->own ? bg_highbit(s->own) : 0;       /* our numbering, 25 = bar */
    int rear_y = s->opp ? bg_highbit(s->opp) : 0;       /* its numbering */
    int r0 = bg_nn_run(s->own_made), r1 = bg_nn_run(s->opp_made);
    bg_nn_shots_escapes(s, se);
    f[0] = (float)se[0];
    f[1] = (float)se[1];
    f[2] = (float)(r0 < 7 ? r0 : 7);
    g[0] = (float)se[2];
    g[1] = (float)se[3];
    g[2] = (float)(r1 < 7 ? r1 : 7);
    f[3] = (float)bg_nn3_contain(s->own_made);
    g[3] = (float)bg_nn3_contain(bg_nn_rev26(s->opp_made));
    f[4] = bar_x ? (float)(1 + ky + (bar_x >= 2 ? 7 : 0)) : 0.0f;
    g[4] = bar_y ? (float)(1 + kx + (bar_y >= 2 ? 7 : 0)) : 0.0f;
    bg_nn3_break(b, rear_x, rear_y, &brk_x, &brk_y);
    f[5] = (float)bg_nn6_clamp((brk_x + 5) / 6, 0, 60);
    g[5] = (float)bg_nn6_clamp((brk_y + 5) / 6, 0, 60);
    f[6] = (float)rear_x;
    g[6] = (float)rear_y;
    bg_nn3_dshots_both(s->opp & 0x1FFFFFEu, bar_y, s->own_made_t, s->own_blot_t,
                       s->own & 0x1FFFFFEu, bar_x, s->opp_made, s->opp_blot, ds);
    f[7] = (float)ds[0];
    g[7] = (float)ds[1];
    if (bg_nn_scan_race(s)) {
        bg_nn2_sides v;
        bg_nn2_split(b, &v);
        bg_nn6_race_side(v.cx, f + 8);
        bg_nn6_race_side(v.cy, g + 8);
    } else {
        f[8] = f[9] = f[10] = g[8] = g[9] = g[10] = 0.0f;
    }
}

/* The set inputs of board b (scanned as s); f receives the feature counts. */
static inline int bg_nn6_encode(const int8_t *b, const bg_nn_scan_t *s, int16_t *idx, float *val,
                                float *f)
{
    bg_nn6_features(b, s, f);
    return bg_nn_binary_encode(&bg_nn6_counts, b, s, f, idx, val);
}

/* The inputs that change from base b0 (its counts bf) to board e (its counts into f). */
static inline int bg_nn6_delta(const int8_t *b0, const bg_nn_scan_t *s0, const float *bf,
                               const int8_t *e, const bg_nn_scan_t *es, float *f,
                               int16_t *idx, float *val)
{
    bg_nn6_features(e, es, f);
    return bg_nn_binary_delta(&bg_nn6_counts, b0, s0, bf, e, es, f, idx, val);
}

#endif /* BGCORE_NN_FEAT6_H */
