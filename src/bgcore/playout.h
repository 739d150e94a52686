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
#include "cube.h"

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

/* ------------------------------------------------------------------ */
/* The first two plies' choices, remembered                            */

/*
 * Every game of a rollout starts from the same board, and its first two
 * rolls repeat (36 first rolls; with stratification each pair of first two
 * rolls once every 1,296 games), so the same choices come up again and
 * again.  A deterministic policy (the nets, pubeval: not random, which
 * draws from the dice stream) chooses the same play for the same board and
 * ordered dice, so a choice is made once and looked up after: the same
 * plays, so the same games, bit for bit.  Only plies 0 and 1 go through the
 * table (later choices rarely repeat).  Direct-mapped: a collision evicts.
 * A table serves one policy (one evaluator) at a time and one thread.
 */
#define BG_PLAY_CACHE_SLOTS 4096   /* twice the 36 + 1,296 choices of a rollout */

typedef struct {
    int8_t key[32];      /* the board, then d1 and d2 (ordered as rolled), then zeros */
    int8_t res[32];      /* the chosen play's result (bg_swap32 reads 32 bytes) */
    float probs[5];      /* bg_choice_probs: the opponent's chances after it */
    int32_t single;      /* bg_choice_probs: the roll had one play (probs unset) */
} bg_play_slot;          /* key[BG_NPTS] == 0: empty (dice are 1..6) */

static inline bg_play_slot *bg_play_cache_new(void)
{
    return (bg_play_slot *)calloc(BG_PLAY_CACHE_SLOTS, sizeof(bg_play_slot));
}

/* The slot of (board, d1, d2) in a table, and its key in key (32 bytes). */
static inline size_t bg_play_slot_index(const int8_t *board, int d1, int d2, int8_t *key)
{
    uint64_t h = 1469598103934665603ULL;     /* FNV-1a over board and dice */
    int i;
    memset(key, 0, 32);
    memcpy(key, board, BG_NPTS);
    key[BG_NPTS] = (int8_t)d1;
    key[BG_NPTS + 1] = (int8_t)d2;
    for (i = 0; i < BG_NPTS + 2; i++) h = (h ^ (uint8_t)key[i]) * 1099511628211ULL;
    /* mixed (SplitMix64's finaliser): FNV leaves the last bytes, the dice, in few
     * bits, and a board's 36 rolls would share a handful of slots */
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ULL;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBULL;
    h ^= h >> 31;
    return (size_t)(h % BG_PLAY_CACHE_SLOTS);
}

/* The slot a choice at `ply` from (board, d1, d2) goes through, or NULL (no
 * table, or a ply past the first two); *hit says whether it holds that
 * choice, else key (32 bytes) is what bg_play_keep files it under. */
static inline bg_play_slot *bg_play_find(bg_play_slot *cache, int64_t ply, const int8_t *board,
                                         int d1, int d2, int8_t *key, int *hit)
{
    bg_play_slot *slot;
    *hit = 0;
    if (!cache || ply >= 2) return NULL;
    slot = cache + bg_play_slot_index(board, d1, d2, key);
    *hit = memcmp(slot->key, key, 32) == 0;
    return slot;
}

/* Files the result res (a generator row: 32 bytes readable) of key in slot. */
static inline void bg_play_keep(bg_play_slot *slot, const int8_t *key, const int8_t *res)
{
    memcpy(slot->key, key, sizeof slot->key);
    memcpy(slot->res, res, sizeof slot->res);   /* the generator's rows have 32 bytes of slack */
}

/*
 * The result of the play `policy` chooses at `board` with the roll (d1,
 * d2): through `cache` (may be NULL) at plies 0 and 1, else from g's plays
 * (generated here).  NULL when memory ran out.
 */
static inline const int8_t *bg_choice(bg_play_slot *cache, int64_t ply, bg_gen *g,
                                      const int8_t *board, int d1, int d2, int policy,
                                      const bg_pubeval *pe, const bg_evaluator *ev, bg_rng *r)
{
    int8_t key[32];
    int hit;
    const int8_t *res;
    int64_t n;
    bg_play_slot *slot = bg_play_find(policy == BG_POLICY_RANDOM ? NULL : cache, ply, board,
                                      d1, d2, key, &hit);
    if (hit) return slot->res;
    g->out.n = 0;
    n = bg_generate(g, board, d1, d2);
    if (n < 0) return NULL;
    res = g->out.pos + bg_choose_ev(g, n, board, policy, pe, ev, r) * BG_NPTS;
    if (slot) bg_play_keep(slot, key, res);
    return res;
}

/*
 * bg_choice for the net when the chances after the play are wanted too
 * (bg_rollout_range): the result, and in probs (5) the opponent's chances
 * after it, unless the roll has a single play and `always` is 0 (*single =
 * 1: nothing was evaluated).  A table serves one of bg_choice, this with
 * `always` and this without, never two.
 */
static inline const int8_t *bg_choice_probs(bg_play_slot *cache, int64_t ply, bg_gen *g,
                                            const int8_t *board, int d1, int d2,
                                            const bg_evaluator *ev, int always, float *probs,
                                            int *single)
{
    int8_t key[32];
    int hit;
    const int8_t *res;
    int64_t n;
    bg_play_slot *slot = bg_play_find(cache, ply, board, d1, d2, key, &hit);
    if (hit) {
        *single = slot->single;
        if (!*single) memcpy(probs, slot->probs, sizeof slot->probs);
        return slot->res;
    }
    g->out.n = 0;
    n = bg_generate(g, board, d1, d2);
    if (n < 0) return NULL;
    *single = n == 1 && !always;
    res = g->out.pos + (*single ? 0 : bg_nn_choose(ev, g->out.pos, n, board, NULL, probs)) * BG_NPTS;
    if (slot) {
        bg_play_keep(slot, key, res);
        if (!*single) memcpy(slot->probs, probs, sizeof slot->probs);
        slot->single = *single;
    }
    return res;
}

/*
 * Plays games first_game .. first_game + ngames - 1 of a rollout from
 * `start` (the player on roll about to roll), adding to stats[1296][9].
 * Points are from the starting player's side.  `cache` (NULL: none; else
 * a bg_play_cache_new table kept for this policy and evaluator) remembers
 * the first two plies' choices.  Returns 0, -1 when memory ran out,
 * BG_E_TOO_LONG, or BG_E_CANCELLED (checked once a game; stats then hold
 * the games finished so far).
 */
static inline int bg_playout_range(const int8_t *start, uint64_t seed, int64_t first_game,
                                   int64_t ngames, int policy, const bg_pubeval *pe,
                                   int stratify, int64_t *stats, const bg_evaluator *ev,
                                   bg_cancel *cancel, bg_play_slot *cache)
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
            const int8_t *res;
            bg_game_roll(&r, k, ply, stratify, &d1, &d2);
            if (ply == 0) stratum = 36 * ((d1 - 1) * 6 + (d2 - 1));
            else if (ply == 1) stratum += (d1 - 1) * 6 + (d2 - 1);
            res = bg_choice(cache, ply, g, board, d1, d2, policy, pe, ev, &r);
            if (!res) { bg_gen_free(g); return -1; }
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
/* Rollouts with the cube, luck adjustment, truncation and rotation     */

/*
 * bg_rollout_range plays the games of bg_playout_range with the net and,
 * as asked:
 *   cube      both sides double, take and pass by the 0-ply cube decisions
 *             (bg_cube_decide on the chances of the position before the
 *             roll, gnubg's x from bg_cube_efficiency).  The plays do not
 *             depend on the cube, so a game goes on to its end for the
 *             cubeless figures after a pass, which fixes only the cubeful
 *             result: the cubeless figures equal those of a rollout without
 *             the cube, game for game.
 *   vr        luck adjustment: every roll's luck, the chances after the
 *             best play of the roll rolled minus their mean over the 21
 *             rolls (from the starting player's side), is summed over the
 *             game and subtracted from its result.  Each luck has mean zero
 *             given the position, so the adjusted results keep the mean.
 *   truncate  (>= 0) a game still going at ply `truncate` is scored by the
 *             evaluator there: its 0-ply chances (exact from the bear-off
 *             database once both sides are home) and the cube decision's
 *             cubeful value.
 *   rotation  the first `rotation` rolls (0..3) follow a schedule: the first
 *             game % 36, the second (game / 36) % 36 (both as stratify), the
 *             third (game / 1296 + 5 r1 + 11 r2 + offset) % 36, so that every
 *             1,296 games give each third roll 36 times and every 46,656
 *             games each triple once; `offset` comes from the seed, which
 *             makes the third roll uniform for any number of games.
 *
 * Statistics: stats[1296][BG_RX_FIELDS] int64, per stratum (as
 * bg_playout_range): games, plies, and for each of the BG_RX_NQ quantities
 * the sum of its per-game values in units of 2^-BG_RX_SHIFT and the sum of
 * squares in units of 2^-BG_RX_SHIFT2.  Each game's value is rounded to
 * those units before it is added, so sums are exact integers and any split
 * of the games gives identical statistics.  Quantities, from the starting
 * player's side: the five cumulative chances, the cubeless equity, the
 * cubeful value (money: points per unit of the starting cube; match: the
 * match winning chance; the cubeless equity without the cube), then the
 * same seven with the luck subtracted (equal to the plain ones without vr).
 * The cubeful value's luck is that of the 0-ply cubeful equity (Janowski,
 * money) or cubeful match winning chance after each roll's best play, with
 * the cube as it stands; the others' that of the cubeless chances.
 */
#define BG_RX_GAMES 0
#define BG_RX_PLIES 1
#define BG_RX_Q0 2               /* quantity q: sum at 2 + 2q, squares at 3 + 2q */
#define BG_RX_NQ 14
#define BG_RX_FIELDS (2 + 2 * BG_RX_NQ)
#define BG_RX_SHIFT 30
#define BG_RX_SHIFT2 20
#define BG_RX_CLAMP 4096.0       /* |value| bound of the fixed point (no real game nears it) */
#define BG_E_CUBE (-4)           /* a cube decision refused its inputs */

typedef struct {
    int cube_on;
    bg_cube_ctx ctx;             /* at the start, for the starting player; x is set per ply */
    int backgammon_value;        /* 3, or 2 (RULES 7.4) */
    int vr;
    int64_t truncate;            /* < 0: play to the end */
    int rotation;                /* 0..3 */
    uint32_t rot_offset;         /* 0..35 */
    int no_double;               /* the starting player does not double at ply 0 (the
                                    no-double branch of a cube decision's rollout) */
} bg_rollout_opts;

static inline void bg_roll_sched(bg_rng *r, int64_t game, int64_t ply, const bg_rollout_opts *o,
                                 int *d1, int *d2)
{
    uint32_t k;
    if (ply < o->rotation) {
        if (ply == 0) k = (uint32_t)(game % 36);
        else if (ply == 1) k = (uint32_t)((game / 36) % 36);
        else k = (uint32_t)((game / 1296 + 5 * (game % 36) + 11 * ((game / 36) % 36)
                             + o->rot_offset) % 36);
    } else k = bg_rng_below(r, 36);
    *d1 = (int)(k / 6) + 1;
    *d2 = (int)(k % 6) + 1;
}

/* The match winning chance of a player a-away against b-away after a game
 * (`rest`: 1-away scores are post-Crawford, as bg_match_mwc). */
static inline double bg_rx_mwc(const bg_met *met, int64_t a, int64_t b, int rest)
{
    if (a <= 0) return 1.0;
    if (b <= 0) return 0.0;
    if (rest && (a == 1 || b == 1)) return a == 1 ? 1.0 - bg_met_post(met, b) : bg_met_post(met, a);
    return bg_met_pre(met, a, b);   /* the table, or its extension past n (cube.h) */
}

static inline void bg_rx_add(int64_t *st, int q, double v)
{
    double a = v > BG_RX_CLAMP ? BG_RX_CLAMP : (v < -BG_RX_CLAMP ? -BG_RX_CLAMP : v);
    st[BG_RX_Q0 + 2 * q] += llround(ldexp(a, BG_RX_SHIFT));
    st[BG_RX_Q0 + 2 * q + 1] += llround(ldexp(a * a, BG_RX_SHIFT2));
}

/* Chances of the mover (mover's view) into the starting player's view. */
static inline void bg_rx_view(const float *p, int mover, double *out)
{
    if (mover == 0) { int i; for (i = 0; i < 5; i++) out[i] = p[i]; return; }
    out[0] = 1.0 - p[0]; out[1] = p[3]; out[2] = p[4]; out[3] = p[1]; out[4] = p[2];
}

static inline double bg_rx_equity(const double *c)
{
    return 2.0 * c[0] - 1.0 + c[1] - c[3] + c[2] - c[4];
}

static inline int bg_rollout_range(const int8_t *start, uint64_t seed, int64_t first_game,
                                   int64_t ngames, const bg_rollout_opts *o, int64_t *stats,
                                   const bg_evaluator *ev, bg_cancel *cancel,
                                   bg_play_slot *cache)
{
    static const int rolls[21][2] = {
        {1,1},{2,2},{3,3},{4,4},{5,5},{6,6},{1,2},{1,3},{1,4},{1,5},{1,6},
        {2,3},{2,4},{2,5},{2,6},{3,4},{3,5},{3,6},{4,5},{4,6},{5,6}};
    bg_gen *g = bg_gen_new();
    const bg_cube_ctx *c0 = &o->ctx;
    int match = o->cube_on && c0->match;
    int crawford = match && (c0->away == 1 || c0->opponent_away == 1) && !c0->post_crawford;
    int rest = match && (c0->post_crawford || crawford);
    int64_t k;
    if (!g) return -1;
    g->want_moves = 0;
    for (k = first_game; k < first_game + ngames; k++) {
        int8_t board[32], chosen[32];
        float pb[BG_NN_NOUT], pnext[BG_NN_NOUT];
        double val[BG_RX_NQ], luck[7] = {0, 0, 0, 0, 0, 0, 0};
        bg_rng r;
        int64_t ply, v = c0->cube;
        int owner = c0->owner;       /* the starting player's view */
        int stratum = 0, have_pb = 0, cube_alive = o->cube_on, q, done = 0;
        double cubeful = 0.0;
        int64_t *st;
        if (bg_cancelled(cancel)) { bg_gen_free(g); return BG_E_CANCELLED; }
        memcpy(board, start, BG_NPTS);
        bg_rng_seed(&r, seed, (uint64_t)k);
        if (o->rotation >= 2)  /* bg_roll_sched's first two rolls of game k */
            stratum = 36 * (int)(k % 36) + (int)((k / 36) % 36);
        for (ply = 0; ply < BG_MAX_PLIES; ply++) {
            int mover = (int)(ply & 1), d1, d2, points, i, single = 0;
            const int8_t *res;
            bg_cube_ctx cx;
            bg_cube_result cr;
            int truncated = o->truncate >= 0 && ply >= o->truncate;
            if (cube_alive || truncated) {
                cx = *c0;
                cx.cube = (int)v;
                cx.owner = owner == BG_CUBE_CENTRED ? BG_CUBE_CENTRED
                         : ((owner == BG_CUBE_OWN) == (mover == 0) ? BG_CUBE_OWN : BG_CUBE_OPPONENT);
                if (mover) { cx.away = c0->opponent_away; cx.opponent_away = c0->away; }
                if (truncated || bg_cube_reason_of(&cx) == BG_CUBE_AVAILABLE) {
                    if (!have_pb) bg_eval(ev, board, pb);
                    have_pb = 1;
                }
            }
            if (truncated) {
                double c[5];
                bg_rx_view(pb, mover, c);
                for (i = 0; i < 5; i++) val[i] = c[i];
                val[5] = bg_rx_equity(c);
                if (cube_alive) {
                    double e;
                    cx.x = bg_cube_efficiency(board);
                    if (bg_cube_decide(pb, &cx, &cr) != BG_CUBE_OK) { bg_gen_free(g); return BG_E_CUBE; }
                    e = (cr.action == BG_CUBE_DOUBLE_TAKE || cr.action == BG_CUBE_DOUBLE_BEAVER
                         || cr.action == BG_CUBE_DOUBLE_PASS)
                        ? (cr.double_take < cr.double_pass ? cr.double_take : cr.double_pass)
                        : cr.no_double;
                    if (match) cubeful = mover ? 1.0 - e : e;
                    else cubeful = (mover ? -e : e) * (double)v / (double)c0->cube;
                }
                done = 1;
                break;
            }
            if (cube_alive && have_pb && bg_cube_reason_of(&cx) == BG_CUBE_AVAILABLE
                && !(ply == 0 && o->no_double)) {
                cx.x = bg_cube_efficiency(board);
                if (bg_cube_decide(pb, &cx, &cr) != BG_CUBE_OK) { bg_gen_free(g); return BG_E_CUBE; }
                if (cr.action == BG_CUBE_DOUBLE_PASS
                    || ((cr.action == BG_CUBE_DOUBLE_TAKE || cr.action == BG_CUBE_DOUBLE_BEAVER)
                        && !cr.take)) {
                    /* passed: the mover wins the cube's value; the game goes on cubeless */
                    if (match) {
                        int64_t a = mover ? c0->opponent_away : c0->away;
                        int64_t b = mover ? c0->away : c0->opponent_away;
                        double m = bg_rx_mwc(c0->met, a - v, b, rest);
                        cubeful = mover ? 1.0 - m : m;
                    } else cubeful = (mover ? -1.0 : 1.0) * (double)v / (double)c0->cube;
                    cube_alive = 0;
                } else if (cr.action == BG_CUBE_DOUBLE_TAKE || cr.action == BG_CUBE_DOUBLE_BEAVER) {
                    v *= 2;
                    owner = mover == 0 ? BG_CUBE_OPPONENT : BG_CUBE_OWN;   /* the taker's */
                    if (cr.beaver) v *= 2;       /* RULES 9.2: redoubled at once, kept by the beaver */
                }
            }
            bg_roll_sched(&r, k, ply, o, &d1, &d2);
            /* with both first rolls scheduled the stratum is the game's number (set
             * below), so a game that ends or is passed before the second roll still
             * falls in its own stratum */
            if (o->rotation < 2) {
                if (ply == 0) stratum = 36 * ((d1 - 1) * 6 + (d2 - 1));
                else if (ply == 1) stratum += (d1 - 1) * 6 + (d2 - 1);
            }
            if (o->vr) {
                /* every roll's best play: their mean, and the one rolled */
                double mean[5] = {0, 0, 0, 0, 0}, got[5] = {0, 0, 0, 0, 0}, c[5];
                double mean_cf = 0.0, got_cf = 0.0;
                int j, lo = d1 < d2 ? d1 : d2, hi = d1 < d2 ? d2 : d1;
                /* the cube as the opponent, next on roll, finds it */
                int opp_owner = owner == BG_CUBE_CENTRED ? BG_CUBE_CENTRED
                              : ((owner == BG_CUBE_OWN) == (mover == 1) ? BG_CUBE_OWN : BG_CUBE_OPPONENT);
                for (j = 0; j < 21; j++) {
                    float best[BG_NN_NOUT], mv[BG_NN_NOUT];
                    double wgt = rolls[j][0] == rolls[j][1] ? 1.0 / 36.0 : 2.0 / 36.0;
                    int one;
                    const int8_t *rj = bg_choice_probs(cache, ply, g, board, rolls[j][0],
                                                       rolls[j][1], ev, 1, best, &one);
                    if (!rj) { bg_gen_free(g); return -1; }
                    bg_flip(best, mv);                 /* the mover's chances */
                    bg_rx_view(mv, mover, c);
                    for (i = 0; i < 5; i++) mean[i] += wgt * c[i];
                    if (cube_alive) {
                        /* the cubeful value after the play: the opponent's 0-ply
                         * cubeful equity (money, per unit of the cube) or match
                         * winning chance, into the starting player's view */
                        int8_t after[32];
                        double cb[5], x, e;
                        for (i = 0; i < 5; i++) cb[i] = best[i];
                        bg_swap32(rj, after);
                        x = bg_cube_efficiency(after);
                        if (match) {
                            e = bg_match_equity_d(cb, mover ? c0->away : c0->opponent_away,
                                                  mover ? c0->opponent_away : c0->away, v,
                                                  opp_owner, x, c0->post_crawford,
                                                  c0->max_cube, c0->met);
                            e = mover ? e : 1.0 - e;
                        } else {
                            e = bg_money_equity_d(cb, opp_owner, x,
                                                  c0->jacoby && opp_owner == BG_CUBE_CENTRED)
                                * (double)v / (double)c0->cube;
                            e = mover ? e : -e;
                        }
                        mean_cf += wgt * e;
                        if (rolls[j][0] == lo && rolls[j][1] == hi) got_cf = e;
                    }
                    if (rolls[j][0] == lo && rolls[j][1] == hi) {
                        for (i = 0; i < 5; i++) got[i] = c[i];
                        memcpy(chosen, rj, BG_NPTS);
                        memcpy(pnext, best, sizeof pnext);
                    }
                }
                for (i = 0; i < 5; i++) luck[i] += got[i] - mean[i];
                luck[5] += bg_rx_equity(got) - bg_rx_equity(mean);
                if (cube_alive) luck[6] += got_cf - mean_cf;
                res = chosen;
            } else {
                res = bg_choice_probs(cache, ply, g, board, d1, d2, ev, 0, pnext, &single);
                if (!res) { bg_gen_free(g); return -1; }
                if (single) have_pb = 0;         /* no evaluation done: evaluate when needed */
            }
            points = bg_finished(res);
            if (points) {
                int win = mover == 0;
                for (i = 0; i < 5; i++) val[i] = 0.0;
                if (win) { val[0] = 1; val[1] = points >= 2; val[2] = points >= 3; }
                else { val[3] = points >= 2; val[4] = points >= 3; }
                val[5] = win ? points : -points;
                if (cube_alive) {
                    int pts = points == 3 ? o->backgammon_value : points;
                    if (!match && c0->jacoby && owner == BG_CUBE_CENTRED) pts = 1;   /* RULES 9.1 */
                    if (match) {
                        int64_t a = win ? c0->away : c0->opponent_away;
                        int64_t b = win ? c0->opponent_away : c0->away;
                        double m = bg_rx_mwc(c0->met, a - pts * v, b, rest);
                        cubeful = win ? m : 1.0 - m;
                    } else cubeful = (win ? 1.0 : -1.0) * (double)(pts * v) / (double)c0->cube;
                }
                ply++;
                done = 1;
                break;
            }
            bg_swap32(res, board);
            if (!o->vr && single) continue;
            memcpy(pb, pnext, sizeof pb);   /* the chances of the next mover, before its roll */
            have_pb = 1;
        }
        if (!done) { bg_gen_free(g); return BG_E_TOO_LONG; }
        val[6] = o->cube_on ? cubeful : val[5];
        for (q = 0; q < 6; q++) val[7 + q] = val[q] - luck[q];
        val[13] = val[6] - (o->cube_on ? luck[6] : luck[5]);
        st = stats + (int64_t)stratum * BG_RX_FIELDS;
        st[BG_RX_GAMES]++;
        st[BG_RX_PLIES] += ply;
        for (q = 0; q < BG_RX_NQ; q++) bg_rx_add(st, q, val[q]);
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
 * Each side's first two plies' choices are remembered (bg_choice).  Adds to
 * stats[BG_DU_FIELDS].  Returns 0, -1 (memory), BG_E_TOO_LONG or
 * BG_E_CANCELLED (checked once a pair; stats then hold the pairs finished).
 */
static inline int bg_duel_range(const int8_t *start, uint64_t seed, int64_t first_pair,
                                int64_t npairs, const bg_player *a, const bg_player *b,
                                const bg_pubeval *pe, int64_t *stats, bg_cancel *cancel)
{
    bg_gen *g = bg_gen_new();
    bg_play_slot *cache_a = bg_play_cache_new(), *cache_b = bg_play_cache_new();
    int64_t k;
    int ret = 0;
    if (!g || !cache_a || !cache_b) { ret = -1; goto done; }
    g->want_moves = 0;
    for (k = first_pair; k < first_pair + npairs; k++) {
        int seat, pair = 0;
        if (bg_cancelled(cancel)) { ret = BG_E_CANCELLED; goto done; }
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
                const int8_t *res;
                bg_game_roll(&r, k, ply, 0, &d1, &d2);
                res = bg_choice(a_moves ? cache_a : cache_b, ply, g, board, d1, d2, pl->policy,
                                pe, pl->ev, &r);
                if (!res) { ret = -1; goto done; }
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
            if (ply == BG_MAX_PLIES) { ret = BG_E_TOO_LONG; goto done; }
        }
        stats[BG_DU_PAIRS]++;
        stats[BG_DU_SUM_PAIR2] += (int64_t)pair * pair;
    }
done:
    if (g) bg_gen_free(g);
    free(cache_a);
    free(cache_b);
    return ret;
}

#endif /* BGCORE_PLAYOUT_H */
