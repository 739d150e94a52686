/*
 * encode.h -- observation encoders of a board as float inputs, plain C.
 *
 * Every encoder reads a board in the library's convention (26 signed bytes
 * seen from the player on roll, movegen.h) and writes a fixed number of
 * floats.  The unit-by-unit definitions are in docs/env.md; in short:
 *
 *   BG_ENC_TESAURO    198  Tesauro's TD-Gammon inputs (1992): per side 24
 *                          points x 4 units (n>=1, n>=2, n>=3, (n-3)/2),
 *                          bar/2, off/15; then two turn units.  Both sides
 *                          index points in seat 0's numbering.
 *   BG_ENC_OPENSPIEL  200  OpenSpiel's backgammon observation tensor for the
 *                          player on roll: per side 24 x 4 units (n==1, n==2,
 *                          n==3, n-3), then bar, off, on-roll flag for each
 *                          side and the two dice, lower first.  Points in OpenSpiel's
 *                          absolute positions (X: 24 - point, O: point - 1).
 *   BG_ENC_PGX         34  Pgx's observation: 24 signed point counts from the
 *                          mover's 24 point down to its 1 point, own bar,
 *                          -opponent's bar, own off, -opponent's off, then
 *                          the number of dice of each value left to play.
 *   BG_ENC_NET     NN_NIN  the bundled nets' own inputs (nn.h, dense).
 *
 * `seat` (0 or 1) is the seat of the player on roll: it fixes the absolute
 * orientation of the Tesauro and OpenSpiel encodings (seat 0 is Tesauro's
 * first side and OpenSpiel's X).  `left` holds how many dice of each value
 * 1..6 (left[1..6]) are still to be played, for Pgx.  No Python, no
 * allocation: safe without the GIL from any number of threads.
 */
#ifndef BGCORE_ENCODE_H
#define BGCORE_ENCODE_H

#include <stdint.h>
#include <string.h>

#include "movegen.h"
#include "nn.h"

#define BG_ENC_TESAURO 0
#define BG_ENC_OPENSPIEL 1
#define BG_ENC_PGX 2
#define BG_ENC_NET 3
#define BG_ENC_KINDS 4

static inline int bg_enc_size(int kind)
{
    switch (kind) {
    case BG_ENC_TESAURO: return 198;
    case BG_ENC_OPENSPIEL: return 200;
    case BG_ENC_PGX: return 34;
    case BG_ENC_NET: return BG_NN_NIN;
    default: return -1;
    }
}

/* Checkers borne off by the mover and by the opponent. */
static inline void bg_enc_off(const int8_t *b, int *own_off, int *opp_off)
{
    int p, own = 0, opp = 0;
    for (p = 0; p < BG_NPTS; p++) {
        if (b[p] > 0) own += b[p];
        else opp -= b[p];
    }
    *own_off = BG_MAXCHK - own;
    *opp_off = BG_MAXCHK - opp;
}

/* The four units of 0..15 checkers on a point, looked up: the comparisons of the
 * formulas below cost branch mispredictions in the vector env's hot loop.  The
 * values are the formulas' (n - 3 and halves are exact in float); more than 15
 * checkers (a board only encode() could be handed) take the formulas. */
#define BG_TES4(n) {1.0f, 1.0f, 1.0f, (float)((n) - 3) * 0.5f}
static const float bg_tesauro_units[16][4] = {
    {0.0f, 0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 0.0f, 0.0f},
    {1.0f, 1.0f, 1.0f, 0.0f}, BG_TES4(4), BG_TES4(5), BG_TES4(6), BG_TES4(7), BG_TES4(8),
    BG_TES4(9), BG_TES4(10), BG_TES4(11), BG_TES4(12), BG_TES4(13), BG_TES4(14), BG_TES4(15)};
#undef BG_TES4
#define BG_OS4(n) {0.0f, 0.0f, 0.0f, (float)((n) - 3)}
static const float bg_openspiel_units[16][4] = {
    {0.0f, 0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f, 0.0f},
    {0.0f, 0.0f, 1.0f, 0.0f}, BG_OS4(4), BG_OS4(5), BG_OS4(6), BG_OS4(7), BG_OS4(8),
    BG_OS4(9), BG_OS4(10), BG_OS4(11), BG_OS4(12), BG_OS4(13), BG_OS4(14), BG_OS4(15)};
#undef BG_OS4

/* Tesauro's four units for n checkers on a point. */
static inline void bg_enc_tesauro_point(int n, float *u)
{
    if ((unsigned)n < 16) {
        memcpy(u, bg_tesauro_units[n], sizeof bg_tesauro_units[n]);
        return;
    }
    u[0] = n >= 1 ? 1.0f : 0.0f;
    u[1] = n >= 2 ? 1.0f : 0.0f;
    u[2] = n >= 3 ? 1.0f : 0.0f;
    u[3] = n > 3 ? (float)(n - 3) * 0.5f : 0.0f;
}

static inline void bg_enc_tesauro(const int8_t *b, int seat, float *out)
{
    /* side s (0: seat 0) starts at out + 98 s; absolute index i = seat 0's point i + 1 */
    float *mover = out + (seat ? 98 : 0), *opp = out + (seat ? 0 : 98);
    int p, own_off, opp_off;
    for (p = 1; p <= 24; p++) {
        int i = seat ? 24 - p : p - 1;      /* the mover's point p, absolute */
        int j = seat ? p - 1 : 24 - p;      /* the opponent's point p (its own numbering) */
        bg_enc_tesauro_point(b[p] > 0 ? b[p] : 0, mover + 4 * i);
        bg_enc_tesauro_point(b[25 - p] < 0 ? -b[25 - p] : 0, opp + 4 * j);
    }
    bg_enc_off(b, &own_off, &opp_off);
    mover[96] = (float)b[BG_BAR] * 0.5f;
    mover[97] = (float)own_off / 15.0f;
    opp[96] = (float)(-b[0]) * 0.5f;
    opp[97] = (float)opp_off / 15.0f;
    out[196] = seat ? 0.0f : 1.0f;
    out[197] = seat ? 1.0f : 0.0f;
}

/* OpenSpiel's four units for n checkers on a point. */
static inline void bg_enc_openspiel_point(int n, float *u)
{
    if ((unsigned)n < 16) {
        memcpy(u, bg_openspiel_units[n], sizeof bg_openspiel_units[n]);
        return;
    }
    u[0] = n == 1 ? 1.0f : 0.0f;
    u[1] = n == 2 ? 1.0f : 0.0f;
    u[2] = n == 3 ? 1.0f : 0.0f;
    u[3] = n > 3 ? (float)(n - 3) : 0.0f;
}

static inline void bg_enc_openspiel(const int8_t *b, int seat, int d1, int d2, float *out)
{
    int p, own_off, opp_off;
    for (p = 1; p <= 24; p++) {
        /* absolute position of the mover's point p: X counts 24 -> pos 0 */
        int pos = seat ? p - 1 : 24 - p;
        bg_enc_openspiel_point(b[p] > 0 ? b[p] : 0, out + 4 * pos);
        bg_enc_openspiel_point(b[p] < 0 ? -b[p] : 0, out + 96 + 4 * pos);
    }
    bg_enc_off(b, &own_off, &opp_off);
    out[192] = (float)b[BG_BAR];
    out[193] = (float)own_off;
    out[194] = 1.0f;
    out[195] = (float)(-b[0]);
    out[196] = (float)opp_off;
    out[197] = 0.0f;
    out[198] = (float)(d1 < d2 ? d1 : d2);   /* OpenSpiel shows the lower die first */
    out[199] = (float)(d1 < d2 ? d2 : d1);
}

static inline void bg_enc_pgx(const int8_t *b, const uint8_t *left, float *out)
{
    int i, own_off, opp_off;
    for (i = 0; i < 24; i++) out[i] = (float)b[24 - i];
    bg_enc_off(b, &own_off, &opp_off);
    out[24] = (float)b[BG_BAR];
    out[25] = (float)b[0];
    out[26] = (float)own_off;
    out[27] = (float)(-opp_off);
    for (i = 0; i < 6; i++) out[28 + i] = left ? (float)left[i + 1] : 0.0f;
}

static inline void bg_enc_net(const int8_t *b, float *out)
{
    int16_t idx[BG_NN_MAXNZ];
    float val[BG_NN_MAXNZ];
    int n = bg_nn_encode(b, idx, val), i;
    memset(out, 0, sizeof(float) * BG_NN_NIN);
    for (i = 0; i < n; i++) out[idx[i]] = val[i];
}

/* The dice still to play at the start of a turn of (d1, d2), by value. */
static inline void bg_enc_left(int d1, int d2, uint8_t *left)
{
    memset(left, 0, 7);
    if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6) return;
    if (d1 == d2) left[d1] = 4;
    else { left[d1] = 1; left[d2] = 1; }
}

/*
 * Writes bg_enc_size(kind) floats.  d1, d2: the dice (0, 0 before a roll);
 * left: dice still to play by value (NULL: all of d1, d2).  Returns 0, or
 * -1 for an unknown kind.
 */
static inline int bg_encode(int kind, const int8_t *b, int seat, int d1, int d2,
                            const uint8_t *left, float *out)
{
    uint8_t fresh[7];
    switch (kind) {
    case BG_ENC_TESAURO: bg_enc_tesauro(b, seat, out); return 0;
    case BG_ENC_OPENSPIEL: bg_enc_openspiel(b, seat, d1, d2, out); return 0;
    case BG_ENC_PGX:
        if (!left) { bg_enc_left(d1, d2, fresh); left = fresh; }
        bg_enc_pgx(b, left, out);
        return 0;
    case BG_ENC_NET: bg_enc_net(b, out); return 0;
    default: return -1;
    }
}

#endif /* BGCORE_ENCODE_H */
