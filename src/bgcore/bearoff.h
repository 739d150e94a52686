/*
 * bearoff.h -- the one-sided bear-off database, plain C, no Python.
 *
 * For every position of 0..15 checkers on the six home points of one side
 * (C(21, 6) = 54,264 of them) it stores the distribution of the number of
 * that side's turns to bear off all its checkers (`off`), playing each roll
 * to minimise the expected number of turns, and the distribution of turns
 * to bear off its first checker (`first`), playing each roll to minimise the
 * expected turns to that (the play that saves a gammon).  Plays come from
 * the core's own generator (bg_generate) on a one-sided board, so every rule
 * of RULES 6 holds exactly.  Ties in the expected turns (to 1e-9) go to the
 * result with the lowest index (the fewest checkers, see bg_bearoff_index).
 *
 * Two one-sided distributions give a race's chances (bg_bearoff_probs): the
 * sides never meet, so their turn counts are independent.  As in gnubg's
 * one-sided databases, each side is assumed to play for `off` when the race
 * is counted and for `first` when a gammon is counted, although one play
 * cannot always serve both (a close and standard approximation).
 *
 * Build once (bg_bearoff_build: about 0.2 s on one core here, 14 MB);
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

/* Fills db; 0, or -1 when memory runs out (db is then left empty). */
static inline int bg_bearoff_build(bg_bearoff *db)
{
    double *e_off = NULL, *e_first = NULL;
    uint8_t *count = NULL;
    bg_gen *g = NULL;
    int i;
    db->off = (float *)calloc((size_t)BG_BO_NPOS * BG_BO_TURNS, sizeof(float));
    db->first = (float *)calloc((size_t)BG_BO_NPOS * BG_BO_TURNS, sizeof(float));
    db->mean = (float *)calloc(BG_BO_NPOS, sizeof(float));
    db->mean_first = (float *)calloc(BG_BO_NPOS, sizeof(float));
    e_off = (double *)calloc(BG_BO_NPOS, sizeof(double));
    e_first = (double *)calloc(BG_BO_NPOS, sizeof(double));
    count = (uint8_t *)calloc(BG_BO_NPOS, 1);
    g = bg_gen_new();
    if (!db->off || !db->first || !db->mean || !db->mean_first || !e_off || !e_first
        || !count || !g)
        goto fail;

    db->off[0] = 1.0f;     /* no checkers left: done in 0 turns */
    db->first[0] = 1.0f;
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
        db->mean[i] = (float)e_off[i];
        db->mean_first[i] = (float)e_first[i];
        for (t = 0; t < BG_BO_TURNS; t++) {
            db->off[(size_t)i * BG_BO_TURNS + t] = (float)acc_off[t];
            db->first[(size_t)i * BG_BO_TURNS + t] = (float)acc_first[t];
        }
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

#endif /* BGCORE_BEAROFF_H */
