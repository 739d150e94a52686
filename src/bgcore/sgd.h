/*
 * sgd.h -- supervised training of one net of nn.h on (board, five target
 * probabilities) examples, in C: minibatches, cross-entropy on each of the
 * five logistic outputs, Adam or SGD with momentum, a cosine learning-rate
 * schedule.  No Python, no globals: the caller (backgammon.train) shuffles,
 * keeps the optimizer state and the step count between calls, and may train
 * the contact and race nets in two threads at once (they share nothing).
 *
 * Determinism: the examples of a batch are added in order, every update is
 * elementwise in a fixed order, so a run depends only on its data, order
 * and settings (never on threads or timing).  A call stops before a batch
 * when cancelled, so the state after it is that of the batches it reports
 * done: a resumed run continues exactly from any stop.
 *
 * The loss of an example is sum_k -(t_k log o_k + (1 - t_k) log(1 - o_k))
 * over the five raw outputs o (before bg_nn_tidy); its gradient with
 * respect to output k's sum is o_k - t_k.  Only the nhid real hidden units
 * (and nmid real middle units) learn: the padding stays zero.
 */
#ifndef BGCORE_SGD_H
#define BGCORE_SGD_H

#include <stdlib.h>
#include "train.h"

#define BG_SGD_MOMENTUM 0
#define BG_SGD_ADAM 1

typedef struct {
    int method;          /* BG_SGD_ADAM or BG_SGD_MOMENTUM */
    float lr, lr_final;  /* cosine from lr (step 0) to lr_final (step total_steps) */
    int64_t total_steps;
    float beta1;         /* Adam's first moment, or the momentum */
    float beta2, eps;    /* Adam only */
} bg_sgd_opts;

/* The padded width of the layer under the outputs. */
static inline int bg_sgd_opad(const bg_mlp *m)
{
    return m->nmid ? m->mpad : m->hpad;
}

/* Parameters of a net, in the order the optimizer state holds them: w1,
 * b1, w2, b2, then a middle layer's wm and bm. */
static inline int64_t bg_sgd_nparams(const bg_mlp *m)
{
    int64_t mid = m->nmid ? (int64_t)m->mpad * m->hpad + m->mpad : 0;
    return (int64_t)m->nin * m->hpad + m->hpad + (int64_t)BG_NN_NOUT * bg_sgd_opad(m)
           + BG_NN_NOUT + mid;
}

/* The learning rate of step s (0-based). */
static inline float bg_sgd_lr(const bg_sgd_opts *o, int64_t s)
{
    double x = o->total_steps > 0 ? (double)s / (double)o->total_steps : 1.0;
    if (x > 1.0) x = 1.0;
    return (float)(o->lr_final + (o->lr - o->lr_final) * 0.5 * (1.0 + cos(3.14159265358979323846 * x)));
}

/* Cross-entropy of raw outputs o against targets t (outputs clamped away
 * from 0 and 1 so that a confident miss counts, finitely). */
static inline double bg_sgd_xent(const float *o, const float *t)
{
    double s = 0.0;
    int k;
    for (k = 0; k < BG_NN_NOUT; k++) {
        double p = o[k] < 1e-7f ? 1e-7 : o[k] > 1.0f - 1e-7f ? 1.0 - 1e-7 : (double)o[k];
        s -= t[k] * log(p) + (1.0 - t[k]) * log(1.0 - p);
    }
    return s;
}

/* The raw outputs of net m at board b, with the first-layer inputs and the
 * hidden activations (for the gradient). */
static inline void bg_sgd_forward(const bg_mlp *m, const int8_t *b, int16_t *idx, float *val,
                                  int *nz, float *h, float *out)
{
    float acc[BG_NN_MAXH];
    *nz = bg_nn_encode_enc(m->enc, b, idx, val);
    bg_nn_accumulate(m, idx, val, *nz, acc);
    bg_nn_head(m, acc, h, out);
}

/* Sum of the losses of examples order[0 .. n) (boards: 26 bytes a row,
 * targets: 5 floats a row).  Returns 0, or BG_E_CANCELLED. */
static inline int bg_sgd_loss(const bg_mlp *m, const int8_t *boards, const float *targets,
                              const int64_t *order, int64_t n, double *sum, bg_cancel *cancel)
{
    int16_t idx[BG_NN_MAXNZ];
    float val[BG_NN_MAXNZ], h[BG_NN_HBUF], out[BG_NN_NOUT];
    int64_t i;
    int nz;
    *sum = 0.0;
    for (i = 0; i < n; i++) {
        int64_t r = order[i];
        if ((i & 255) == 0 && bg_cancelled(cancel)) return BG_E_CANCELLED;
        bg_sgd_forward(m, boards + r * BG_NPTS, idx, val, &nz, h, out);
        *sum += bg_sgd_xent(out, targets + r * BG_NN_NOUT);
    }
    return 0;
}

/* One optimizer step of the array w of `rows` rows of `stride` values, of
 * which the first `live` of each row learn (the rest is padding), from its
 * gradient sum g over `count` examples; m and v are its moments, t the
 * 1-based step. */
static inline void bg_sgd_apply(const bg_sgd_opts *o, float lr, int64_t t, float *w, const float *g,
                                float *m, float *v, int64_t rows, int stride, int live, float count)
{
    int64_t r;
    int j;
    float inv = 1.0f / count, b1 = o->beta1, b2 = o->beta2;
    if (o->method == BG_SGD_ADAM) {
        float c1 = (float)(1.0 - pow((double)b1, (double)t));
        float c2 = (float)(1.0 - pow((double)b2, (double)t));
        float step = lr / c1, rc2 = 1.0f / c2;
        for (r = 0; r < rows; r++) {
            float *wr = w + r * stride, *mr = m + r * stride, *vr = v + r * stride;
            const float *gr = g + r * stride;
            for (j = 0; j < live; j++) {
                float gi = gr[j] * inv;
                mr[j] = b1 * mr[j] + (1.0f - b1) * gi;
                vr[j] = b2 * vr[j] + (1.0f - b2) * gi * gi;
                wr[j] -= step * mr[j] / (sqrtf(vr[j] * rc2) + o->eps);
            }
        }
    } else {
        for (r = 0; r < rows; r++) {
            float *wr = w + r * stride, *mr = m + r * stride;
            const float *gr = g + r * stride;
            for (j = 0; j < live; j++) {
                mr[j] = b1 * mr[j] + gr[j] * inv;
                wr[j] -= lr * mr[j];
            }
        }
    }
}

/*
 * Trains net m (writable through rw) on examples order[0 .. n) in batches
 * of `batch`, from optimizer step *step (updated).  state: 2 x
 * bg_sgd_nparams(m) floats (first moments, then second moments; the second
 * half is unused by momentum), zero at a run's start.  *done receives the
 * examples of the completed batches and *loss_sum the sum of their losses,
 * each taken before its batch's update.  Returns 0, -1 when memory ran out,
 * or BG_E_CANCELLED (checked before every batch).
 */
static inline int bg_sgd_train(const bg_mlp *m, const bg_mlp_rw *rw, const bg_sgd_opts *o,
                               float *state, const int8_t *boards, const float *targets,
                               const int64_t *order, int64_t n, int64_t batch, int64_t *step,
                               int64_t *done, double *loss_sum, bg_cancel *cancel)
{
    int hp = m->hpad, nh = m->nhid, nin = m->nin, nm = m->nmid, mp = m->mpad;
    int op = bg_sgd_opad(m), olive = nm ? nm : nh;
    int64_t np_ = bg_sgd_nparams(m), first, i;
    int64_t n1 = (int64_t)nin * hp, o_b1 = n1, o_w2 = n1 + hp, o_b2 = o_w2 + (int64_t)BG_NN_NOUT * op;
    int64_t o_wm = o_b2 + BG_NN_NOUT, o_bm = o_wm + (int64_t)mp * hp;
    float *grad = (float *)calloc((size_t)np_, sizeof(float));
    unsigned char *touched = (unsigned char *)calloc((size_t)nin, 1);
    float *mom = state, *sec = state + np_;
    *done = 0;
    *loss_sum = 0.0;
    if (!grad || !touched) { free(grad); free(touched); return -1; }
    for (first = 0; first < n; first += batch) {
        int64_t last = first + batch < n ? first + batch : n, t;
        float lr, count = (float)(last - first);
        if (bg_cancelled(cancel)) { free(grad); free(touched); return BG_E_CANCELLED; }
        for (i = first; i < last; i++) {
            int16_t idx[BG_NN_MAXNZ];
            float val[BG_NN_MAXNZ], h[BG_NN_HBUF], out[BG_NN_NOUT], delta[BG_NN_NOUT], ga[BG_NN_MAXH];
            const float *tg = targets + order[i] * BG_NN_NOUT;
            const float *top = nm ? h + hp : h;    /* the layer under the outputs */
            int nz, j, k, q;
            bg_sgd_forward(m, boards + order[i] * BG_NPTS, idx, val, &nz, h, out);
            *loss_sum += bg_sgd_xent(out, tg);
            for (k = 0; k < BG_NN_NOUT; k++) delta[k] = out[k] - tg[k];
            for (k = 0; k < BG_NN_NOUT; k++) {
                float *gw = grad + o_w2 + (int64_t)k * op;
                for (j = 0; j < olive; j++) gw[j] += delta[k] * top[j];
                grad[o_b2 + k] += delta[k];
            }
            if (nm) {
                float gm[BG_NN_MAXMID];
                for (q = 0; q < nm; q++) {
                    float a = 1.0f - fabsf(2.0f * top[q] - 1.0f), s = 0.0f;
                    for (k = 0; k < BG_NN_NOUT; k++) s += delta[k] * m->w2[(size_t)k * op + q];
                    gm[q] = s * 0.5f * a * a;  /* the soft sigmoid's slope */
                }
                for (j = 0; j < nh; j++) ga[j] = 0.0f;
                for (q = 0; q < nm; q++) {
                    const float *w = m->wm + (size_t)q * hp;
                    float *gw = grad + o_wm + (int64_t)q * hp, g = gm[q];
                    for (j = 0; j < nh; j++) { gw[j] += g * h[j]; ga[j] += g * w[j]; }
                    grad[o_bm + q] += g;
                }
                if (m->act == BG_NN_CRELU) {
                    for (j = 0; j < nh; j++)        /* the clipped ReLU's slope: 1 inside */
                        if (h[j] <= 0.0f || h[j] >= 1.0f) ga[j] = 0.0f;
                } else {
                    for (j = 0; j < nh; j++) {
                        float a = 1.0f - fabsf(2.0f * h[j] - 1.0f);
                        ga[j] *= 0.5f * a * a;
                    }
                }
            } else {
                for (j = 0; j < nh; j++) {
                    float a = 1.0f - fabsf(2.0f * h[j] - 1.0f), s = 0.0f;
                    for (k = 0; k < BG_NN_NOUT; k++) s += delta[k] * m->w2[(size_t)k * hp + j];
                    ga[j] = s * 0.5f * a * a;      /* the soft sigmoid's slope */
                }
            }
            for (j = 0; j < nh; j++) grad[o_b1 + j] += ga[j];
            for (q = 0; q < nz; q++) {
                float *gc = grad + (int64_t)idx[q] * hp, v = val[q];
                touched[idx[q]] = 1;
                for (j = 0; j < nh; j++) gc[j] += v * ga[j];
            }
        }
        t = ++*step;
        lr = bg_sgd_lr(o, t - 1);
        /* Adam moves every weight each step (its moments decay); momentum
         * too.  The first layer's gradient is zero outside touched rows. */
        bg_sgd_apply(o, lr, t, rw->w1, grad, mom, sec, nin, hp, nh, count);
        bg_sgd_apply(o, lr, t, rw->b1, grad + o_b1, mom + o_b1, sec + o_b1, 1, hp, nh, count);
        bg_sgd_apply(o, lr, t, rw->w2, grad + o_w2, mom + o_w2, sec + o_w2,
                     BG_NN_NOUT, op, olive, count);
        bg_sgd_apply(o, lr, t, rw->b2, grad + o_b2, mom + o_b2, sec + o_b2, 1,
                     BG_NN_NOUT, BG_NN_NOUT, count);
        if (nm) {
            bg_sgd_apply(o, lr, t, rw->wm, grad + o_wm, mom + o_wm, sec + o_wm, nm, hp, nh, count);
            bg_sgd_apply(o, lr, t, rw->bm, grad + o_bm, mom + o_bm, sec + o_bm, 1, mp, nm, count);
        }
        for (i = 0; i < nin; i++)
            if (touched[i]) { memset(grad + i * hp, 0, sizeof(float) * (size_t)hp); touched[i] = 0; }
        memset(grad + o_b1, 0, sizeof(float) * (size_t)(np_ - o_b1));
        *done = last;
    }
    free(grad);
    free(touched);
    return 0;
}

#endif /* BGCORE_SGD_H */
