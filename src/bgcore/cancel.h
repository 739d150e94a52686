/*
 * cancel.h -- stopping long C loops early: Ctrl-C, or another thread.
 *
 * Every loop that may run for more than a moment (perft, playouts, and any
 * loop added later: net playouts, training, duels) takes a `bg_cancel *`
 * (NULL: never stops) and calls bg_cancelled(c) once per unit of work (a
 * perft node, a game).  When it returns nonzero the loop frees what it holds
 * and returns BG_E_CANCELLED; its caller passes that code up unchanged.
 *
 * A bg_cancel belongs to one loop in one thread (it keeps that loop's
 * countdown) and combines two sources:
 *   stop  a flag another thread may set (relaxed atomic: it carries no data;
 *         the setter joins the loop's thread afterwards), shared by every
 *         loop of one job, e.g. the worker threads of one rollout;
 *   poll  an optional callback, run by the loop's own thread every `every`
 *         units; nonzero means stop.  The Cython layer passes one that takes
 *         the GIL and runs Python's signal handlers, so Ctrl-C stops a loop
 *         running in the main thread with the GIL released.
 * Pick `every` so that a poll comes every few milliseconds: a poll then
 * costs nothing measurable and the loop stops well within half a second.
 * The check itself is a load and a decrement.
 *
 * From Cython (_bgcore.pyx): a wrapper declares `cdef bg_cancel c`, calls
 * `_cancel_init(&c, token, every)` (token: a Cancel or None), runs the loop
 * with the GIL released, and on BG_E_CANCELLED calls `_raise_cancelled()`,
 * which raises the signal handler's KeyboardInterrupt (or Cancelled when
 * the token stopped it).  perft and playout are the examples.
 */
#ifndef BGCORE_CANCEL_H
#define BGCORE_CANCEL_H

#include <stdint.h>

#define BG_E_CANCELLED (-3)

#if defined(_MSC_VER) && !defined(__clang__)
/* MSVC: volatile accesses are atomic for an aligned int */
#define BG_FLAG_LOAD(p) (*(volatile const int *)(p))
#define BG_FLAG_STORE(p, v) (*(volatile int *)(p) = (v))
#else
#define BG_FLAG_LOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define BG_FLAG_STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#endif

typedef int (*bg_poll_fn)(void *ctx);

typedef struct bg_cancel {
    int *stop;          /* the shared flag, or own_stop */
    int own_stop;
    bg_poll_fn poll;    /* may be NULL */
    void *ctx;
    int64_t every, left;
} bg_cancel;

/* stop: a shared flag or NULL (the loop then has its own); poll: NULL or a
 * callback run every `every` (>= 1) units. */
static inline void bg_cancel_init(bg_cancel *c, int *stop, bg_poll_fn poll, void *ctx,
                                  int64_t every)
{
    c->own_stop = 0;
    c->stop = stop ? stop : &c->own_stop;
    c->poll = poll;
    c->ctx = ctx;
    c->every = c->left = every > 0 ? every : 1;
}

/* Sets the flag: every loop sharing it stops at its next check. */
static inline void bg_cancel_set(int *stop) { BG_FLAG_STORE(stop, 1); }

/* Nonzero when the loop must stop (then it stays nonzero). */
static inline int bg_cancelled(bg_cancel *c)
{
    if (!c) return 0;
    if (BG_FLAG_LOAD(c->stop)) return 1;
    if (c->poll && --c->left <= 0) {
        c->left = c->every;
        if (c->poll(c->ctx)) {
            BG_FLAG_STORE(c->stop, 1);
            return 1;
        }
    }
    return 0;
}

#endif /* BGCORE_CANCEL_H */
