# Cython declarations of supervised training by minibatch gradient steps (sgd.h).
from libc.stdint cimport int8_t, int64_t
from movegen cimport bg_cancel
from nn cimport bg_mlp
from train cimport bg_mlp_rw

cdef extern from "sgd.h" nogil:
    enum:
        BG_SGD_MOMENTUM
        BG_SGD_ADAM

    ctypedef struct bg_sgd_opts:
        int method
        float lr, lr_final
        int64_t total_steps
        float beta1, beta2, eps

    int64_t bg_sgd_nparams(const bg_mlp *m)
    int bg_sgd_loss(const bg_mlp *m, const int8_t *boards, const float *targets,
                    const int64_t *order, int64_t n, double *sum, bg_cancel *cancel)
    int bg_sgd_train(const bg_mlp *m, const bg_mlp_rw *rw, const bg_sgd_opts *o,
                     float *state, const int8_t *boards, const float *targets,
                     const int64_t *order, int64_t n, int64_t batch, int64_t *step,
                     int64_t *done, double *loss_sum, bg_cancel *cancel)
