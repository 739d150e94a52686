# cancel.pxi: included by _bgcore.pyx. Stopping long loops: Ctrl-C and cancel tokens (cancel.h).

# Stopping long loops (cancel.h): Ctrl-C and cancel tokens
#
# A wrapper of a long nogil loop sets up a bg_cancel with _cancel_init, hands
# it to the loop, and calls _raise_cancelled when the loop returns
# BG_E_CANCELLED.  In the main thread the loop polls Python's signal
# handlers, so Ctrl-C raises KeyboardInterrupt there; in any thread it stops
# when the job's Cancel token is set (a rollout's worker threads share one).

class Cancelled(Exception):
    """A loop stopped because its :class:`Cancel` token was set."""


cdef class Cancel:
    """A stop flag shared by the C loops of one job: ``set()`` stops them all
    at their next check (a game, a perft node).  Pickles as a fresh token, so
    a job sent to another process is simply not cancellable from here."""

    cdef int flag

    def set(self):
        bg_cancel_set(&self.flag)

    def is_set(self):
        return self.flag != 0

    def __reduce__(self):
        return (Cancel, ())


cdef int _poll_signals(void *ctx) noexcept nogil:
    # Runs the Python signal handlers; an exception one raises
    # (KeyboardInterrupt) stays set until _raise_cancelled raises it.
    cdef int r
    with gil:
        r = _check_signals()
    return r != 0


cdef int _cancel_init(bg_cancel *c, Cancel token, int64_t every) except -1:
    """Sets up ``c`` for one loop in this thread: it stops when ``token`` is
    set (None: no token) and, in the main thread, when a signal handler
    raises, polled every ``every`` units of the loop (a few ms of work)."""
    cdef int *flag = &token.flag if token is not None else NULL
    cdef bg_poll_fn poll = NULL
    if threading.get_ident() == threading.main_thread().ident:
        poll = _poll_signals
    bg_cancel_init(c, flag, poll, NULL, every)
    return 0


cdef int _raise_cancelled() except -1:
    """Raises why a loop returned BG_E_CANCELLED: the signal handler's
    exception, else Cancelled (its token was set)."""
    if PyErr_Occurred():
        return -1
    raise Cancelled("stopped: the job's cancel token was set")


cdef enum:
    # units of work between signal polls: a few milliseconds each
    _PERFT_POLL = 1024      # perft nodes, ~5 us each
    _PLAYOUT_POLL = 128     # games, ~30 us each with the built-in policies
    _NET_POLL = 8           # games or duel pairs with a net, ~0.5 ms each


_VALIDATION_MESSAGES = {
    BG_E_OWN_BAR: "the on-roll player's bar a[25] must be >= 0",
    BG_E_OPP_BAR: "the opponent's bar a[0] must be <= 0",
    BG_E_OWN_COUNT: "the on-roll player has more than 15 checkers",
    BG_E_OPP_COUNT: "the opponent has more than 15 checkers",
    BG_E_RANGE: "a point holds more than 15 checkers",
}
