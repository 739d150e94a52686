/*
 * venv.h -- turns checker by checker, action ids and masks, and N games
 * stepped in lockstep for reinforcement-learning environments.  Plain C.
 *
 * A turn in progress (bg_turn) is the board seen from the mover, the dice
 * still to play and the number of steps still due.  At the start of a turn
 * the generator tells how many dice the legal plays use (D, RULES 4.1) and,
 * for a non-double of which only one die can be played, which die (RULES
 * 4.2).  A single step (src, die) is then legal exactly when it is a legal
 * step by itself and the turn can still be completed with D steps in all:
 * every sequence of D legal steps ends in one of the legal plays, and every
 * legal play is such a sequence, so the masks below always agree with the
 * plays of the move generator (tests/test_env_actions.py checks this on
 * the 42k positions of tests/data/movegen.jsonl.gz).
 *
 * Action ids:
 *   micro (Pgx, 156): id = 6 * src + (die - 1), src 0 = no-op, 1 = the bar,
 *     2..25 = the mover's points 24..1; so src = 26 - point, bar included.
 *   OpenSpiel (1,352): two steps per id, id = 676 * low_first + a + 26 * b,
 *     a, b the steps' positions (X: 24 - point, O: point - 1; 24 = the bar,
 *     25 = no step) and low_first set when the first step uses the lower
 *     die of a non-double.  A double takes two ids (two half-turns).
 *
 * Games (bg_vgame): the agent holds seat 0 against a built-in opponent
 * policy (playout.h), or both seats (BG_OPP_SELF: self-play, each turn
 * seen from its mover, a game's points going to the player whose step
 * ended it).  Game k of a vector env draws its dice from its own
 * stream seeded from (seed, k, episode), so results depend on the seed
 * alone, never on threads or batch splits.
 */
#ifndef BGCORE_VENV_H
#define BGCORE_VENV_H

#include <math.h>

#include "movegen.h"
#include "playout.h"
#include "encode.h"

#define BG_MICRO_N 156
#define BG_OS_N 1352
#define BG_ACT_MICRO 0
#define BG_ACT_OPENSPIEL 1
#define BG_ACT_AFTERSTATE 2   /* the index of a play among the generator's distinct plays */
#define BG_OPP_EXTERNAL (-1)  /* the opponent's plays come from the caller (bg_vg_opp_done) */
#define BG_OPP_SELF (-2)      /* self-play: the agent makes both seats' steps */
#define BG_VG_OPP_TO_MOVE 200 /* bg_vg_run: an external opponent's turn is pending in v->t */

typedef struct {
    int8_t b[32];      /* the board seen from the mover; bytes 26..31 zero */
    uint8_t left[8];   /* dice still to play, by value (left[1..6]) */
    int8_t need;       /* steps still due this turn */
    uint8_t only;      /* a one-step non-double: the die it must use (RULES 4.2), else 0 */
    uint8_t d1, d2;    /* this turn's dice as rolled */
    uint8_t seat;      /* the mover's seat */
} bg_turn;

/* Whether r more steps can be made from g's working board with the dice in
 * left; g and left are as they were on return. */
static int bg_turn_can_finish_g(bg_gen *g, uint8_t *left, int r)
{
    int d;
    if (r <= 0) return 1;
    for (d = 1; d <= 6; d++) {
        uint32_t m;
        if (!left[d]) continue;
        m = bg_movable(g, d);
        if (m && r == 1) return 1;
        while (m) {
            int s = bg_highbit(m), hit, ok;
            m &= ~(1u << s);
            hit = bg_apply(g, s, d);
            left[d]--;
            ok = bg_turn_can_finish_g(g, left, r - 1);
            left[d]++;
            bg_undo(g, s, d, hit);
            if (ok) return 1;
        }
    }
    return 0;
}

/* Starts the turn of (d1, d2) on board b (both sides playing); g is scratch.
 * D, the most dice any play uses (RULES 4.1), is the largest r for which
 * some sequence of r steps exists: an existence search, cheaper than
 * generating the plays.  Returns 0. */
static inline int bg_turn_begin(bg_turn *t, bg_gen *g, const int8_t *b, int seat, int d1, int d2)
{
    int r;
    memset(t, 0, sizeof *t);
    memcpy(t->b, b, BG_NPTS);
    t->seat = (uint8_t)seat;
    t->d1 = (uint8_t)d1;
    t->d2 = (uint8_t)d2;
    bg_enc_left(d1, d2, t->left);
    bg_load(g, b);
    for (r = d1 == d2 ? 4 : 2; r > 0; r--)
        if (bg_turn_can_finish_g(g, t->left, r)) break;
    t->need = (int8_t)r;
    if (d1 != d2 && t->need == 1) {
        int hi = d1 > d2 ? d1 : d2, lo = d1 > d2 ? d2 : d1;
        t->only = (uint8_t)(bg_movable(g, hi) ? hi : lo);
    }
    return 0;
}

/* Whether the step (src, die) of g's working board (loaded from t->b) keeps
 * the turn completable; g is as it was on return. */
static inline int bg_turn_step_loaded(const bg_turn *t, bg_gen *g, int src, int d)
{
    uint8_t l2[8];
    int hit, ok;
    if (t->need <= 0 || d < 1 || d > 6 || !t->left[d]) return 0;
    if (t->only && d != t->only) return 0;
    if (src < 1 || src > BG_BAR || !((bg_movable(g, d) >> src) & 1u)) return 0;
    if (t->need == 1) return 1;
    memcpy(l2, t->left, 8);
    l2[d]--;
    hit = bg_apply(g, src, d);
    ok = bg_turn_can_finish_g(g, l2, t->need - 1);
    bg_undo(g, src, d, hit);
    return ok;
}

/* Whether the step (src, die) is legal now; after it, *out holds the board. */
static inline int bg_turn_step_ok(const bg_turn *t, int src, int d, int8_t *out32)
{
    bg_gen g;
    bg_load(&g, t->b);
    if (!bg_turn_step_loaded(t, &g, src, d)) return 0;
    bg_apply(&g, src, d);
    memcpy(out32, g.b, 32);
    return 1;
}

/* Makes a step already known to be legal (board from bg_turn_step_ok). */
static inline void bg_turn_commit(bg_turn *t, int d, const int8_t *after32)
{
    memcpy(t->b, after32, 32);
    t->left[d]--;
    t->need--;
    t->only = 0;
}

/* Makes the step (src, die) if legal: 0, else -1 and t unchanged. */
static inline int bg_turn_step(bg_turn *t, int src, int d)
{
    int8_t after[32];
    if (!bg_turn_step_ok(t, src, d, after)) return -1;
    bg_turn_commit(t, d, after);
    return 0;
}

/* Micro ids of a step; src 25 = the bar. */
static inline int bg_micro_id(int src, int d) { return 6 * (26 - src) + d - 1; }

/* Pgx's micro mask (156 bytes 0/1); a turn without a step allows the no-ops
 * 0..5 as Pgx does.  Returns the number of legal ids. */
static inline int bg_turn_micro_mask(const bg_turn *t, uint8_t *mask)
{
    int d, n = 0;
    bg_gen g;
    memset(mask, 0, BG_MICRO_N);
    if (t->need <= 0) {
        memset(mask, 1, 6);
        return 6;
    }
    bg_load(&g, t->b);
    for (d = 1; d <= 6; d++) {
        uint32_t m;
        if (!t->left[d]) continue;
        m = bg_movable(&g, d);
        while (m) {
            int s = bg_highbit(m);
            m &= ~(1u << s);
            if (bg_turn_step_loaded(t, &g, s, d)) {
                mask[bg_micro_id(s, d)] = 1;
                n++;
            }
        }
    }
    return n;
}

/* Decodes a micro id: 0 and the step, 1 for a no-op, -1 for an id out of range. */
static inline int bg_micro_decode(int id, int *src, int *d)
{
    if (id < 0 || id >= BG_MICRO_N) return -1;
    *d = id % 6 + 1;
    if (id < 6) return 1;
    *src = 26 - id / 6;
    return 0;
}

/* OpenSpiel's position digit of the mover's point (25 = the bar). */
static inline int bg_os_digit(int seat, int src)
{
    if (src == BG_BAR) return 24;
    return seat ? src - 1 : 24 - src;
}

static inline int bg_os_src(int seat, int digit)
{
    if (digit == 24) return BG_BAR;
    return seat ? digit + 1 : 24 - digit;
}

static inline int bg_os_id(int seat, int non_double_low_first, int s1, int s2)
{
    int a = s1 ? bg_os_digit(seat, s1) : 25, b = s2 ? bg_os_digit(seat, s2) : 25;
    return 676 * (non_double_low_first ? 1 : 0) + a + 26 * b;
}

/* The dice of an OpenSpiel id's two steps in this turn: the first uses the
 * higher die unless low_first (then the lower); the second uses the other. */
static inline void bg_os_dice(const bg_turn *t, int low_first, int *da, int *db)
{
    int hi = t->d1 > t->d2 ? t->d1 : t->d2, lo = t->d1 > t->d2 ? t->d2 : t->d1;
    *da = low_first ? lo : hi;
    *db = low_first ? hi : lo;
}

/* OpenSpiel's mask (1,352 bytes) of the next half-turn: up to two steps.
 * A half-turn with no step is the pass id 1351.  Returns the number of ids. */
static inline int bg_turn_os_mask(const bg_turn *t, uint8_t *mask)
{
    int n = 0, lf, s1, s2;
    int8_t after[32], after2[32];
    memset(mask, 0, BG_OS_N);
    if (t->need <= 0) {
        mask[BG_OS_N - 1] = 1;
        return 1;
    }
    for (lf = 0; lf <= (t->d1 != t->d2 ? 1 : 0); lf++) {
        int da, db;
        bg_os_dice(t, lf, &da, &db);
        for (s1 = 1; s1 <= BG_BAR; s1++) {
            bg_turn t2;
            if (t->b[s1] <= 0 || !bg_turn_step_ok(t, s1, da, after)) continue;
            t2 = *t;
            bg_turn_commit(&t2, da, after);
            if (t2.need == 0) {
                int id = bg_os_id(t->seat, lf, s1, 0);
                if (!mask[id]) { mask[id] = 1; n++; }
                continue;
            }
            for (s2 = 1; s2 <= BG_BAR; s2++) {
                int id;
                if (t2.b[s2] <= 0 || !bg_turn_step_ok(&t2, s2, db, after2)) continue;
                id = bg_os_id(t->seat, lf, s1, s2);
                if (!mask[id]) { mask[id] = 1; n++; }
            }
        }
    }
    return n;
}

/* Makes the half-turn of OpenSpiel id `id`: 0, or -1 (illegal, t unchanged). */
static inline int bg_turn_os_step(bg_turn *t, int id)
{
    bg_turn t2 = *t;
    int lf, a, b, da, db;
    if (id < 0 || id >= BG_OS_N) return -1;
    if (t->need <= 0) return id == BG_OS_N - 1 ? 0 : -1;
    lf = id / 676;
    a = id % 26;
    b = (id % 676) / 26;
    if (lf && t->d1 == t->d2) return -1;
    bg_os_dice(t, lf, &da, &db);
    if (a == 25) return -1;                       /* a step is due: no pass */
    if (bg_turn_step(&t2, bg_os_src(t->seat, a), da) != 0) return -1;
    if (t2.need == 0) {
        if (b != 25) return -1;
    } else {
        if (b == 25 || bg_turn_step(&t2, bg_os_src(t->seat, b), db) != 0) return -1;
    }
    *t = t2;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Games against a built-in opponent                                   */

#define BG_VG_MAX_PLIES 10000   /* a truncation guard: no real game comes near */

typedef struct {
    bg_turn t;          /* the agent's turn in progress (seat 0 on roll) */
    bg_rng rng;
    uint64_t episode;   /* episodes begun in this slot */
    int32_t plies;      /* plies of the current game */
    int32_t decisions;  /* the agent's decisions in the current game */
} bg_vgame;

typedef struct {
    uint64_t seed;
    int actions;        /* BG_ACT_* */
    int enc;            /* BG_ENC_* */
    bg_player opp;      /* the opponent's built-in policy */
    const bg_pubeval *pe;
} bg_venv_cfg;

static inline void bg_vg_seed(bg_vgame *v, const bg_venv_cfg *c, uint64_t slot)
{
    uint64_t x = c->seed ^ (slot * 0x9E3779B97F4A7C15ULL);
    bg_rng_seed(&v->rng, bg_splitmix(&x), v->episode);
}

static inline void bg_vg_roll(bg_vgame *v, int *d1, int *d2)
{
    uint32_t k = bg_rng_below(&v->rng, 36);
    *d1 = (int)(k / 6) + 1;
    *d2 = (int)(k % 6) + 1;
}

/* The game ended by the opponent's play `opp_view` (seen by the opponent):
 * v->t becomes the agent's view of the final board, no dice (its last
 * observation, Gymnasium's final_obs). */
static inline void bg_vg_final(bg_vgame *v, const int8_t *opp_view)
{
    int8_t s[32];
    bg_swap(opp_view, s);
    memset(&v->t, 0, sizeof v->t);
    memcpy(v->t.b, s, BG_NPTS);
}

/*
 * Plays on from board b (seen from the seat `seat`, about to roll, or with
 * dice d1, d2 already rolled when d1 > 0) until the agent has a decision or
 * the game ends.  Returns 0 (the agent decides), the agent's points +-1..3
 * when the game ended, 100 when truncated, BG_VG_OPP_TO_MOVE when an
 * external opponent is to play (v->t holds its board and dice), or -100
 * when memory ran out.
 */
static int bg_vg_run(bg_vgame *v, const bg_venv_cfg *c, bg_gen *g, const int8_t *b0,
                     int seat, int d1, int d2)
{
    int8_t b[32], s[32];
    memset(b, 0, 32);
    memcpy(b, b0, BG_NPTS);
    for (;;) {
        if (d1 == 0) bg_vg_roll(v, &d1, &d2);
        if (++v->plies > BG_VG_MAX_PLIES) {     /* truncated: the board as it stands */
            if (seat) bg_vg_final(v, b);
            else { memset(&v->t, 0, sizeof v->t); memcpy(v->t.b, b, BG_NPTS); }
            return 100;
        }
        if (seat == 0 || c->opp.policy == BG_OPP_SELF) {
            if (bg_turn_begin(&v->t, g, b, seat, d1, d2) != 0) return -100;
            if (v->t.need > 0) return 0;
            /* no legal step: the turn passes by itself (RULES 4.4) */
        } else if (c->opp.policy == BG_OPP_EXTERNAL) {
            memset(&v->t, 0, sizeof v->t);
            memcpy(v->t.b, b, BG_NPTS);
            v->t.seat = 1;
            v->t.d1 = (uint8_t)d1;
            v->t.d2 = (uint8_t)d2;
            return BG_VG_OPP_TO_MOVE;
        } else {
            int64_t start = g->out.n, n, k;
            int pts;
            n = bg_generate(g, b, d1, d2);
            if (n < 0) return -100;
            k = bg_choose_ev(g, n, b, c->opp.policy, c->pe, c->opp.ev, &v->rng);
            memcpy(b, g->out.pos + (start + k) * BG_NPTS, BG_NPTS);
            g->out.n = start;
            pts = bg_finished(b);
            if (pts) { bg_vg_final(v, b); return -pts; }
        }
        bg_swap(b, s);
        memcpy(b, s, BG_NPTS);
        seat ^= 1;
        d1 = d2 = 0;
    }
}

/* Begins episode v->episode: the opening roll (one die each, ties rolled
 * again; the higher die moves first with both) and play to the agent's
 * first decision.  Returns as bg_vg_run. */
static inline int bg_vg_reset(bg_vgame *v, const bg_venv_cfg *c, bg_gen *g, uint64_t slot,
                              const int8_t *start)
{
    int a, o;
    v->plies = 0;
    v->decisions = 0;
    bg_vg_seed(v, c, slot);
    do {
        a = (int)bg_rng_below(&v->rng, 6) + 1;
        o = (int)bg_rng_below(&v->rng, 6) + 1;
    } while (a == o);
    if (a > o) return bg_vg_run(v, c, g, start, 0, a, o);
    {
        int8_t s[32];
        bg_swap(start, s);
        return bg_vg_run(v, c, g, s, 1, o, a);
    }
}

/* The agent's action: 0 and the game goes on (or ends: *result set as
 * bg_vg_run), or -1 for an illegal id (nothing changed). */
static inline int bg_vg_act(bg_vgame *v, const bg_venv_cfg *c, bg_gen *g, int id, int *result)
{
    int pts;
    *result = 0;
    if (v->t.seat != 0 && c->opp.policy != BG_OPP_SELF) return -1;
    if (c->actions == BG_ACT_MICRO) {
        int src, d, k = bg_micro_decode(id, &src, &d);
        if (k != 0 || bg_turn_step(&v->t, src, d) != 0) return -1;
    } else if (c->actions == BG_ACT_AFTERSTATE) {
        int64_t start = g->out.n, n = bg_generate(g, v->t.b, v->t.d1, v->t.d2);
        if (n < 0) return -100;
        if (id < 0 || id >= n) { g->out.n = start; return -1; }
        memcpy(v->t.b, g->out.pos + (start + id) * BG_NPTS, BG_NPTS);
        g->out.n = start;
        v->t.need = 0;
    } else {
        if (bg_turn_os_step(&v->t, id) != 0) return -1;
    }
    v->decisions++;
    if (v->t.need > 0) return 0;
    pts = bg_finished(v->t.b);
    if (pts) { *result = pts; return 0; }
    {
        int8_t s[32];
        bg_swap(v->t.b, s);
        *result = bg_vg_run(v, c, g, s, v->t.seat ^ 1, 0, 0);
    }
    return 0;
}

/* An external opponent's play: `after` is the result (seen by the opponent),
 * already checked legal by the caller.  Returns as bg_vg_run. */
static inline int bg_vg_opp_done(bg_vgame *v, const bg_venv_cfg *c, bg_gen *g, const int8_t *after)
{
    int8_t s[32];
    int pts = bg_finished(after);
    if (pts) { bg_vg_final(v, after); return -pts; }
    bg_swap(after, s);
    return bg_vg_run(v, c, g, s, 0, 0, 0);
}

static inline int bg_vg_mask(const bg_vgame *v, const bg_venv_cfg *c, uint8_t *mask)
{
    return c->actions == BG_ACT_MICRO ? bg_turn_micro_mask(&v->t, mask)
                                      : bg_turn_os_mask(&v->t, mask);
}

static inline void bg_vg_observe(const bg_vgame *v, const bg_venv_cfg *c, float *obs)
{
    bg_encode(c->enc, v->t.b, 0, v->t.d1, v->t.d2, v->t.left, obs);
}

/* Whether the logits of the legal ids (mask set) give a distribution: none
 * NaN or +inf and not every one -inf; 1 when no id is legal. */
static inline int bg_softmax_ok(const double *logits, const uint8_t *mask, int64_t m)
{
    int64_t j, legal = 0, finite = 0;
    for (j = 0; j < m; j++) {
        if (!mask[j])
            continue;
        legal++;
        if (isnan(logits[j]) || logits[j] == INFINITY)
            return 0;
        finite += logits[j] != -INFINITY;
    }
    return !legal || finite > 0;
}

/* A draw from the softmax of logits[0..m) restricted to the ids whose mask
 * byte is set (a masked categorical policy), for logits that pass
 * bg_softmax_ok: the id, or -1 when no id is legal.  A logit of -inf gives
 * its id probability 0.  One uniform of r a call; the legal ids' weights are
 * kept (up to BG_OS_N of them) so each takes one exp. */
static inline int64_t bg_sample_softmax(bg_rng *r, const double *logits, const uint8_t *mask,
                                        int64_t m)
{
    double best = -INFINITY, total = 0.0, u, w[BG_OS_N];
    int64_t j, k, last = -1, legal = 0, ids[BG_OS_N];
    for (j = 0; j < m; j++) {
        if (!mask[j])
            continue;
        if (logits[j] > best)
            best = logits[j];
        if (legal < BG_OS_N)
            ids[legal] = j;
        legal++;
    }
    if (!legal)
        return -1;
    if (legal <= BG_OS_N) {
        for (k = 0; k < legal; k++)
            total += w[k] = exp(logits[ids[k]] - best);
        u = (double)(bg_rng_next(r) >> 11) * 0x1.0p-53 * total;   /* uniform in [0, total) */
        for (k = 0; k < legal; k++) {
            if (w[k] == 0.0)
                continue;
            last = ids[k];
            u -= w[k];
            if (u < 0.0)
                return last;
        }
        return last;   /* u's rounding ran past the last legal id */
    }
    for (j = 0; j < m; j++)   /* more legal ids than kept (afterstate ids): two passes */
        if (mask[j])
            total += exp(logits[j] - best);
    u = (double)(bg_rng_next(r) >> 11) * 0x1.0p-53 * total;
    for (j = 0; j < m; j++) {
        if (!mask[j] || logits[j] == -INFINITY)
            continue;
        last = j;
        u -= exp(logits[j] - best);
        if (u < 0.0)
            return j;
    }
    return last;
}

#endif /* BGCORE_VENV_H */
