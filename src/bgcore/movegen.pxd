# Cython declarations of the plain-C move generator (movegen.h).
from libc.stdint cimport int8_t, uint8_t, uint32_t, int64_t

cdef extern from "cancel.h" nogil:
    # cancel.h: how long loops stop early (see the header)
    enum:
        BG_E_CANCELLED
    ctypedef int (*bg_poll_fn)(void *ctx) noexcept nogil
    ctypedef struct bg_cancel:
        int *stop
    void bg_cancel_init(bg_cancel *c, int *stop, bg_poll_fn poll, void *ctx, int64_t every)
    void bg_cancel_set(int *stop)
    int bg_cancelled(bg_cancel *c)

cdef extern from "movegen.h" nogil:
    enum:
        BG_NPTS
        BG_OK
        BG_E_OWN_BAR
        BG_E_OPP_BAR
        BG_E_OWN_COUNT
        BG_E_OPP_COUNT
        BG_E_RANGE
        BG_E_GAME_OVER
        BG_E_DICE
        BG_BOTH_PLAYING
        BG_OWN_DONE
        BG_OPP_DONE
        BG_BOTH_DONE

    ctypedef struct bg_buf:
        int8_t *pos
        uint8_t *moves
        int64_t n
        int64_t cap

    ctypedef struct bg_gen:
        int want_moves
        int depth
        bg_buf out

    int bg_validate(const int8_t *b)
    int bg_sides(const int8_t *b)
    void bg_swap(const int8_t *b, int8_t *s)
    bg_gen *bg_gen_new()
    void bg_gen_free(bg_gen *g)
    int bg_buf_reserve(bg_buf *o, int64_t need)
    int64_t bg_generate(bg_gen *g, const int8_t *board, int d1, int d2)
    int64_t bg_generate_row(bg_gen *g, const int8_t *board, int d1, int d2)
    int64_t bg_reach(bg_gen *g, const int8_t *board, int d, int k)
    int bg_step(const int8_t *board, int src, int d, int8_t *out)
    int64_t bg_perft_rec(bg_gen *g, const int8_t *board, int depth, int rolls36,
                         bg_cancel *cancel)
