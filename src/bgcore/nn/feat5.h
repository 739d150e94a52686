/*
 * nn/feat5.h -- part of the neural evaluator (included by nn.h, never alone).
 * Encoding 5: binary inputs only, one-hot, for the integer first layer (nn/quant.h).
 *
 * Every input is 0 or 1, and each group of inputs has at most one set:
 *   - a side's point p (1..24 in its own numbering), its bar (slot 24) and
 *     the checkers it has borne off (slot 25): one unit for each count 1..15
 *     (slot x 15 + count - 1); the side on roll first, then the opponent
 *     (BG_NN5_SIDE inputs each);
 *   - encoding 1's features as counts, a side each: the rolls that hit a
 *     blot (1..36), that take the rearmost checker past the blockade
 *     (1..36), and the longest run of made points (1..7, longer ones count 7).
 * So a position sets about 20 inputs, a play changes a few, and a layer's
 * sums are sums of weight columns with no multiply.  Any function of one
 * point's count (the pip count among them) is linear in these inputs.
 */
#ifndef BGCORE_NN_FEAT5_H
#define BGCORE_NN_FEAT5_H

#define BG_NN5_SIDE (26 * 15)            /* 24 points, the bar, borne off: 15 counts each */
#define BG_NN5_RAW (2 * BG_NN5_SIDE)
#define BG_NN5_HITS 0                    /* a side's feature block: hits 1..36 */
#define BG_NN5_ESCAPES 36                /* escapes 1..36 */
#define BG_NN5_RUN 72                    /* longest run 1..7 */
#define BG_NN5_RUNMAX 7
#define BG_NN5_FEAT_SIDE (72 + BG_NN5_RUNMAX)
#define BG_NN_NFEAT5 6                   /* the feature counts: hits, escapes, run; a side each */
#define BG_NN_NIN5 (BG_NN5_RAW + 2 * BG_NN5_FEAT_SIDE)

/* The six feature counts (as floats, exact): hits, escapes and run of the
 * side on roll, then the same of the opponent. */
static inline void bg_nn5_features(const bg_nn_scan_t *s, float *f)
{
    int se[4], r0 = bg_nn_run(s->own_made), r1 = bg_nn_run(s->opp_made);
    bg_nn_shots_escapes(s, se);
    f[0] = (float)se[0];
    f[1] = (float)se[1];
    f[2] = (float)(r0 < BG_NN5_RUNMAX ? r0 : BG_NN5_RUNMAX);
    f[3] = (float)se[2];
    f[4] = (float)se[3];
    f[5] = (float)(r1 < BG_NN5_RUNMAX ? r1 : BG_NN5_RUNMAX);
}

/* The input set by board cell i (0..25) holding v != 0 checkers. */
static inline int16_t bg_nn5_cell_input(int i, int v)
{
    if (v > 0) return (int16_t)((i == BG_BAR ? 24 : i - 1) * 15 + v - 1);
    return (int16_t)(BG_NN5_SIDE + (i == 0 ? 24 : 24 - i) * 15 - v - 1);   /* their point 25 - i */
}

/* The input of a side's borne-off count off >= 1 (side 0: on roll). */
static inline int16_t bg_nn5_off_input(int side, int off)
{
    return (int16_t)(side * BG_NN5_SIDE + 25 * 15 + off - 1);
}

/* The set inputs of board b's cells and borne-off checkers (scanned as s),
 * ascending (encoding 6 shares them).  Returns how many. */
static inline int bg_nn5_encode_board(const int8_t *b, const bg_nn_scan_t *s, int16_t *idx)
{
    int i, n = 0, own_off = BG_MAXCHK - s->own_count, opp_off = BG_MAXCHK - s->opp_count;
    uint32_t cells = s->own;
    while (cells) {                       /* own cells 1..25, ascending */
        i = bg_ctz(cells);
        cells &= cells - 1;
        idx[n++] = bg_nn5_cell_input(i, b[i]);
    }
    if (own_off) idx[n++] = bg_nn5_off_input(0, own_off);
    cells = s->opp;                       /* their points 1..25 in their numbering, ascending */
    while (cells) {
        i = bg_ctz(cells);
        cells &= cells - 1;
        idx[n++] = bg_nn5_cell_input(25 - i, b[25 - i]);
    }
    if (opp_off) idx[n++] = bg_nn5_off_input(1, opp_off);
    return n;
}

/* The cell and borne-off inputs that change from base b0 (scanned as s0)
 * to board e (scanned as es): (input, -1) for each unit cleared, (input,
 * +1) for each set (encoding 6 shares them).  Returns how many. */
static inline int bg_nn5_delta_board(const int8_t *b0, const bg_nn_scan_t *s0, const int8_t *e,
                                     const bg_nn_scan_t *es, int16_t *idx, float *val)
{
    int i, n = 0;
    uint32_t diff;
    int off0 = BG_MAXCHK - s0->own_count, off1 = BG_MAXCHK - es->own_count;
    int opp0 = BG_MAXCHK - s0->opp_count, opp1 = BG_MAXCHK - es->opp_count;
    for (diff = bg_nn_changed_cells(e, b0); diff; diff &= diff - 1) {   /* ascending */
        i = bg_ctz(diff);
        if (b0[i]) { idx[n] = bg_nn5_cell_input(i, b0[i]); val[n++] = -1.0f; }
        if (e[i]) { idx[n] = bg_nn5_cell_input(i, e[i]); val[n++] = 1.0f; }
    }
    if (off0 != off1) {
        if (off0) { idx[n] = bg_nn5_off_input(0, off0); val[n++] = -1.0f; }
        if (off1) { idx[n] = bg_nn5_off_input(0, off1); val[n++] = 1.0f; }
    }
    if (opp0 != opp1) {
        if (opp0) { idx[n] = bg_nn5_off_input(1, opp0); val[n++] = -1.0f; }
        if (opp1) { idx[n] = bg_nn5_off_input(1, opp1); val[n++] = 1.0f; }
    }
    return n;
}

/* Where a binary encoding (5 or 6) puts its feature counts, after both sides'
 * board inputs: `per` counts a side, the side on roll's first, each one-hot
 * over its values 1..max in a block starting at base[] within the side's
 * `side` inputs (a count of 0 sets nothing). */
typedef struct {
    int per, side;
    const int16_t *base;
} bg_nn_counts;

/* The input of count k (0 .. 2 per - 1) at value v >= 1. */
static inline int16_t bg_nn_count_input(const bg_nn_counts *c, int k, int v)
{
    int s = k >= c->per;
    return (int16_t)(BG_NN5_RAW + s * c->side + c->base[k - s * c->per] + v - 1);
}

/* The set inputs of board b (scanned as s) whose counts are f, ascending,
 * their values 1.  Returns how many. */
static inline int bg_nn_binary_encode(const bg_nn_counts *c, const int8_t *b,
                                      const bg_nn_scan_t *s, const float *f, int16_t *idx,
                                      float *val)
{
    int i, n = bg_nn5_encode_board(b, s, idx), k;
    for (k = 0; k < 2 * c->per; k++)
        if (f[k] != 0.0f) idx[n++] = bg_nn_count_input(c, k, (int)f[k]);
    for (i = 0; i < n; i++) val[i] = 1.0f;
    return n;
}

/* The inputs that change from base b0 (its counts bf, scanned as s0) to
 * board e (its counts f, scanned as es): the board's, then the counts'.
 * Returns how many. */
static inline int bg_nn_binary_delta(const bg_nn_counts *c, const int8_t *b0,
                                     const bg_nn_scan_t *s0, const float *bf, const int8_t *e,
                                     const bg_nn_scan_t *es, const float *f, int16_t *idx,
                                     float *val)
{
    int n = bg_nn5_delta_board(b0, s0, e, es, idx, val), k;
    for (k = 0; k < 2 * c->per; k++) {
        if (f[k] == bf[k]) continue;
        if (bf[k] != 0.0f) { idx[n] = bg_nn_count_input(c, k, (int)bf[k]); val[n++] = -1.0f; }
        if (f[k] != 0.0f) { idx[n] = bg_nn_count_input(c, k, (int)f[k]); val[n++] = 1.0f; }
    }
    return n;
}

static const int16_t bg_nn5_base[3] = {BG_NN5_HITS, BG_NN5_ESCAPES, BG_NN5_RUN};
static const bg_nn_counts bg_nn5_counts = {3, BG_NN5_FEAT_SIDE, bg_nn5_base};

/* The set inputs of board b (scanned as s); f receives the feature counts. */
static inline int bg_nn5_encode(const int8_t *b, const bg_nn_scan_t *s, int16_t *idx, float *val,
                                float *f)
{
    bg_nn5_features(s, f);
    return bg_nn_binary_encode(&bg_nn5_counts, b, s, f, idx, val);
}

/* The inputs that change from base b0 (its counts bf) to board e (its counts into f). */
static inline int bg_nn5_delta(const int8_t *b0, const bg_nn_scan_t *s0, const float *bf,
                               const int8_t *e, const bg_nn_scan_t *es, float *f,
                               int16_t *idx, float *val)
{
    bg_nn5_features(es, f);
    return bg_nn_binary_delta(&bg_nn5_counts, b0, s0, bf, e, es, f, idx, val);
}

#endif /* BGCORE_NN_FEAT5_H */
