/*
 * playout.h -- whole games in C: dice streams, the pubeval evaluator and
 * playout loops for rollouts.  No Python: runs without the GIL, and is safe
 * from many threads as long as each uses its own bg_gen.
 *
 * Determinism.  Game number k of a rollout draws its dice from its own
 * stream, seeded from (seed, k) alone, so a rollout's games do not depend on
 * how they are split between threads, processes or machines; statistics are
 * integer sums, so any split gives identical results.
 *
 * Stratification.  With `stratify`, game k's first roll is the ordered roll
 * k mod 36 and its reply (k / 36) mod 36: every 1,296 games cover all pairs
 * of first two rolls exactly once.  Later rolls come from the stream.
 */
#ifndef BGCORE_PLAYOUT_H
#define BGCORE_PLAYOUT_H

#include "movegen.h"
#include "nn.h"

/* ------------------------------------------------------------------ */
/* Dice: xoshiro256++ per game, seeded through SplitMix64              */

typedef struct { uint64_t s[4]; } bg_rng;

static inline uint64_t bg_rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static inline uint64_t bg_splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The stream of game `game` of the rollout with seed `seed`. */
static inline void bg_rng_seed(bg_rng *r, uint64_t seed, uint64_t game)
{
    uint64_t x = seed, key;
    key = bg_splitmix(&x);
    x = key ^ (game * 0xD1B54A32D192ED03ULL);
    bg_splitmix(&x);
    r->s[0] = bg_splitmix(&x);
    r->s[1] = bg_splitmix(&x);
    r->s[2] = bg_splitmix(&x);
    r->s[3] = bg_splitmix(&x);
}

static inline uint64_t bg_rng_next(bg_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = bg_rotl(s[0] + s[3], 23) + s[0];
    uint64_t t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t;
    s[3] = bg_rotl(s[3], 45);
    return result;
}

/* Uniform in [0, n), unbiased (Lemire's multiply-and-reject). */
static inline uint32_t bg_rng_below(bg_rng *r, uint32_t n)
{
    uint64_t m = (bg_rng_next(r) >> 32) * (uint64_t)n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (0u - n) % n;  /* 2^32 mod n */
        while (low < threshold) {
            m = (bg_rng_next(r) >> 32) * (uint64_t)n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* ------------------------------------------------------------------ */
/* pubeval (shared/data/PUBEVAL.md)                                    */

/*
 * The weights rearranged as a table: value[race][p][n + 15] is the
 * contribution of point p (1..24) holding n checkers (n in -15..15), so a
 * score is 24 lookups plus the two extra inputs.
 */
typedef struct {
    double value[2][25][31];
    double opp_bar[2];   /* weight per opposing checker on the bar (w120 / 2) */
    double own_off[2];   /* weight per own checker borne off (w121 / 15) */
    int ready;
} bg_pubeval;

#define BG_PUBEVAL_WIN 99999999.0

/* w: 122 weights of one vector (race = 1 or contact = 0). */
static inline void bg_pubeval_set(bg_pubeval *pe, int race, const double *w)
{
    int p, n;
    for (p = 1; p <= 24; p++) {
        int i = 5 * (24 - p);
        pe->value[race][p][15] = 0.0;
        for (n = -15; n <= 15; n++) {
            double v = 0.0;
            if (n == -1) v += w[i + 0];
            if (n == 1) v += w[i + 1];
            if (n >= 2) v += w[i + 2];
            if (n == 3) v += w[i + 3];
            if (n >= 4) v += w[i + 4] * (n - 3) / 2.0;
            pe->value[race][p][n + 15] = v;
        }
    }
    pe->opp_bar[race] = w[120] / 2.0;
    pe->own_off[race] = w[121] / 15.0;
}

/* PUBEVAL.md 5: a race when the highest checker of the side that moves (the
 * positive side; 25 = bar) is below the lowest of the other (0 = bar). */
static inline int bg_is_race(const int8_t *b)
{
    int hi = 0, lo = 25, p;
    for (p = BG_BAR; p >= 1; p--) if (b[p] > 0) { hi = p; break; }
    for (p = 0; p <= 24; p++) if (b[p] < 0) { lo = p; break; }
    if (hi == 0 || lo == 25) return 1;  /* a side has no checkers: race */
    return hi < lo;
}

/* The score of board b for its positive side, who has just moved (PUBEVAL.md 3-4). */
static inline double bg_pubeval_score(const bg_pubeval *pe, const int8_t *b, int race)
{
    const double (*val)[31] = pe->value[race];
    double s = 0.0;
    int p, own = 0;
    for (p = 1; p <= 24; p++) {
        int v = b[p];
        s += val[p][v + 15];
        own += v > 0 ? v : 0;
    }
    own += b[BG_BAR];
    if (own == 0) return BG_PUBEVAL_WIN;
    s += pe->opp_bar[race] * (double)(-b[0]);
    s += pe->own_off[race] * (double)(BG_MAXCHK - own);
    return s;
}

/* ------------------------------------------------------------------ */
/* Playouts                                                            */

#define BG_POLICY_RANDOM 0
#define BG_POLICY_PUBEVAL 1
#define BG_POLICY_NET 2          /* the neural evaluator (nn.h) */

/* Per-stratum statistics, all integers.  Stratum = 36 * first roll + reply
 * (ordered rolls 0..35; the reply counts as 0 when the game ended at once). */
#define BG_ST_GAMES 0
#define BG_ST_WIN 1
#define BG_ST_WIN_GAMMON 2      /* gammons and backgammons */
#define BG_ST_WIN_BACKGAMMON 3
#define BG_ST_LOSE_GAMMON 4
#define BG_ST_LOSE_BACKGAMMON 5
#define BG_ST_SUM_V 6           /* cubeless points, +-1/2/3 */
#define BG_ST_SUM_V2 7
#define BG_ST_PLIES 8
#define BG_ST_FIELDS 9
#define BG_STRATA 1296

#define BG_MAX_PLIES 100000     /* a safety net: no real game comes near */
#define BG_E_TOO_LONG (-2)

/*
 * How a game ended, from the side that just moved: 0 while both sides have
 * checkers, else 1, 2 or 3 points (RULES 7.2-7.4) for that side.
 */
static inline int bg_finished(const int8_t *b)
{
    int p, opp = 0;
    for (p = 1; p <= BG_BAR; p++) if (b[p] > 0) return 0;
    for (p = 0; p <= 24; p++) opp -= b[p] < 0 ? b[p] : 0;
    if (opp < BG_MAXCHK) return 1;                 /* the loser bore off some */
    if (b[0] < 0) return 3;                        /* on the bar: backgammon */
    for (p = 1; p <= 6; p++) if (b[p] < 0) return 3;  /* in the winner's home */
    return 2;
}

static inline void bg_record(int64_t *stats, int stratum, int points, int64_t plies)
{
    int64_t *st = stats + (int64_t)stratum * BG_ST_FIELDS;
    st[BG_ST_GAMES]++;
    st[BG_ST_PLIES] += plies;
    st[BG_ST_SUM_V] += points;
    st[BG_ST_SUM_V2] += (int64_t)points * points;
    if (points > 0) {
        st[BG_ST_WIN]++;
        if (points >= 2) st[BG_ST_WIN_GAMMON]++;
        if (points >= 3) st[BG_ST_WIN_BACKGAMMON]++;
    } else {
        if (points <= -2) st[BG_ST_LOSE_GAMMON]++;
        if (points <= -3) st[BG_ST_LOSE_BACKGAMMON]++;
    }
}

/* The roll of ply `ply` of game `game`: scheduled for the first two plies
 * when stratifying, else from the game's stream. */
static inline void bg_game_roll(bg_rng *r, int64_t game, int64_t ply, int stratify, int *d1, int *d2)
{
    uint32_t k;
    if (stratify && ply < 2) k = (uint32_t)((ply == 0 ? game : game / 36) % 36);
    else k = bg_rng_below(r, 36);
    *d1 = (int)(k / 6) + 1;
    *d2 = (int)(k % 6) + 1;
}

/* The index of the play a built-in policy picks among the n plays just
 * generated at g->out.pos (`before` is the board they were played from). */
static inline int64_t bg_choose(bg_gen *g, int64_t n, const int8_t *before, int policy,
                                const bg_pubeval *pe, bg_rng *r)
{
    int64_t i, best = 0;
    int race;
    double best_score, s;
    if (n == 1) return 0;
    if (policy == BG_POLICY_RANDOM) return (int64_t)bg_rng_below(r, (uint32_t)n);
    race = bg_is_race(before);                     /* PUBEVAL.md 6: before the move */
    best_score = bg_pubeval_score(pe, g->out.pos, race);
    for (i = 1; i < n; i++) {                      /* ties: the first play kept */
        s = bg_pubeval_score(pe, g->out.pos + i * BG_NPTS, race);
        if (s > best_score) { best_score = s; best = i; }
    }
    return best;
}

/* bg_choose for every policy: the net one needs `ev`. */
static inline int64_t bg_choose_ev(bg_gen *g, int64_t n, const int8_t *before, int policy,
                                   const bg_pubeval *pe, const bg_evaluator *ev, bg_rng *r)
{
    if (policy == BG_POLICY_NET)
        return n == 1 ? 0 : bg_nn_choose(ev, g->out.pos, n, before, NULL, NULL);
    return bg_choose(g, n, before, policy, pe, r);
}

/*
 * Plays games first_game .. first_game + ngames - 1 of a rollout from
 * `start` (the player on roll about to roll), adding to stats[1296][9].
 * Points are from the starting player's side.  Returns 0, -1 when memory
 * ran out, BG_E_TOO_LONG, or BG_E_CANCELLED (checked once a game; stats
 * then hold the games finished so far).
 */
static inline int bg_playout_range(const int8_t *start, uint64_t seed, int64_t first_game,
                                   int64_t ngames, int policy, const bg_pubeval *pe,
                                   int stratify, int64_t *stats, const bg_evaluator *ev,
                                   bg_cancel *cancel)
{
    bg_gen *g = bg_gen_new();
    int64_t k;
    if (!g) return -1;
    g->want_moves = 0;
    for (k = first_game; k < first_game + ngames; k++) {
        int8_t board[32];
        bg_rng r;
        int64_t ply;
        int stratum = -1, points = 0;
        if (bg_cancelled(cancel)) { bg_gen_free(g); return BG_E_CANCELLED; }
        memcpy(board, start, BG_NPTS);
        bg_rng_seed(&r, seed, (uint64_t)k);
        for (ply = 0; ply < BG_MAX_PLIES; ply++) {
            int d1, d2;
            int64_t n, pick;
            const int8_t *res;
            bg_game_roll(&r, k, ply, stratify, &d1, &d2);
            if (ply == 0) stratum = 36 * ((d1 - 1) * 6 + (d2 - 1));
            else if (ply == 1) stratum += (d1 - 1) * 6 + (d2 - 1);
            g->out.n = 0;
            n = bg_generate(g, board, d1, d2);
            if (n < 0) { bg_gen_free(g); return -1; }
            pick = bg_choose_ev(g, n, board, policy, pe, ev, &r);
            res = g->out.pos + pick * BG_NPTS;
            points = bg_finished(res);
            if (points) {
                if (ply & 1) points = -points;   /* the opponent moved last */
                bg_record(stats, stratum, points, ply + 1);
                break;
            }
            bg_swap32(res, board);
        }
        if (ply == BG_MAX_PLIES) { bg_gen_free(g); return BG_E_TOO_LONG; }
    }
    bg_gen_free(g);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Duels: duplicate dice                                               */

/* Fields of a duel's statistics (from policy a's side). */
#define BG_DU_PAIRS 0
#define BG_DU_GAMES 1
#define BG_DU_A_WIN 2
#define BG_DU_A_GAMMON 3        /* gammons and backgammons */
#define BG_DU_A_BACKGAMMON 4
#define BG_DU_B_WIN 5
#define BG_DU_B_GAMMON 6
#define BG_DU_B_BACKGAMMON 7
#define BG_DU_SUM 8             /* a's points */
#define BG_DU_SUM_PAIR2 9       /* squares of a's points per pair of games */
#define BG_DU_PLIES 10
#define BG_DU_FIELDS 11

typedef struct {
    int policy;                 /* BG_POLICY_* */
    const bg_evaluator *ev;     /* for BG_POLICY_NET */
} bg_player;

/*
 * Pairs first_pair .. first_pair + npairs - 1 of a duel from `start`: pair
 * k plays the dice of stream (seed, k) twice, a moving first in one game
 * and b in the other, so both sides get the same rolls at the same turns.
 * Adds to stats[BG_DU_FIELDS].  Returns 0, -1 (memory), BG_E_TOO_LONG or
 * BG_E_CANCELLED (checked once a pair; stats then hold the pairs finished).
 */
static inline int bg_duel_range(const int8_t *start, uint64_t seed, int64_t first_pair,
                                int64_t npairs, const bg_player *a, const bg_player *b,
                                const bg_pubeval *pe, int64_t *stats, bg_cancel *cancel)
{
    bg_gen *g = bg_gen_new();
    int64_t k;
    if (!g) return -1;
    g->want_moves = 0;
    for (k = first_pair; k < first_pair + npairs; k++) {
        int seat, pair = 0;
        if (bg_cancelled(cancel)) { bg_gen_free(g); return BG_E_CANCELLED; }
        for (seat = 0; seat < 2; seat++) {
            int8_t board[32];
            bg_rng r;
            int64_t ply;
            int points = 0;
            memcpy(board, start, BG_NPTS);
            bg_rng_seed(&r, seed, (uint64_t)k);
            for (ply = 0; ply < BG_MAX_PLIES; ply++) {
                int d1, d2, a_moves = ((ply & 1) == seat);
                const bg_player *pl = a_moves ? a : b;
                int64_t n, pick;
                const int8_t *res;
                bg_game_roll(&r, k, ply, 0, &d1, &d2);
                g->out.n = 0;
                n = bg_generate(g, board, d1, d2);
                if (n < 0) { bg_gen_free(g); return -1; }
                pick = bg_choose_ev(g, n, board, pl->policy, pe, pl->ev, &r);
                res = g->out.pos + pick * BG_NPTS;
                points = bg_finished(res);
                if (points) {
                    int pa = a_moves ? points : -points;
                    stats[BG_DU_GAMES]++;
                    stats[BG_DU_PLIES] += ply + 1;
                    stats[BG_DU_SUM] += pa;
                    if (pa > 0) {
                        stats[BG_DU_A_WIN]++;
                        if (pa >= 2) stats[BG_DU_A_GAMMON]++;
                        if (pa >= 3) stats[BG_DU_A_BACKGAMMON]++;
                    } else {
                        stats[BG_DU_B_WIN]++;
                        if (pa <= -2) stats[BG_DU_B_GAMMON]++;
                        if (pa <= -3) stats[BG_DU_B_BACKGAMMON]++;
                    }
                    pair += pa;
                    break;
                }
                bg_swap32(res, board);
            }
            if (ply == BG_MAX_PLIES) { bg_gen_free(g); return BG_E_TOO_LONG; }
        }
        stats[BG_DU_PAIRS]++;
        stats[BG_DU_SUM_PAIR2] += (int64_t)pair * pair;
    }
    bg_gen_free(g);
    return 0;
}

#endif /* BGCORE_PLAYOUT_H */
