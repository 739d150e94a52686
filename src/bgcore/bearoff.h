/*
 * bearoff.h -- the one-sided bear-off database, plain C, no Python.
 *
 * For every position of 0..15 checkers on the six home points of one side
 * (C(21, 6) = 54,264 of them) it stores the distribution of the number of
 * that side's turns to bear off all its checkers (`off`), playing each roll
 * to minimise the expected number of turns, and the distribution of turns
 * to bear off its first checker (`first`), playing each roll to minimise the
 * expected turns to that (the play that saves a gammon).  The plays follow
 * RULES 6 one die at a time (bg_bearoff_steps); the tests check that they are
 * exactly the plays of the core's own generator (bg_generate) for every
 * position and roll.  Ties in the expected turns (to 1e-9) go to the result
 * with the lowest index (the fewest checkers, see bg_bearoff_index).
 *
 * Two one-sided distributions give a race's chances (bg_bearoff_probs): the
 * sides never meet, so their turn counts are independent.  As in gnubg's
 * one-sided databases, each side is assumed to play for `off` when the race
 * is counted and for `first` when a gammon is counted, although one play
 * cannot always serve both (a close and standard approximation).
 *
 * Build once (bg_bearoff_build: about 50 ms on one core here, 14 MB);
 * afterwards the tables are only read, so any number of threads may look up
 * at once.  docs/bearoff.md has the details and the figures.
 */
#ifndef BGCORE_BEAROFF_H
#define BGCORE_BEAROFF_H

#include "movegen.h"

#define BG_BO_NPOS 54264   /* 0..15 checkers on points 1..6 of one side: C(21, 6) */
#define BG_BO_NPOS14 38760 /* positions of 0..14 checkers, C(20, 6): index >= this <=> 15 checkers */
/* Turns 0..31: the longest bear-off takes 30 turns (14 checkers on the
 * 6-point and one on the 4, rolling 2-1 every time), the longest wait for a
 * first checker 10 (15 on the 5-point: a 4 must move 5/1 and a 2 may not
 * bear off from the 1-point while checkers stand higher, RULES 6.3, so 4-2
 * after 4-2 takes none off).  tests/test_bearoff.py checks column 31 is empty. */
#define BG_BO_TURNS 32

typedef struct {
    float *off;        /* [BG_BO_NPOS][BG_BO_TURNS]: P(the side bears off all its checkers in exactly t of its turns) */
    float *first;      /* [BG_BO_NPOS][BG_BO_TURNS]: P(it bears off its first checker in exactly t turns), playing for that goal: saving the gammon */
    float *mean;       /* [BG_BO_NPOS]: expected turns to bear off all (the sum of t * off[t]) */
    float *mean_first; /* [BG_BO_NPOS]: expected turns to bear off the first checker */
} bg_bearoff;

/* C(n, k) for 0 <= n <= 20, 0 <= k <= 6 (0 when k > n). */
static const int32_t BG_BO_CHOOSE[21][7] = {
    {1, 0, 0, 0, 0, 0, 0}, {1, 1, 0, 0, 0, 0, 0}, {1, 2, 1, 0, 0, 0, 0},
    {1, 3, 3, 1, 0, 0, 0}, {1, 4, 6, 4, 1, 0, 0}, {1, 5, 10, 10, 5, 1, 0},
    {1, 6, 15, 20, 15, 6, 1}, {1, 7, 21, 35, 35, 21, 7}, {1, 8, 28, 56, 70, 56, 28},
    {1, 9, 36, 84, 126, 126, 84}, {1, 10, 45, 120, 210, 252, 210},
    {1, 11, 55, 165, 330, 462, 462}, {1, 12, 66, 220, 495, 792, 924},
    {1, 13, 78, 286, 715, 1287, 1716}, {1, 14, 91, 364, 1001, 2002, 3003},
    {1, 15, 105, 455, 1365, 3003, 5005}, {1, 16, 120, 560, 1820, 4368, 8008},
    {1, 17, 136, 680, 2380, 6188, 12376}, {1, 18, 153, 816, 3060, 8568, 18564},
    {1, 19, 171, 969, 3876, 11628, 27132}, {1, 20, 190, 1140, 4845, 15504, 38760},
};

/*
 * The index of a one-sided position, home[0..5] = checkers on points 1..6
 * (each >= 0, sum <= 15): with S_j the checkers on points 7-j..6 (S_1 on
 * the 6-point, S_6 all of them), index = sum_{j=1..6} C(S_j + j - 1, j),
 * the combinatorial number system.  Indices run 0..BG_BO_NPOS-1 (0 = no
 * checkers) and sort positions by (S_6, S_5, ..., S_1): fewer checkers
 * first, then fewer on points 2..6, and so on.  Every legal step lowers
 * some S_j and raises none, so a play always leads to a lower index: the
 * build fills the tables in index order.
 */
static inline int bg_bearoff_index(const int8_t *home)
{
    int j, s = 0, idx = 0;
    for (j = 1; j <= 6; j++) {
        s += home[6 - j];
        idx += BG_BO_CHOOSE[s + j - 1][j];
    }
    return idx;
}

/* The inverse of bg_bearoff_index: home[0..5] of index idx (0..BG_BO_NPOS-1). */
static inline void bg_bearoff_home(int idx, int8_t *home)
{
    int j, a = 20, prev = 0, s[7];
    for (j = 6; j >= 1; j--) {       /* greedy: the largest a_j with C(a_j, j) <= rest */
        while (BG_BO_CHOOSE[a][j] > idx) a--;
        idx -= BG_BO_CHOOSE[a][j];
        s[j] = a - (j - 1);
        a--;
    }
    for (j = 1; j <= 6; j++) {
        home[6 - j] = (int8_t)(s[j] - prev);
        prev = s[j];
    }
}

/* Checkers of the position with index idx. */
static inline int bg_bearoff_count(int idx)
{
    int8_t h[6];
    bg_bearoff_home(idx, h);
    return h[0] + h[1] + h[2] + h[3] + h[4] + h[5];
}

static inline void bg_bearoff_free(bg_bearoff *db)
{
    free(db->off);
    free(db->first);
    free(db->mean);
    free(db->mean_first);
    db->off = db->first = db->mean = db->mean_first = NULL;
}

/* Allocates db's tables, zeroed, with position 0 (no checkers: done in 0
 * turns) filled in; 0, or -1 when memory runs out (free with bg_bearoff_free). */
static inline int bg_bearoff_alloc(bg_bearoff *db)
{
    db->off = (float *)calloc((size_t)BG_BO_NPOS * BG_BO_TURNS, sizeof(float));
    db->first = (float *)calloc((size_t)BG_BO_NPOS * BG_BO_TURNS, sizeof(float));
    db->mean = (float *)calloc(BG_BO_NPOS, sizeof(float));
    db->mean_first = (float *)calloc(BG_BO_NPOS, sizeof(float));
    if (!db->off || !db->first || !db->mean || !db->mean_first) return -1;
    db->off[0] = 1.0f;
    db->first[0] = 1.0f;
    return 0;
}

/* Stores position i's expected turns and its distributions of turns
 * (acc_off[t], acc_first[t]: the chance of exactly t turns, t < BG_BO_TURNS). */
static inline void bg_bearoff_store(bg_bearoff *db, int i, double e_off, double e_first,
                                    const double *acc_off, const double *acc_first)
{
    int t;
    db->mean[i] = (float)e_off;
    db->mean_first[i] = (float)e_first;
    for (t = 0; t < BG_BO_TURNS; t++) {
        db->off[(size_t)i * BG_BO_TURNS + t] = (float)acc_off[t];
        db->first[(size_t)i * BG_BO_TURNS + t] = (float)acc_first[t];
    }
}

/*
 * The positions one step leads to from home h (index idx, at least one
 * checker), for each die d = 1..6: step[d - 1][0..n[d - 1]).  A checker on
 * p > d moves to p - d, one on p == d bears off, and one on p < d bears off
 * when no checker stands above it (RULES 6.2-6.4).  A home board blocks
 * nothing, so every die is playable while a checker is left.  Steps of
 * different checkers end in different positions: at most 6, no repeats.
 *
 * The indices come from idx (see bg_bearoff_index): moving a checker from p
 * to q (q = 0: off) lowers S_j by one for j = 7-p..6-q, and
 * C(S_j + j - 1, j) - C(S_j + j - 2, j) = C(S_j + j - 2, j - 1), so the index
 * drops by the sum of those, always a lower index.
 */
static inline void bg_bearoff_steps(const int8_t *h, int idx, int32_t step[6][6], int n[6])
{
    int32_t drop[7];   /* drop[k]: the sum over j = 1..k of C(S_j + j - 2, j - 1), S_j >= 1 */
    int j, s = 0, d, p, top = 6;
    drop[0] = 0;
    for (j = 1; j <= 6; j++) {
        s += h[6 - j];
        drop[j] = drop[j - 1] + (s ? BG_BO_CHOOSE[s + j - 2][j - 1] : 0);
    }
    while (!h[top - 1]) top--;
    for (d = 1; d <= 6; d++) {
        int k = 0;
        for (p = 1; p <= top; p++) {
            if (!h[p - 1] || (p < d && p < top)) continue;
            step[d - 1][k++] = idx - (drop[p > d ? 6 - (p - d) : 6] - drop[6 - p]);
        }
        n[d - 1] = k;
    }
}

/*
 * Whether result j, worth e, beats the best so far (index best, worth be; a
 * worth of 1e300 before the first): less by more than 1e-9, or as much to 1e-9
 * and a lower index.  Equal worths computed along different paths agree to far
 * better than 1e-9 and different ones differ by far more, so this is the least
 * (worth, index) whatever order the results come in: the best of a union is
 * the best of the parts' bests.  tests/test_bearoff.py checks the tables bit
 * for bit against a build that takes the best over all results at once.
 */
static inline int bg_bo_better(double e, int j, double be, int best)
{
    /* | and &, not || and &&: the outcome follows the data, and branches on it
     * would often be mispredicted */
    return (e < be - 1e-9) | ((e <= be + 1e-9) & (j < best));
}

/* The best result of a set of plays, for each goal. */
typedef struct {
    int off;         /* least expected turns to bear off all */
    int first;       /* least expected turns to the first checker off, among the results that bore none off */
    int gone;        /* some result bore a checker off: that is the best for `first` (worth 0 turns) */
    double e_off, e_first;   /* the worths of off and first */
} bg_bo_pick;

#define BG_BO_PICK_EMPTY {BG_BO_NPOS, BG_BO_NPOS, 0, 1e300, 1e300}

/* The best results of the plays of r = 1..3 steps of die d from position a:
 * best[(a * 3 + r - 1) * 6 + d - 1].  Indices fit 16 bits. */
typedef struct {
    uint16_t off;     /* the best for `off` */
    uint16_t first;   /* the best for `first`, or 0 (the empty board) when some of those plays bears a checker off */
} bg_bo_best;

/* Folds into p the plays that step to a (with n_start checkers at the start)
 * and go on with r more steps of die d. */
static inline void bg_bo_fold(bg_bo_pick *p, const bg_bo_best *best, int a, int d, int r,
                              int n_start, const uint8_t *count, const double *e_off,
                              const double *e_first)
{
    int jo = a, jf = a;
    if (r > 0) {
        const bg_bo_best *b = best + ((size_t)a * 3 + r - 1) * 6 + d - 1;
        jo = b->off;
        jf = b->first;
    }
    if (bg_bo_better(e_off[jo], jo, p->e_off, p->off)) {
        p->off = jo;
        p->e_off = e_off[jo];
    }
    if (count[a] < n_start || jf == 0) {
        p->gone = 1;
    } else if (!p->gone && bg_bo_better(e_first[jf], jf, p->e_first, p->first)) {
        p->first = jf;
        p->e_first = e_first[jf];
    }
}

/*
 * acc[t + 1] = the sum over k = 0..n-1, in that order, of w[k] * row[k][t],
 * for t = 0..31 (acc has BG_BO_TURNS + 1 entries): the turns of each roll's
 * best result, one turn later, weighted by the roll's chance.  Each sum adds
 * its terms in the order that adding one roll's row after another would, so
 * the result is the same to the bit.  Running over the rolls for 8 turns at
 * once keeps the sums in registers, and the compiler vectorises it: much
 * faster than adding one row after another into memory.
 */
static inline void bg_bo_mix(const double *w, const float *const *row, int n, double *acc)
{
    int t, k;
    for (t = 0; t < BG_BO_TURNS; t += 8) {
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
        for (k = 0; k < n; k++) {
            const float *r = row[k] + t;
            s0 += w[k] * r[0];
            s1 += w[k] * r[1];
            s2 += w[k] * r[2];
            s3 += w[k] * r[3];
            s4 += w[k] * r[4];
            s5 += w[k] * r[5];
            s6 += w[k] * r[6];
            s7 += w[k] * r[7];
        }
        acc[t + 1] = s0;
        acc[t + 2] = s1;
        acc[t + 3] = s2;
        acc[t + 4] = s3;
        acc[t + 5] = s4;
        acc[t + 6] = s5;
        acc[t + 7] = s6;
        acc[t + 8] = s7;
    }
}

/*
 * Fills db; 0, or -1 when memory runs out (db is then left empty).
 *
 * A roll's plays need no move generator here: every die is playable while a
 * checker is left (bg_bearoff_steps), so the results of d1-d2 are those of a
 * step of d1 then one of d2, or of d2 then d1, and those of a double four
 * steps of its die; a side with no checkers left stops (the empty board, index
 * 0, steps to itself).  So the best result of a roll from i is the best, over
 * the first step's positions a, of the best of a's plays of the remaining
 * steps, which the build keeps (bg_bo_best) for every position, die and 1 to
 * 3 steps, filled in index order like the tables.  A roll then costs at most
 * 12 look-ups, against a call of bg_generate; the result is bit for bit that
 * of bg_bearoff_build_reference, which does call it.
 */
static inline int bg_bearoff_build(bg_bearoff *db)
{
    double *e_off = NULL, *e_first = NULL;
    uint8_t *count = NULL;
    bg_bo_best *best = NULL;
    int i;
    e_off = (double *)calloc(BG_BO_NPOS, sizeof(double));
    e_first = (double *)calloc(BG_BO_NPOS, sizeof(double));
    count = (uint8_t *)calloc(BG_BO_NPOS, 1);
    best = (bg_bo_best *)calloc((size_t)BG_BO_NPOS * 3 * 6, sizeof(bg_bo_best));  /* position 0's: 0 */
    if (bg_bearoff_alloc(db) || !e_off || !e_first || !count || !best)
        goto fail;
    for (i = 1; i < BG_BO_NPOS; i++) {
        int8_t h[6];
        int32_t step[6][6];  /* step[d - 1]: the positions one d leads to */
        int nstep[6];
        double acc_off[BG_BO_TURNS + 1] = {0}, acc_first[BG_BO_TURNS + 1] = {0};
        double sum_off = 0, sum_first = 0, w[21];
        const float *row_off[21];   /* each roll's best result's distribution of turns */
        int d, d1, d2, r, t, x, n_here, n = 0;
        bg_bearoff_home(i, h);
        n_here = h[0] + h[1] + h[2] + h[3] + h[4] + h[5];
        count[i] = (uint8_t)n_here;
        bg_bearoff_steps(h, i, step, nstep);
        /* the bests of i's plays of 1 to 3 steps of each die, for the positions above */
        for (d = 1; d <= 6; d++) {
            for (r = 0; r < 3; r++) {
                bg_bo_pick p = BG_BO_PICK_EMPTY;
                bg_bo_best *b = best + ((size_t)i * 3 + r) * 6 + d - 1;
                for (x = 0; x < nstep[d - 1]; x++)
                    bg_bo_fold(&p, best, step[d - 1][x], d, r, n_here, count, e_off, e_first);
                b->off = (uint16_t)p.off;
                b->first = (uint16_t)(p.gone ? 0 : p.first);
            }
        }
        /* each roll's best plays, and the tables as bg_bearoff_build_reference sums them */
        for (d1 = 1; d1 <= 6; d1++) {
            for (d2 = 1; d2 <= d1; d2++, n++) {
                bg_bo_pick p = BG_BO_PICK_EMPTY;
                if (d1 == d2) {
                    for (x = 0; x < nstep[d1 - 1]; x++)
                        bg_bo_fold(&p, best, step[d1 - 1][x], d1, 3, n_here, count, e_off, e_first);
                } else {
                    for (x = 0; x < nstep[d1 - 1]; x++)
                        bg_bo_fold(&p, best, step[d1 - 1][x], d2, 1, n_here, count, e_off, e_first);
                    for (x = 0; x < nstep[d2 - 1]; x++)
                        bg_bo_fold(&p, best, step[d2 - 1][x], d1, 1, n_here, count, e_off, e_first);
                }
                w[n] = d1 == d2 ? 1.0 / 36 : 2.0 / 36;
                sum_off += w[n] * p.e_off;
                sum_first += w[n] * (p.gone ? 0.0 : p.e_first);
                row_off[n] = db->off + (size_t)p.off * BG_BO_TURNS;
                if (p.gone) {
                    acc_first[1] += w[n];
                } else {
                    for (t = 0; t + 1 < BG_BO_TURNS; t++)
                        acc_first[t + 1] += w[n] * db->first[(size_t)p.first * BG_BO_TURNS + t];
                }
            }
        }
        bg_bo_mix(w, row_off, n, acc_off);
        e_off[i] = 1.0 + sum_off;
        e_first[i] = 1.0 + sum_first;
        bg_bearoff_store(db, i, e_off[i], e_first[i], acc_off, acc_first);
    }
    free(e_off);
    free(e_first);
    free(count);
    free(best);
    return 0;
fail:
    free(e_off);
    free(e_first);
    free(count);
    free(best);
    bg_bearoff_free(db);
    return -1;
}

/*
 * Whether the 26-byte board (the README convention) is a bear-off the
 * database answers: both sides have checkers, none on a bar, every own
 * checker on points 1..6 and every opposing one on 19..24.  The board must
 * be valid (bg_validate).
 */
static inline int bg_bearoff_applies(const int8_t *b)
{
    int p, own = 0, opp = 0;
    if (b[0] != 0 || b[BG_BAR] != 0) return 0;
    for (p = 1; p <= 24; p++) {
        if (b[p] > 0) {
            if (p > 6) return 0;
            own += b[p];
        } else if (b[p] < 0) {
            if (p < 19) return 0;
            opp -= b[p];
        }
    }
    return own > 0 && opp > 0;
}

/*
 * The race between the side on roll (index me) and the other (index opp),
 * both with checkers, the side on roll rolling first: gnubg's five
 * cumulative outputs for the side on roll, before it rolls.
 *
 * It bears off first when it needs t turns and the other needs t or more:
 * P(win) = sum_t P_me(t) P_opp(>= t).  A win is a gammon when the other has
 * all 15 checkers and has not borne off one in its t - 1 turns:
 * sum_t P_me(t) P_opp_first(>= t).  Losses likewise, the other finishing in
 * t turns before the side on roll's (t + 1)-th.  Backgammons are impossible:
 * the loser's checkers are all in its own home board, never on the bar or in
 * the winner's home board (RULES 7.4), and without contact they stay there.
 */
static inline void bg_bearoff_race(const bg_bearoff *db, int me, int opp, float out[5])
{
    const float *pm = db->off + (size_t)me * BG_BO_TURNS;
    const float *po = db->off + (size_t)opp * BG_BO_TURNS;
    const float *fm = db->first + (size_t)me * BG_BO_TURNS;
    const float *fo = db->first + (size_t)opp * BG_BO_TURNS;
    int gam_win = opp >= BG_BO_NPOS14, gam_lose = me >= BG_BO_NPOS14;
    double win = 0, wg = 0, lg = 0;
    double opp_ge = 1, opp_first_ge = 1;   /* P_opp(>= t), P_opp_first(>= t) */
    double me_gt = 1 - pm[0], me_first_gt = 1 - fm[0];  /* P_me(>= t + 1), P_me_first(>= t + 1) */
    int t;
    for (t = 1; t < BG_BO_TURNS; t++) {
        opp_ge -= po[t - 1];
        opp_first_ge -= fo[t - 1];
        me_gt -= pm[t];
        me_first_gt -= fm[t];
        win += pm[t] * opp_ge;
        if (gam_win) wg += pm[t] * opp_first_ge;
        if (gam_lose) lg += po[t] * me_first_gt;
    }
    /* float tables: keep the outputs ordered probabilities (win >= gammon) */
    if (win > 1) win = 1;
    if (win < 0) win = 0;
    if (wg > win) wg = win;
    if (wg < 0) wg = 0;
    if (lg > 1 - win) lg = 1 - win;
    if (lg < 0) lg = 0;
    out[0] = (float)win;
    out[1] = (float)wg;
    out[2] = 0.0f;
    out[3] = (float)lg;
    out[4] = 0.0f;
}

/* bg_bearoff_race of a board where bg_bearoff_applies. */
static inline void bg_bearoff_probs(const bg_bearoff *db, const int8_t *b, float out[5])
{
    int8_t mine[6], theirs[6];
    int i;
    for (i = 0; i < 6; i++) {
        mine[i] = b[1 + i];
        theirs[i] = (int8_t)-b[24 - i];  /* the opponent's point i + 1 is our 24 - i */
    }
    bg_bearoff_race(db, bg_bearoff_index(mine), bg_bearoff_index(theirs), out);
}

/* ------------------------------------------------------------------ */
/* For the tests: the same build from the move generator, and a check  */
/* of bg_bearoff_steps against it                                      */

/*
 * The tables of bg_bearoff_build, built without bg_bearoff_steps and about 5
 * times slower (0.25 s): each roll's plays come from the core's move
 * generator (bg_generate) on a one-sided board, and each goal's best is taken
 * over all of them at once.  tests/test_bearoff.py checks that the two build
 * the same tables bit for bit.  0, or -1 when memory runs out (db left empty).
 */
static inline int bg_bearoff_build_reference(bg_bearoff *db)
{
    double *e_off = NULL, *e_first = NULL;
    uint8_t *count = NULL;
    bg_gen *g = NULL;
    int i;
    e_off = (double *)calloc(BG_BO_NPOS, sizeof(double));
    e_first = (double *)calloc(BG_BO_NPOS, sizeof(double));
    count = (uint8_t *)calloc(BG_BO_NPOS, 1);
    g = bg_gen_new();
    if (bg_bearoff_alloc(db) || !e_off || !e_first || !count || !g)
        goto fail;
    for (i = 1; i < BG_BO_NPOS; i++) {
        int8_t board[32];
        double acc_off[BG_BO_TURNS + 1] = {0}, acc_first[BG_BO_TURNS + 1] = {0};
        double sum_off = 0, sum_first = 0;
        int d1, d2, t, n_here;
        memset(board, 0, sizeof board);
        bg_bearoff_home(i, (int8_t *)board + 1);
        board[0] = -1;   /* an opposing checker on its bar: the generator needs two sides, and it blocks nothing */
        n_here = board[1] + board[2] + board[3] + board[4] + board[5] + board[6];
        count[i] = (uint8_t)n_here;
        for (d1 = 1; d1 <= 6; d1++) {
            for (d2 = 1; d2 <= d1; d2++) {
                double w = d1 == d2 ? 1.0 / 36 : 2.0 / 36;
                int64_t n, k;
                int best = -1, best_f = -1;
                double be = 0, bf = 0;
                g->out.n = 0;
                n = bg_generate(g, board, d1, d2);
                if (n < 0) goto fail;
                for (k = 0; k < n; k++) {
                    int j = bg_bearoff_index(g->out.pos + k * BG_NPTS + 1);
                    double ef = count[j] < n_here ? 0.0 : e_first[j];  /* a checker came off */
                    /* j < i always (see bg_bearoff_index), so j is done */
                    if (best < 0 || e_off[j] < be - 1e-9 || (e_off[j] <= be + 1e-9 && j < best)) {
                        best = j;
                        be = e_off[j];
                    }
                    if (best_f < 0 || ef < bf - 1e-9 || (ef <= bf + 1e-9 && j < best_f)) {
                        best_f = j;
                        bf = ef;
                    }
                }
                sum_off += w * be;
                sum_first += w * bf;
                for (t = 0; t + 1 < BG_BO_TURNS; t++)
                    acc_off[t + 1] += w * db->off[(size_t)best * BG_BO_TURNS + t];
                if (count[best_f] < n_here) {
                    acc_first[1] += w;
                } else {
                    for (t = 0; t + 1 < BG_BO_TURNS; t++)
                        acc_first[t + 1] += w * db->first[(size_t)best_f * BG_BO_TURNS + t];
                }
            }
        }
        e_off[i] = 1.0 + sum_off;
        e_first[i] = 1.0 + sum_first;
        bg_bearoff_store(db, i, e_off[i], e_first[i], acc_off, acc_first);
    }
    free(e_off);
    free(e_first);
    free(count);
    bg_gen_free(g);
    return 0;
fail:
    free(e_off);
    free(e_first);
    free(count);
    if (g) bg_gen_free(g);
    bg_bearoff_free(db);
    return -1;
}

/* Appends to out[*n] the positions one more step of die d leads to from each
 * of from[0..m), each once: mark[j] == stamp marks j as there. */
static inline void bg_bo_expand(const int32_t *from, int m, int d, int32_t *out, int *n,
                                uint32_t *mark, uint32_t stamp)
{
    int x, y, k;
    for (x = 0; x < m; x++) {
        int32_t s[6][6] = {{0}};
        int8_t h[6];
        int ns[6];
        k = 1;                               /* the empty board stays empty */
        if (from[x] != 0) {
            bg_bearoff_home(from[x], h);
            bg_bearoff_steps(h, from[x], s, ns);
            k = ns[d - 1];
        }
        for (y = 0; y < k; y++) {
            if (mark[s[d - 1][y]] != stamp) {
                mark[s[d - 1][y]] = stamp;
                out[(*n)++] = s[d - 1][y];
            }
        }
    }
}

/*
 * For every position and roll, whether the results of bg_bearoff_steps
 * chained as bg_bearoff_build chains them (d1 then d2 and d2 then d1; four
 * steps of a double) are exactly the results of bg_generate, as sets: the
 * number of (position, roll) pairs where they differ, or -1 when memory runs
 * out.
 */
static inline int64_t bg_bearoff_check_steps(void)
{
    uint32_t *mark = (uint32_t *)calloc(BG_BO_NPOS, sizeof(uint32_t));
    uint32_t *seen = (uint32_t *)calloc(BG_BO_NPOS, sizeof(uint32_t));
    int32_t *lv[4] = {NULL, NULL, NULL, NULL};   /* positions on the way (0..2), the roll's results (3) */
    bg_gen *g = bg_gen_new();
    uint32_t stamp = 0;
    int64_t bad = 0;
    int i, d1, d2, k;
    for (k = 0; k < 4; k++)
        lv[k] = (int32_t *)malloc(1296 * sizeof(int32_t));   /* 6^4: the most results of 4 steps */
    if (!mark || !seen || !g || !lv[0] || !lv[1] || !lv[2] || !lv[3]) {
        bad = -1;
        goto done;
    }
    for (i = 1; i < BG_BO_NPOS; i++) {
        int8_t board[32];
        memset(board, 0, sizeof board);
        bg_bearoff_home(i, (int8_t *)board + 1);
        board[0] = -1;   /* as in bg_bearoff_build_reference */
        for (d1 = 1; d1 <= 6; d1++) {
            for (d2 = 1; d2 <= d1; d2++) {
                int32_t start = i;
                int n[4] = {0, 0, 0, 0}, same = 1;
                uint32_t all = ++stamp;    /* marks the roll's results */
                int64_t ng, x;
                if (d1 == d2) {
                    bg_bo_expand(&start, 1, d1, lv[0], &n[0], mark, ++stamp);
                    bg_bo_expand(lv[0], n[0], d1, lv[1], &n[1], mark, ++stamp);
                    bg_bo_expand(lv[1], n[1], d1, lv[2], &n[2], mark, ++stamp);
                    bg_bo_expand(lv[2], n[2], d1, lv[3], &n[3], mark, all);
                } else {
                    bg_bo_expand(&start, 1, d1, lv[0], &n[0], mark, ++stamp);
                    bg_bo_expand(&start, 1, d2, lv[1], &n[1], mark, ++stamp);
                    bg_bo_expand(lv[0], n[0], d2, lv[3], &n[3], mark, all);
                    bg_bo_expand(lv[1], n[1], d1, lv[3], &n[3], mark, all);
                }
                g->out.n = 0;
                ng = bg_generate(g, board, d1, d2);
                if (ng < 0) {
                    bad = -1;
                    goto done;
                }
                for (x = 0; x < ng; x++) {
                    int j = bg_bearoff_index(g->out.pos + x * BG_NPTS + 1);
                    if (mark[j] != all) same = 0;     /* a play the steps miss */
                    seen[j] = all;
                }
                for (x = 0; x < n[3]; x++)
                    if (seen[lv[3][x]] != all) same = 0;   /* a result the generator lacks */
                bad += !same;
            }
        }
    }
done:
    free(mark);
    free(seen);
    for (k = 0; k < 4; k++) free(lv[k]);
    if (g) bg_gen_free(g);
    return bad;
}

#endif /* BGCORE_BEAROFF_H */
