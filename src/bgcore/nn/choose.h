/*
 * nn/choose.h -- part of the neural evaluator (included by nn.h, never alone).
 * The incremental move choice: a roll's candidates scored from the sums of the position before it.
 */
#ifndef BGCORE_NN_CHOOSE_H
#define BGCORE_NN_CHOOSE_H

/* ------------------------------------------------------------------ */
/* Move choice, incremental                                            */

typedef struct {
    int8_t base[32];       /* the position after swapping (26 bytes) */
    bg_nn_scan_t scan;
    int ready[BG_NN_MAXNETS];
    float f[BG_NN_MAXNETS][BG_NN_MAXFEAT];   /* the base's features in each net's encoding */
    float acc[BG_NN_MAXNETS][BG_NN_MAXH];
    int16_t qacc[BG_NN_MAXNETS][BG_NN_MAXH];   /* the sums of a quantised net (nn/quant.h) */
} bg_nn_base;

/* base: the position after swapping, scanned as scan */
static inline void bg_nn_base_init(bg_nn_base *s, const int8_t *base, const bg_nn_scan_t *scan)
{
    int c;
    memcpy(s->base, base, BG_NPTS);
    for (c = 0; c < BG_NN_MAXNETS; c++) s->ready[c] = 0;
    s->scan = *scan;
}

/*
 * What move choices from one position share: its first-layer sums for the
 * full nets and for the screen, kept until a choice from another position
 * (the 21 rolls of an evaluation one ply deeper are choices from one
 * position, so they pay for its sums once).  One chooser serves one
 * evaluator.
 */
typedef struct {
    bg_nn_base full, screen;
    int have;              /* full and screen hold a position */
} bg_nn_chooser;

static inline void bg_nn_chooser_init(bg_nn_chooser *c) { c->have = 0; }

static inline void bg_nn_chooser_at(bg_nn_chooser *c, const int8_t *before)
{
    int8_t base[32];
    bg_nn_scan_t scan;
    bg_swap(before, base);
    if (c->have && memcmp(base, c->full.base, BG_NPTS) == 0) return;
    bg_nn_scan(base, &scan);
    bg_nn_base_init(&c->full, base, &scan);
    bg_nn_base_init(&c->screen, base, &scan);
    c->have = 1;
}

static inline const float *bg_nn_base_acc(bg_nn_base *s, const bg_mlp *m, int cls)
{
    if (!s->ready[cls]) {
        int16_t idx[BG_NN_MAXNZ];
        float val[BG_NN_MAXNZ];
        int n = bg_nn_encode_scan_enc(m->enc, s->base, &s->scan, idx, val);
        bg_nn_features_enc(m->enc, s->base, &s->scan, s->f[cls]);
        if (m->q) bg_q_accumulate(m->q, m->q->b1, idx, val, n, s->qacc[cls]);
        else bg_nn_accumulate(m, idx, val, n, s->acc[cls]);
        s->ready[cls] = 1;
    }
    return s->acc[cls];
}

/* Raw outputs of board e (scanned as es, both sides playing, of class
 * cls) from the first-layer sums of the base position plus e's differences. */
static inline void bg_nn_delta_eval(bg_nn_base *s, const bg_mlp *m, int cls, const int8_t *e,
                                    const bg_nn_scan_t *es, float *out)
{
    float acc[BG_NN_MAXH], h[BG_NN_HBUF], f[BG_NN_MAXFEAT];
    int16_t idx[BG_NN_NPTS_DELTA];
    float val[BG_NN_NPTS_DELTA];
    int i, n = 0, nf;
    uint32_t diff;
    const float *bf;
    int d_own = s->scan.own_count - es->own_count, d_opp = s->scan.opp_count - es->opp_count;
    const int8_t *b0 = s->base;
    const float *a0 = bg_nn_base_acc(s, m, cls);   /* fills s->f[cls] */
    if (m->enc >= 5) {    /* binary inputs (nn/feat5.h, nn/feat6.h) */
        n = m->enc == 5 ? bg_nn5_delta(b0, &s->scan, s->f[cls], e, es, f, idx, val)
                        : bg_nn6_delta(b0, &s->scan, s->f[cls], e, es, f, idx, val);
        if (m->q) bg_q_outputs(m->q, s->qacc[cls], idx, val, n, out);
        else bg_nn_outputs_from(m, a0, idx, val, n, acc, h, out);
        return;
    }
    /* the points that changed, in rising order */
    for (diff = bg_nn_changed_cells(e, b0); diff; diff &= diff - 1) {
        i = bg_ctz(diff);
        n += bg_nn_cell_signed(i, b0[i], -1.0f, idx + n, val + n);   /* the old cell leaves */
        n += bg_nn_cell(i, e[i], idx + n, val + n);
    }
    /* borne off: 15 - count, so the change is the count's fall */
    if (d_own) { idx[n] = 97; val[n++] = (float)d_own * (1.0f / 15.0f); }
    if (d_opp) { idx[n] = BG_NN_SIDE + 97; val[n++] = (float)d_opp * (1.0f / 15.0f); }
    nf = bg_nn_features_enc(m->enc, e, es, f);
    bf = s->f[cls];
    for (i = 0; i < nf; i++)
        if (f[i] != bf[i]) { idx[n] = (int16_t)(BG_NN_RAW + i); val[n++] = f[i] - bf[i]; }
    bg_nn_outputs_from(m, a0, idx, val, n, acc, h, out);
}

/* Scores play e (swapped, scanned as es) with the nets of nn from base s:
 * the mover's equity; out receives the opponent's five probabilities. */
static inline float bg_nn_score(const bg_evaluator *ev, const bg_nn *nn, bg_nn_base *s,
                                const int8_t *e, const bg_nn_scan_t *es, float *out)
{
    if (!bg_nn_known(ev, e, es, out)) {
        int cls = bg_nn_class(nn, e, es);
        bg_nn_delta_eval(s, &nn->net[cls], cls, e, es, out);
        bg_nn_tidy_scan(es, out);
    }
    return -bg_equity(out);
}

static inline int64_t bg_nn_choose_pruned(const bg_evaluator *ev, bg_nn_chooser *c,
                                          const int8_t *cands, int64_t n, float *best_probs);

/*
 * The index of the best of the n plays at `cands` (26 bytes each, seen by
 * the player who moves, who played from `before`): the highest cubeless
 * equity for the mover; ties go to the first.  When `probs` is not NULL it
 * receives, for every play, the five probabilities of the resulting
 * position for the OPPONENT, now on roll (n x 5); `best_probs` (5, may be
 * NULL) those of the chosen play.  An evaluator with a screen (ev->prune)
 * makes the choices that need no probs by bg_nn_choose_pruned.  The
 * chooser c keeps the sums of `before` for the next choice (bg_nn_chooser).
 */
static inline int64_t bg_nn_choose_in(const bg_evaluator *ev, bg_nn_chooser *c,
                                      const int8_t *cands, int64_t n, const int8_t *before,
                                      float *probs, float *best_probs)
{
    int8_t e[32];
    float out[BG_NN_NOUT], best_out[BG_NN_NOUT];
    float best = 0.0f;
    int64_t i, pick = 0;
    bg_nn_chooser_at(c, before);
    if (ev->prune && !probs && (n > ev->keep || (ev->margin > 0.0f && n > 1)))
        return bg_nn_choose_pruned(ev, c, cands, n, best_probs);
    for (i = 0; i < n; i++) {
        float eq;
        bg_nn_scan_t es;
        bg_swap(cands + i * BG_NPTS, e);
        bg_nn_scan(e, &es);
        eq = bg_nn_score(ev, ev->nn, &c->full, e, &es, out);
        if (probs) memcpy(probs + i * BG_NN_NOUT, out, sizeof out);
        if (i == 0 || eq > best) { best = eq; pick = i; memcpy(best_out, out, sizeof out); }
    }
    if (best_probs) memcpy(best_probs, best_out, sizeof best_out);
    return pick;
}

/* bg_nn_choose_in for one choice. */
static inline int64_t bg_nn_choose(const bg_evaluator *ev, const int8_t *cands, int64_t n,
                                   const int8_t *before, float *probs, float *best_probs)
{
    bg_nn_chooser c;
    bg_nn_chooser_init(&c);
    return bg_nn_choose_in(ev, &c, cands, n, before, probs, best_probs);
}

/*
 * A choice with a screen (ev->prune, gnubg's "pruning nets" in spirit): the
 * small nets score every play, and only the ev->keep best of those are
 * scored by the full nets, which pick among them (ties: the first); with a
 * margin (ev->margin > 0), only those of them within the margin of the
 * screen's best (a play far behind is rarely the full nets' best).  For
 * choices where only the chosen play counts: rollouts, duels and the
 * replies inside 1- and 2-ply evaluations.  The screen's errors are
 * measured in docs/nn.md ("Pruning").  A play the screen leaves alone is
 * chosen without the full nets unless best_probs asks for its chances.
 */
static inline int64_t bg_nn_choose_pruned(const bg_evaluator *ev, bg_nn_chooser *c,
                                          const int8_t *cands, int64_t n, float *best_probs)
{
    int8_t e[32];
    float out[BG_NN_NOUT], best_out[BG_NN_NOUT], top_eq[BG_NN_MAXKEEP], eq, best = 0.0f;
    int64_t top[BG_NN_MAXKEEP], i, pick = 0;
    int k = 0, j, keep = ev->keep;
    bg_nn_scan_t es;
    if (keep > BG_NN_MAXKEEP) keep = BG_NN_MAXKEEP;
    if (keep < 1) keep = 1;
    for (i = 0; i < n; i++) {
        bg_swap(cands + i * BG_NPTS, e);
        bg_nn_scan(e, &es);
        eq = bg_nn_score(ev, ev->prune, &c->screen, e, &es, out);
        if (k < keep || eq > top_eq[k - 1]) {   /* into the screen's best, best first */
            j = k < keep ? k++ : k - 1;
            while (j > 0 && top_eq[j - 1] < eq) {
                top_eq[j] = top_eq[j - 1];
                top[j] = top[j - 1];
                j--;
            }
            top_eq[j] = eq;
            top[j] = i;
        }
    }
    if (ev->margin > 0.0f)                       /* the screen's best, then those close to it */
        while (k > 1 && top_eq[k - 1] < top_eq[0] - ev->margin) k--;
    if (k == 1 && !best_probs) return top[0];   /* the full nets would only confirm it */
    for (i = 1; i < k; i++) {                    /* in play order: ties go to the first */
        int64_t t = top[i];
        for (j = (int)i; j > 0 && top[j - 1] > t; j--) top[j] = top[j - 1];
        top[j] = t;
    }
    for (j = 0; j < k; j++) {
        bg_swap(cands + top[j] * BG_NPTS, e);
        bg_nn_scan(e, &es);
        eq = bg_nn_score(ev, ev->nn, &c->full, e, &es, out);
        if (j == 0 || eq > best) { best = eq; pick = top[j]; memcpy(best_out, out, sizeof out); }
    }
    if (best_probs) memcpy(best_probs, best_out, sizeof best_out);
    return pick;
}

#endif /* BGCORE_NN_CHOOSE_H */
