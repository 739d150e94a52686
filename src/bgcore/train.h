/*
 * train.h -- TD(0) self-play for the nets of nn.h, in C: no Python per
 * move.  One call plays games with one copy of the weights and updates it
 * after every move; the Python layer (backgammon.train) runs one call per
 * thread on its own copy and averages the copies in a fixed order, so a
 * run depends only on its seed and thread count.
 *
 * Each move: the mover picks the play whose resulting position is best for
 * it (bg_nn_choose, greedy), and the position before the roll, s, is moved
 * toward the value of the position after the play, seen from s's side: the
 * game's result when the play ends it (win, gammon and backgammon flags
 * from bg_finished), an exact value when the evaluator has one, else the
 * nets' own evaluation of it (TD(0) on the positions before each roll).
 * The loss is cross-entropy on each of the five outputs.  TD runs nets of
 * one hidden layer (the caller refuses others); supervised training
 * (sgd.h) runs both kinds.
 */
#ifndef BGCORE_TRAIN_H
#define BGCORE_TRAIN_H

#include "playout.h"

/* The mutable weights of one net (the same arrays as the bg_mlp's; wm and
 * bm NULL without a middle layer). */
typedef struct {
    float *w1, *b1, *w2, *b2, *wm, *bm;
} bg_mlp_rw;

/* One gradient step of net m (writable through rw) moving its outputs at
 * board b toward target t, with learning rate lr. */
static inline void bg_td_update(const bg_mlp *m, const bg_mlp_rw *rw, const int8_t *b,
                                const float *t, float lr)
{
    int16_t idx[BG_NN_MAXNZ];
    float val[BG_NN_MAXNZ], acc[BG_NN_MAXH], h[BG_NN_HBUF], g[BG_NN_MAXH];
    float out[BG_NN_NOUT], delta[BG_NN_NOUT];
    int n, i, j, k, hp = m->hpad, nh = m->nhid;
    n = bg_nn_encode_enc(m->enc, b, idx, val);
    bg_nn_accumulate(m, idx, val, n, acc);
    bg_nn_head(m, acc, h, out);
    for (k = 0; k < BG_NN_NOUT; k++) delta[k] = lr * (t[k] - out[k]);
    for (j = 0; j < hp; j++) g[j] = 0.0f;
    for (k = 0; k < BG_NN_NOUT; k++) {
        const float *w = m->w2 + (size_t)k * hp;
        for (j = 0; j < nh; j++) g[j] += delta[k] * w[j];
    }
    for (j = 0; j < nh; j++) {
        float a = 1.0f - fabsf(2.0f * h[j] - 1.0f);
        g[j] *= 0.5f * a * a;                  /* the soft sigmoid's slope */
    }
    for (k = 0; k < BG_NN_NOUT; k++) {
        float *w = rw->w2 + (size_t)k * hp;
        for (j = 0; j < nh; j++) w[j] += delta[k] * h[j];
        rw->b2[k] += delta[k];
    }
    for (j = 0; j < hp; j++) rw->b1[j] += g[j];
    for (i = 0; i < n; i++) {
        float *col = rw->w1 + (size_t)idx[i] * hp, v = val[i];
        for (j = 0; j < hp; j++) col[j] += v * g[j];
    }
}

/*
 * Self-play games first_game .. first_game + ngames - 1 from `start` (the
 * player on roll about to roll), dice from stream (seed, k), updating the
 * nets of ev (writable through rw[nnets]) after every move.  Returns the plies
 * played, -1 when memory ran out, BG_E_TOO_LONG, or BG_E_CANCELLED (checked
 * once a game; the nets keep the updates of the games played).
 */
static inline int64_t bg_td_games(const bg_evaluator *ev, const bg_mlp_rw *rw, const int8_t *start,
                                  uint64_t seed, int64_t first_game, int64_t ngames, float lr,
                                  bg_cancel *cancel)
{
    bg_gen *g = bg_gen_new();
    int64_t k, plies = 0;
    if (!g) return -1;
    g->want_moves = 0;
    for (k = first_game; k < first_game + ngames; k++) {
        int8_t board[32];
        bg_rng r;
        int64_t ply;
        if (bg_cancelled(cancel)) { bg_gen_free(g); return BG_E_CANCELLED; }
        memcpy(board, start, BG_NPTS);
        memset(board + BG_NPTS, 0, 32 - BG_NPTS);
        bg_rng_seed(&r, seed, (uint64_t)k);
        for (ply = 0; ply < BG_MAX_PLIES; ply++) {
            int d1, d2, points, cls;
            int64_t n, pick;
            float next[BG_NN_NOUT], target[BG_NN_NOUT], exact[BG_NN_NOUT];
            bg_nn_scan_t sc;
            const int8_t *res;
            bg_game_roll(&r, k, ply, 0, &d1, &d2);
            g->out.n = 0;
            n = bg_generate(g, board, d1, d2);
            if (n < 0) { bg_gen_free(g); return -1; }
            pick = bg_nn_choose(ev, g->out.pos, n, board, NULL, next);
            res = g->out.pos + pick * BG_NPTS;
            points = bg_finished(res);
            if (points) {
                target[0] = 1.0f;
                target[1] = points >= 2 ? 1.0f : 0.0f;
                target[2] = points >= 3 ? 1.0f : 0.0f;
                target[3] = target[4] = 0.0f;
            } else {
                bg_flip(next, target);
            }
            /* positions the evaluator knows exactly need no training */
            bg_nn_scan(board, &sc);
            if (!bg_nn_known(ev, board, &sc, exact)) {
                cls = bg_nn_class(ev->nn, board, &sc);
                bg_td_update(&ev->nn->net[cls], &rw[cls], board, target, lr);
            }
            if (points) break;
            bg_swap32(res, board);
        }
        plies += ply + 1;
        if (ply == BG_MAX_PLIES) { bg_gen_free(g); return BG_E_TOO_LONG; }
    }
    bg_gen_free(g);
    return plies;
}

#endif /* BGCORE_TRAIN_H */
