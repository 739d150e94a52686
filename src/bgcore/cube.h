/*
 * cube.h -- cube decisions in C: Janowski's cubeful money equity, the match
 * model on a match equity table, and double/take/pass.  Plain C, no Python,
 * no globals: every function reads only its arguments, so any number of
 * threads may call it at once without the GIL.
 *
 * The reference is the Python model (python/backgammon/cubeful.py and
 * CubeDecision.from_chances in cube.py): the same formulas, evaluated in the
 * same order in double precision, the same knots, the same tie rules and the
 * same take-point recursion, so results agree with it to rounding
 * (tests/test_cube_core.py measures that).
 *
 * Chances are gnubg's five cumulative outputs for the player on roll, before
 * the roll: win, win gammon, win backgammon, lose gammon, lose backgammon.
 * The model functions take them as given (bg_cube_check_chances says whether
 * they are valid; garbage in gives a garbage number, never an out-of-bounds
 * read); bg_cube_decide checks everything and returns an error code.
 *
 * Owners: BG_CUBE_CENTRED (nobody has doubled yet), BG_CUBE_OWN (the player
 * on roll holds the cube), BG_CUBE_OPPONENT.  Money equities are per unit of
 * the current stake; match values are match winning chances; both from the
 * side of the player on roll.
 */
#ifndef BGCORE_CUBE_H
#define BGCORE_CUBE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#define BG_MET_MAX 64            /* the longest table (met.py's _MAX_LENGTH) */
#define BG_CUBE_EPS 1e-6         /* tolerance of the chance checks and of the W/L divisions (cubeful._EPS) */
#define BG_CUBE_TIE 1e-9         /* equities closer than this are equal (cube._TIE) */
#define BG_CUBE_MAX_VALUE (1 << 30)  /* the largest cube a decision takes (C int; 2 x it is the doubled cube) */

enum { BG_CUBE_CENTRED = 0, BG_CUBE_OWN = 1, BG_CUBE_OPPONENT = 2 };

/* The proper action; the texts (cube.py) say "redouble" when the player on
 * roll owns the cube.  Ordered as the texts are listed in CUBE_ACTION_TEXTS. */
typedef enum {
    BG_CUBE_NO_DOUBLE_TAKE = 0,    /* "No double, take" */
    BG_CUBE_NO_DOUBLE_BEAVER,      /* "No double, beaver" */
    BG_CUBE_DOUBLE_TAKE,           /* "Double, take" */
    BG_CUBE_DOUBLE_BEAVER,         /* "Double, beaver" */
    BG_CUBE_DOUBLE_PASS,           /* "Double, pass" */
    BG_CUBE_TOO_GOOD_PASS,         /* "Too good to double, pass" */
    BG_CUBE_TOO_GOOD_TAKE,         /* "Too good to double, take" */
    BG_CUBE_TOO_GOOD_BEAVER,       /* "Too good to double, beaver" */
    BG_CUBE_NOT_AVAILABLE,         /* "No double (<reason>)" */
    BG_CUBE_NACTIONS
} bg_cube_action;

typedef enum {
    BG_CUBE_AVAILABLE = 0,
    BG_CUBE_OPPONENT_OWNS,         /* "the opponent owns the cube" */
    BG_CUBE_AT_LIMIT,              /* "the cube is at its limit" (or no cube in play) */
    BG_CUBE_CRAWFORD,              /* "the Crawford game" */
    BG_CUBE_NREASONS
} bg_cube_reason;

/* Error codes of the checks (0 = valid). */
enum {
    BG_CUBE_OK = 0,
    BG_CUBE_E_RANGE,       /* a chance outside [0, 1] (with BG_CUBE_EPS), or NaN */
    BG_CUBE_E_ORDER,       /* not cumulative: wb <= wg <= w, lb <= lg <= 1 - w */
    BG_CUBE_E_X,           /* cube efficiency outside [0, 1] or NaN */
    BG_CUBE_E_OWNER,       /* not one of the three owners */
    BG_CUBE_E_CUBE,        /* not a power of two from 1 to BG_CUBE_MAX_VALUE */
    BG_CUBE_E_TABLE,       /* no table for match play */
    BG_CUBE_E_BEYOND,      /* a side further away than the table covers */
    BG_CUBE_E_BOTH_WON,    /* both sides 0-away or less */
    BG_CUBE_E_POST,        /* post-Crawford but neither side 1-away */
};

/* A match equity table, copied in (so the caller's memory may go).
 * pre[i][j]: the chance of a player i + 1 away against j + 1 away before the
 * Crawford game (a 1-away row or column is the Crawford game itself);
 * post[i]: the trailer i + 1 away after the Crawford game (post[0] = 0.5).
 * Only entries below n are read.
 *
 * Past n (up to BG_MET_AWAY_MAX) the table continues as met.py's extension()
 * says (docs/cube.md, "Longer matches"); its numbers are computed there and
 * copied in: edge_z[j] the normal quantile of pre[n - 1][j], the trailer's
 * chances at n - 1 and n away post-Crawford (post_anchor) and in the Crawford
 * game (crawford_anchor), and the ratio by which both fall every two points.
 * ext = 0: no extension (a table under three points). */
#define BG_MET_AWAY_MAX 32767    /* the longest match (met.MAX_AWAY, game.MAX_MATCH_LENGTH) */
typedef struct {
    int n;                               /* 2 .. BG_MET_MAX */
    double pre[BG_MET_MAX][BG_MET_MAX];
    double post[BG_MET_MAX];
    int ext;
    double edge_z[BG_MET_MAX];
    double post_anchor[2], crawford_anchor[2];
    double ratio;
} bg_met;

/* A chance falling by met->ratio every two points from its values at n - 1
 * and n away (met.py's _geometric). */
static inline double bg_met_geometric(const bg_met *met, const double anchor[2], int64_t away)
{
    int64_t steps = (away - met->n + 1) / 2;
    double base = (away - met->n) % 2 == 0 ? anchor[1] : anchor[0];
    return met->ratio > 0.0 ? base * pow(met->ratio, (double)steps) : 0.0;
}

/* The chance of a player a-away against b-away before the Crawford game (or
 * in it, when one side is 1-away); a, b >= 1, within the table or its
 * extension (met.py's MatchEquityTable.equity). */
static inline double bg_met_pre(const bg_met *met, int64_t a, int64_t b)
{
    int n = met->n, j;
    double t, frac, z;
    if (a <= n && b <= n)
        return met->pre[a - 1][b - 1];
    if (a < b)
        return 1.0 - bg_met_pre(met, b, a);
    if (b == 1)
        return bg_met_geometric(met, met->crawford_anchor, a);
    t = (double)(b * n) / (double)a;     /* the same ratio on the table's last row */
    if (t < 2.0)
        t = 2.0;
    j = (int)t;
    if (j > n - 1)
        j = n - 1;
    frac = t - j;
    z = frac != 0.0 ? met->edge_z[j - 1] + frac * (met->edge_z[j] - met->edge_z[j - 1])
                    : met->edge_z[j - 1];
    return 0.5 * erfc(-(sqrt((double)a / (double)n) * z) / sqrt(2.0));
}

/* The post-Crawford trailer's chance at a away (the leader 1-away), a >= 1. */
static inline double bg_met_post(const bg_met *met, int64_t a)
{
    return a <= met->n ? met->post[a - 1] : bg_met_geometric(met, met->post_anchor, a);
}

/* What a decision needs besides the chances.  Zero-initialised fields are
 * sensible except cube (1), max_cube (64 by the rules) and, for match play,
 * away, opponent_away and met. */
typedef struct {
    int cube;                 /* the cube's value now, a power of two */
    int owner;                /* BG_CUBE_CENTRED / OWN / OPPONENT */
    double x;                 /* cube efficiency, 0 (dead) .. 1 (fully live) */
    int64_t max_cube;         /* the highest value the cube may show (Rules.max_cube) */
    int cube_disabled;        /* Rules(cube=False): doubling is never available */
    int jacoby, beaver;       /* money play only (Rules.jacoby, Rules.beaver) */
    int match;                /* 0: money; 1: match play at away / opponent_away */
    int away, opponent_away;  /* points each side still needs */
    int post_crawford;        /* the Crawford game has been played */
    const bg_met *met;        /* the table, for match play */
} bg_cube_ctx;

typedef struct {
    double no_double, double_take, double_pass;  /* for the player on roll */
    int take;                 /* the opponent should take (a beaver is a take) */
    int beaver;               /* the take is a beaver: double_take counts the redouble */
    int available;            /* doubling is allowed now */
    int action;               /* bg_cube_action */
    int reason;               /* bg_cube_reason (BG_CUBE_AVAILABLE when available) */
} bg_cube_result;

/* ------------------------------------------------------------------ */
/* Checks                                                              */

static inline int bg_cube_check_chances(const double c[5])
{
    const double lo = -BG_CUBE_EPS, hi = 1.0 + BG_CUBE_EPS;
    int i;
    for (i = 0; i < 5; i++)
        if (!(c[i] >= lo && c[i] <= hi))      /* NaN fails too */
            return BG_CUBE_E_RANGE;
    if (!(c[2] <= c[1] + BG_CUBE_EPS && c[1] <= c[0] + BG_CUBE_EPS
          && c[4] <= c[3] + BG_CUBE_EPS && c[3] <= 1.0 - c[0] + BG_CUBE_EPS))
        return BG_CUBE_E_ORDER;
    return BG_CUBE_OK;
}

/* The score check of MatchEquityTable.equity. */
static inline int bg_met_check_score(const bg_met *met, int away, int opponent_away, int post_crawford)
{
    if (met == NULL)
        return BG_CUBE_E_TABLE;
    if ((away > met->n || opponent_away > met->n)
        && (!met->ext || away > BG_MET_AWAY_MAX || opponent_away > BG_MET_AWAY_MAX))
        return BG_CUBE_E_BEYOND;
    if (away <= 0 && opponent_away <= 0)
        return BG_CUBE_E_BOTH_WON;
    if (post_crawford && away > 0 && opponent_away > 0 && away != 1 && opponent_away != 1)
        return BG_CUBE_E_POST;
    return BG_CUBE_OK;
}

static inline int bg_cube_check_value(int64_t cube)
{
    return cube >= 1 && cube <= BG_CUBE_MAX_VALUE && (cube & (cube - 1)) == 0 ? BG_CUBE_OK : BG_CUBE_E_CUBE;
}

/* ------------------------------------------------------------------ */
/* Money play (Janowski)                                               */

/* cubeful.win_loss_values: the clamped win chance and the average points of
 * a win and of a loss. */
static inline void bg_cube_win_loss(const double c[5], double *p, double *big_w, double *big_l)
{
    double w = c[0] < 0.0 ? 0.0 : (c[0] > 1.0 ? 1.0 : c[0]);
    *p = w;
    *big_w = w > BG_CUBE_EPS ? 1.0 + (c[1] + c[2]) / w : 1.0;
    *big_l = w < 1.0 - BG_CUBE_EPS ? 1.0 + (c[3] + c[4]) / (1 - w) : 1.0;
}

/* cubeful._live: the fully live cube's equity, piecewise linear in p. */
static inline double bg_cube_money_live(double p, double big_w, double big_l, int owner, int jacoby)
{
    double k = big_w + big_l + 0.5;
    double tp = (big_l - 0.5) / k, cp = (big_l + 1.0) / k;
    if (owner != BG_CUBE_OPPONENT && p >= cp)
        return jacoby ? 1.0 : 1.0 + (p - cp) * (big_w - 1.0) / (1.0 - cp);
    if (owner != BG_CUBE_OWN && p <= tp)
        return jacoby ? -1.0 : -big_l + p * (big_l - 1.0) / tp;
    if (owner == BG_CUBE_CENTRED)
        return -1.0 + 2.0 * (p - tp) / (cp - tp);
    if (owner == BG_CUBE_OWN)
        return -big_l + p * (big_l + 1.0) / cp;
    return -1.0 + (p - tp) * (big_w + 1.0) / (1.0 - tp);
}

/* cubeful.money_equity: x times the live cube's equity plus (1 - x) times
 * the dead cube's.  jacoby counts only with a centred cube. */
static inline double bg_money_equity_d(const double c[5], int owner, double x, int jacoby)
{
    double p, big_w, big_l, dead_w, dead_l, dead;
    bg_cube_win_loss(c, &p, &big_w, &big_l);
    jacoby = jacoby && owner == BG_CUBE_CENTRED;
    dead_w = jacoby ? 1.0 : big_w;
    dead_l = jacoby ? 1.0 : big_l;
    dead = p * dead_w - (1 - p) * dead_l;
    return x * bg_cube_money_live(p, big_w, big_l, owner, jacoby) + (1 - x) * dead;
}

static inline double bg_money_equity(const float probs[5], int owner, double x, int jacoby)
{
    double c[5] = {probs[0], probs[1], probs[2], probs[3], probs[4]};
    return bg_money_equity_d(c, owner, x, jacoby);
}

/* ------------------------------------------------------------------ */
/* Match play (cubeful.MatchModel)                                     */

#define BG_CUBE_LEVELS 64    /* log2 of any int64 cube value */

typedef struct {
    const bg_met *met;
    double p;                /* the win chance as given (not clamped: MatchModel.dead uses it so) */
    int away[2];             /* [0]: the player on roll */
    int crawford, rest;      /* this game is the Crawford game; after it, 1-away is post-Crawford */
    int64_t max_cube;
    double split[2][3];      /* per side: fractions of its wins single, gammon, backgammon */
    double tp[2][BG_CUBE_LEVELS];
    uint64_t tp_known[2];    /* bit l: tp[side][l] is computed */
} bg_match_model;

static inline void bg_cube_split(double w, double gammon, double backgammon, double out[3])
{
    if (w <= BG_CUBE_EPS) {
        out[0] = 1.0; out[1] = 0.0; out[2] = 0.0;
        return;
    }
    out[0] = (w - gammon) / w;
    out[1] = (gammon - backgammon) / w;
    out[2] = backgammon / w;
}

/* The score must have passed bg_met_check_score. */
static inline void bg_match_model_init(bg_match_model *m, const double c[5], int away, int opponent_away,
                                       int post_crawford, int64_t max_cube, const bg_met *met)
{
    double w = c[0] < 0.0 ? 0.0 : (c[0] > 1.0 ? 1.0 : c[0]);
    m->met = met;
    m->p = c[0];
    m->away[0] = away;
    m->away[1] = opponent_away;
    m->crawford = (away == 1 || opponent_away == 1) && !post_crawford;
    m->rest = post_crawford || m->crawford;
    m->max_cube = max_cube;
    bg_cube_split(w, c[1], c[2], m->split[0]);
    bg_cube_split(1 - w, c[3], c[4], m->split[1]);
    m->tp_known[0] = m->tp_known[1] = 0;
}

/* Side's match winning chance once it has won own_points and lost opp_points. */
static inline double bg_match_mwc(const bg_match_model *m, int side, int64_t own_points, int64_t opp_points)
{
    int64_t a = m->away[side] - own_points, b = m->away[1 - side] - opp_points;
    if (a <= 0)
        return 1.0;
    if (b <= 0)
        return 0.0;
    if (m->rest && (a == 1 || b == 1))
        return a == 1 ? 1.0 - bg_met_post(m->met, b) : bg_met_post(m->met, a);
    return bg_met_pre(m->met, a, b);
}

/* Side's average chance when it wins (bg_match_win) or loses the game on v. */
static inline double bg_match_win(const bg_match_model *m, int side, int64_t v)
{
    const double *s = m->split[side];
    return s[0] * bg_match_mwc(m, side, v, 0) + s[1] * bg_match_mwc(m, side, 2 * v, 0)
         + s[2] * bg_match_mwc(m, side, 3 * v, 0);
}

static inline double bg_match_lose(const bg_match_model *m, int side, int64_t v)
{
    const double *s = m->split[1 - side];
    return s[0] * bg_match_mwc(m, side, 0, v) + s[1] * bg_match_mwc(m, side, 0, 2 * v)
         + s[2] * bg_match_mwc(m, side, 0, 3 * v);
}

static inline int bg_match_can_redouble(const bg_match_model *m, int side, int64_t v)
{
    return !m->crawford && 2 * v <= m->max_cube && m->away[side] > v;
}

static inline int bg_cube_log2(int64_t v)
{
    int l = 0;
    while (l < BG_CUBE_LEVELS - 1 && ((int64_t)1 << (l + 1)) <= v)
        l++;
    return l;
}

/* The least win chance with which side takes a double to v, fully live.
 * A side that can redouble after taking cashes at the other's take point of
 * 2v, so the chain runs up the cube levels; it stops where a side cannot
 * redouble (a single win wins the match, the cube limit, the Crawford game),
 * which bounds it by log2(away) levels. */
static inline double bg_match_take_point(bg_match_model *m, int side, int64_t v)
{
    int l = bg_cube_log2(v);
    double drop, lose, cash_at, top, tp;
    if (m->tp_known[side] >> l & 1)
        return m->tp[side][l];
    drop = bg_match_mwc(m, side, 0, v / 2);
    lose = bg_match_lose(m, side, v);
    if (bg_match_can_redouble(m, side, v)) {
        cash_at = 1.0 - bg_match_take_point(m, 1 - side, 2 * v);
        top = bg_match_mwc(m, side, v, 0);      /* the opponent passes the redouble */
    } else {
        cash_at = 1.0;
        top = bg_match_win(m, side, v);
    }
    tp = top > lose ? cash_at * (drop - lose) / (top - lose) : 0.0;
    m->tp[side][l] = tp;
    m->tp_known[side] |= (uint64_t)1 << l;
    return tp;
}

static inline double bg_match_dead(const bg_match_model *m, int64_t v)
{
    return m->p * bg_match_win(m, 0, v) + (1 - m->p) * bg_match_lose(m, 0, v);
}

/* The on-roll side's fully live match winning chance, piecewise linear in p
 * through the knots (0, lose), [its take point, it passes], [the
 * opponent's take point, they pass], (1, win). */
static inline double bg_match_live(bg_match_model *m, int64_t v, int owner)
{
    double kp[4], ke[4];
    int n = 0, i;
    double p = m->p;
    kp[n] = 0.0; ke[n++] = bg_match_lose(m, 0, v);
    if (owner != BG_CUBE_OWN && bg_match_can_redouble(m, 1, v)) {
        kp[n] = bg_match_take_point(m, 0, 2 * v); ke[n++] = bg_match_mwc(m, 0, 0, v);
    }
    if (owner != BG_CUBE_OPPONENT && bg_match_can_redouble(m, 0, v)) {
        kp[n] = 1.0 - bg_match_take_point(m, 1, 2 * v); ke[n++] = bg_match_mwc(m, 0, v, 0);
    }
    kp[n] = 1.0; ke[n++] = bg_match_win(m, 0, v);
    for (i = 0; i + 1 < n; i++) {
        if (p <= kp[i + 1])
            return kp[i + 1] <= kp[i] ? ke[i] : ke[i] + (p - kp[i]) * (ke[i + 1] - ke[i]) / (kp[i + 1] - kp[i]);
    }
    return ke[n - 1];
}

static inline double bg_match_cubeful(bg_match_model *m, int64_t v, int owner, double x)
{
    return x * bg_match_live(m, v, owner) + (1 - x) * bg_match_dead(m, v);
}

/* cubeful.match_equity: the on-roll side's cubeful match winning chance;
 * NaN when the score fails bg_met_check_score or the cube bg_cube_check_value. */
static inline double bg_match_equity_d(const double c[5], int away, int opponent_away, int64_t cube,
                                       int owner, double x, int post_crawford, int64_t max_cube,
                                       const bg_met *met)
{
    bg_match_model m;
    if (bg_met_check_score(met, away, opponent_away, post_crawford) != BG_CUBE_OK
        || bg_cube_check_value(cube) != BG_CUBE_OK)
        return NAN;
    bg_match_model_init(&m, c, away, opponent_away, post_crawford, max_cube, met);
    return bg_match_cubeful(&m, cube, owner, x);
}

static inline double bg_match_equity(const float probs[5], int away, int opponent_away, int64_t cube,
                                     int owner, double x, int post_crawford, int64_t max_cube,
                                     const bg_met *met)
{
    double c[5] = {probs[0], probs[1], probs[2], probs[3], probs[4]};
    return bg_match_equity_d(c, away, opponent_away, cube, owner, x, post_crawford, max_cube, met);
}

/* ------------------------------------------------------------------ */
/* Decisions (CubeDecision.from_chances)                               */

/* Checks the context apart from the chances (BG_CUBE_OK or an error). */
static inline int bg_cube_check_ctx(const bg_cube_ctx *ctx)
{
    int e;
    if ((e = bg_cube_check_value(ctx->cube)) != BG_CUBE_OK)
        return e;
    if (ctx->owner != BG_CUBE_CENTRED && ctx->owner != BG_CUBE_OWN && ctx->owner != BG_CUBE_OPPONENT)
        return BG_CUBE_E_OWNER;
    if (!(ctx->x >= 0.0 && ctx->x <= 1.0))
        return BG_CUBE_E_X;
    if (ctx->match)
        return bg_met_check_score(ctx->met, ctx->away, ctx->opponent_away, ctx->post_crawford);
    return BG_CUBE_OK;
}

/* Whether the player on roll may double, and why not. */
static inline int bg_cube_reason_of(const bg_cube_ctx *ctx)
{
    if (ctx->owner == BG_CUBE_OPPONENT)
        return BG_CUBE_OPPONENT_OWNS;
    if (ctx->cube_disabled || 2 * (int64_t)ctx->cube > ctx->max_cube)
        return BG_CUBE_AT_LIMIT;
    if (ctx->match && (ctx->away == 1 || ctx->opponent_away == 1) && !ctx->post_crawford
        && !(ctx->away == 1 && ctx->opponent_away == 1))
        return BG_CUBE_CRAWFORD;
    return BG_CUBE_AVAILABLE;
}

/* The decision from checked inputs (bg_cube_decide checks them first). */
static inline void bg_cube_decide_unchecked(const double c[5], const bg_cube_ctx *ctx, bg_cube_result *r)
{
    double nd, dt, dp, doubled;
    int64_t cube = ctx->cube;
    int beaver = 0, take, jacoby;
    r->reason = bg_cube_reason_of(ctx);
    r->available = r->reason == BG_CUBE_AVAILABLE;
    if (!ctx->match) {
        jacoby = ctx->jacoby && ctx->owner == BG_CUBE_CENTRED;
        nd = bg_money_equity_d(c, ctx->owner, ctx->x, jacoby);
        dt = 2 * bg_money_equity_d(c, BG_CUBE_OPPONENT, ctx->x, 0);
        dp = 1.0;
        if (ctx->beaver && dt < 0 && !ctx->cube_disabled && 4 * cube <= ctx->max_cube) {
            dt = 2 * dt;          /* the taker redoubles at once: 4 x its equity */
            beaver = 1;
        }
    } else {
        bg_match_model m;
        bg_match_model_init(&m, c, ctx->away, ctx->opponent_away, ctx->post_crawford, ctx->max_cube, ctx->met);
        nd = bg_match_cubeful(&m, cube, ctx->owner, ctx->x);
        dt = bg_match_cubeful(&m, 2 * cube, BG_CUBE_OPPONENT, ctx->x);
        dp = bg_match_mwc(&m, 0, cube, 0);
    }
    take = dt <= dp;
    doubled = dt < dp ? dt : dp;
    r->no_double = nd;
    r->double_take = dt;
    r->double_pass = dp;
    r->take = take;
    r->beaver = beaver;
    if (!r->available)
        r->action = BG_CUBE_NOT_AVAILABLE;
    else if (doubled > nd + BG_CUBE_TIE || (!take && doubled >= nd - BG_CUBE_TIE))   /* cash on a tie */
        r->action = !take ? BG_CUBE_DOUBLE_PASS : beaver ? BG_CUBE_DOUBLE_BEAVER : BG_CUBE_DOUBLE_TAKE;
    else if (!take)
        r->action = BG_CUBE_TOO_GOOD_PASS;
    else if (nd > dp)
        r->action = beaver ? BG_CUBE_TOO_GOOD_BEAVER : BG_CUBE_TOO_GOOD_TAKE;
    else
        r->action = beaver ? BG_CUBE_NO_DOUBLE_BEAVER : BG_CUBE_NO_DOUBLE_TAKE;
}

/* The decision: BG_CUBE_OK and *r filled, or an error code (r untouched). */
static inline int bg_cube_decide_d(const double c[5], const bg_cube_ctx *ctx, bg_cube_result *r)
{
    int e = bg_cube_check_chances(c);
    if (e == BG_CUBE_OK)
        e = bg_cube_check_ctx(ctx);
    if (e == BG_CUBE_OK)
        bg_cube_decide_unchecked(c, ctx, r);
    return e;
}

static inline int bg_cube_decide(const float probs[5], const bg_cube_ctx *ctx, bg_cube_result *r)
{
    double c[5] = {probs[0], probs[1], probs[2], probs[3], probs[4]};
    return bg_cube_decide_d(c, ctx, r);
}

/* ------------------------------------------------------------------ */
/* Cube efficiency (cubeful.cube_efficiency: gnubg's defaults)          */

/* board: the 26 points of a valid board (own checkers positive, a[25] own
 * bar, a[0] the opponent's bar).  0.68 with contact; a race
 * 0.55 + 0.00125 * (the pips of the player on roll) within [0.6, 0.7] (the
 * side gnubg counts: benchmarks/peers_cube.py); 0.6 once both sides are in
 * their home boards (or a side has no checkers left). */
static inline double bg_cube_efficiency(const int8_t *board)
{
    int p, own_max = -1, opp_min = 26, pips = 0;
    double x;
    for (p = 1; p <= 25; p++)
        if (board[p] > 0) {
            own_max = p;
            pips += p * board[p];
        }
    for (p = 24; p >= 0; p--)
        if (board[p] < 0)
            opp_min = p;
    if (own_max < 0 || opp_min > 24)
        return 0.6;
    if (own_max > opp_min)
        return 0.68;                    /* contact */
    if (own_max <= 6 && opp_min >= 19)
        return 0.6;                     /* both bearing off */
    x = 0.55 + 0.00125 * pips;
    return x > 0.7 ? 0.7 : (x < 0.6 ? 0.6 : x);
}

#endif /* BGCORE_CUBE_H */
