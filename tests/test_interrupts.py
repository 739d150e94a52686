"""Ctrl-C stops the long C loops (perft, rollouts) promptly and leaves no thread behind.

Each test sends SIGINT to the main thread from a timer thread while the loop
runs with the GIL released (in a child pytest of its own: the ``ctrl_c`` mark), and checks that KeyboardInterrupt arrives, that
it arrives within a generous bound (far below what the work would take), and
that no worker thread is left.  The bounds are not speed assertions: the work
asked for takes minutes (perft 4, millions of games), so an ignored signal
fails the test by a wide margin.
"""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import backgammon as bg
from backgammon import _bgcore

# Each test runs in a child pytest of its own (tests/conftest.py): a signal that
# lands after its test can end only that child, never the session.
pytestmark = [pytest.mark.skipif(not hasattr(signal, "pthread_kill"),
                                 reason="needs signal.pthread_kill (POSIX)"),
              pytest.mark.ctrl_c]

STOPPED_WITHIN = 5.0  # seconds; the loops check every few milliseconds
DELAY = 0.3           # seconds before the signal: the loop is well under way
WATCHDOG = 20.0       # seconds between repeats of a signal that went unanswered
WATCHDOG_TRIES = 30   # repeats before giving up (10 minutes)


def _interrupt_after(delay: float) -> threading.Timer:
    main = threading.main_thread().ident
    timer = threading.Timer(delay, signal.pthread_kill, (main, signal.SIGINT))
    timer.start()
    return timer


def _run_armed(work, delays) -> tuple[bool, float]:
    """Runs ``work()`` with SIGINT sent to the main thread ``delays`` seconds in:
    whether it came out as KeyboardInterrupt, and the seconds it ran.

    SIGINT raises only while the work runs.  One sender thread counts the delays from
    the moment the work is started, so no signal can land before it (thirty timer
    threads, each counting from its own start, once took longer than the first delay to
    make under load, and that signal raised outside the work).  The flag drops as the
    first thing after ``work()`` whichever way it ended, still inside the ``try``, and
    the sender is stopped before the previous handler is back: a signal landing just
    after the work ended is dropped, where it once raised past ``pytest.raises``."""
    armed = [True]

    def handler(signum, frame):
        if armed[0]:
            raise KeyboardInterrupt

    main = threading.main_thread().ident
    go, stop = threading.Event(), threading.Event()

    def send() -> None:
        go.wait()
        t0 = time.monotonic()
        for d in delays:
            if stop.wait(max(0.0, t0 + d - time.monotonic())):
                return
            signal.pthread_kill(main, signal.SIGINT)

    previous = signal.signal(signal.SIGINT, handler)
    sender = threading.Thread(target=send, name="ctrl-c-sender", daemon=True)
    interrupted = False
    try:
        sender.start()
        start = time.perf_counter()
        try:
            try:
                go.set()
                work()
            finally:
                armed[0] = False
        except KeyboardInterrupt:
            interrupted = True
        seconds = time.perf_counter() - start
    finally:
        armed[0] = False
        stop.set()
        go.set()
        sender.join()
        signal.signal(signal.SIGINT, previous)
    return interrupted, seconds


class EndedBeforeTheSignal(AssertionError):
    """The work of a Ctrl-C test ended before its signal landed."""


def _interrupted(work, delay: float = DELAY) -> float:
    """Seconds from the signal (sent ``delay`` seconds in) to KeyboardInterrupt
    out of ``work()``; :class:`EndedBeforeTheSignal` if the work ended first.

    A signal that lands while the main thread runs a finalizer is lost to
    Python (an "unraisable" exception): collect garbage first, and send the
    signal again every WATCHDOG seconds, so that a lost one fails the latency
    bound instead of leaving the work (minutes, or endless) to run.
    """
    gc.collect()
    interrupted, seconds = _run_armed(work, [delay + k * WATCHDOG for k in range(WATCHDOG_TRIES)])
    if not interrupted:
        raise EndedBeforeTheSignal(f"the work ended after {seconds:.2f} s, before the "
                                   f"signal at {delay:.2f} s")
    return seconds - delay


def test_a_work_that_ends_before_its_signal_is_a_plain_failure():
    with pytest.raises(EndedBeforeTheSignal):
        _interrupted(lambda: None, delay=0.2)
    time.sleep(0.3)   # its timers were stopped: no signal comes afterwards


def test_a_signal_at_the_very_end_of_the_work_counts_as_an_interrupt():
    main = threading.main_thread().ident
    interrupted, _ = _run_armed(lambda: signal.pthread_kill(main, signal.SIGINT), [])
    assert interrupted
    interrupted, _ = _run_armed(lambda: None, [])
    assert not interrupted


def _rollout_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("backgammon-rollout")]


def test_perft_stops_on_ctrl_c():
    latency = _interrupted(lambda: bg.perft(bg.Position.initial(), 4))
    assert latency < STOPPED_WITHIN
    # the core is usable afterwards, and counts as before
    assert bg.perft(bg.Position.initial(), 2) == 202_782


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("policy", ["random", "pubeval"])
def test_rollout_stops_on_ctrl_c(workers, policy):
    latency = _interrupted(lambda: bg.rollout(
        bg.Position.initial(), games=1296 * 10_000, policy=policy, seed=1, workers=workers))
    assert latency < STOPPED_WITHIN
    assert _rollout_threads() == []
    assert bg.rollout(bg.Position.initial(), games=1296, seed=1, workers=workers).games == 1296


def test_rollout_with_one_huge_chunk_stops_on_ctrl_c():
    # a single chunk of all the games: the loop itself stops, not the chunking
    latency = _interrupted(lambda: bg.rollout(
        bg.Position.initial(), games=1296 * 10_000, seed=1, workers=2,
        chunk_games=1296 * 10_000))
    assert latency < STOPPED_WITHIN
    assert _rollout_threads() == []


def test_rollout_with_a_callable_policy_stops_on_ctrl_c():
    import numpy as np

    def policy(candidates):
        return np.zeros(len(candidates))

    latency = _interrupted(lambda: bg.rollout(
        bg.Position.initial(), games=1296 * 10_000, policy=policy, seed=1))
    assert latency < STOPPED_WITHIN


@pytest.mark.parametrize("workers", [1, 2])
def test_a_rollout_of_2_to_the_53_games_starts_at_once_and_stops(workers):
    # far too big to finish: it starts at once (chunks come lazily) and Ctrl-C stops it
    latency = _interrupted(lambda: bg.rollout(
        bg.Position.initial(), games=2**53, seed=1, workers=workers))
    assert latency < STOPPED_WITHIN
    assert _rollout_threads() == []


def test_a_cancel_token_stops_loops_in_other_threads():
    cancel = _bgcore.Cancel()
    errors: list[BaseException] = []

    def work():
        try:
            _bgcore.perft(bg.Position.initial()._b, 4, False, cancel)
        except BaseException as exc:  # noqa: BLE001  (recorded for the assert)
            errors.append(exc)

    thread = threading.Thread(target=work)
    thread.start()
    time.sleep(DELAY)
    assert thread.is_alive()
    cancel.set()
    thread.join(STOPPED_WITHIN)
    assert not thread.is_alive()
    assert len(errors) == 1 and isinstance(errors[0], _bgcore.Cancelled)
    assert cancel.is_set()


def test_a_signal_handler_that_does_not_raise_lets_the_loop_finish():
    seen = []
    old = signal.signal(signal.SIGINT, lambda *_: seen.append(1))
    try:
        timer = _interrupt_after(0.05)
        leaves = bg.perft(bg.Position.initial(), 3)
        timer.join()
    finally:
        signal.signal(signal.SIGINT, old)
    assert seen == [1]
    assert leaves == 116_154_993


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def _wait_until_under_way(proc: subprocess.Popen) -> None:
    """Until the command's work is under way: a signal during the interpreter's start
    kills it by SIGINT (-2), before the command's handler is there.  On Linux: the core
    loaded, then half a CPU second more (the rest of the start takes far less), which
    load cannot shorten as it does a wall-clock wait; elsewhere 1.5 s."""
    if not os.path.exists(f"/proc/{proc.pid}/maps"):
        time.sleep(1.5)
        return
    deadline = time.monotonic() + 120
    while "_bgcore" not in Path(f"/proc/{proc.pid}/maps").read_text():
        assert proc.poll() is None and time.monotonic() < deadline
        time.sleep(0.02)
    loaded = _cpu_seconds(proc.pid)
    while _cpu_seconds(proc.pid) < loaded + 0.5:
        assert proc.poll() is None and time.monotonic() < deadline
        time.sleep(0.02)


def test_the_cli_stops_on_ctrl_c_without_a_traceback():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.Popen(
        [sys.executable, "-m", "backgammon", "perft", "4"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        _wait_until_under_way(proc)
        assert proc.poll() is None
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=STOPPED_WITHIN + 5)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130
    assert "interrupted" in err and "Traceback" not in err


def test_evaluate_batch_stops_on_ctrl_c_within_a_second():
    # 4 million rows take seconds; the row loop polls every 1,024 rows
    boards = np.tile(bg.Position.initial().to_array().astype(np.int8), (4_000_000, 1))
    ev = bg.Evaluator.default()
    latency = _interrupted(lambda: ev.evaluate_batch(boards))
    assert latency < 1.0


def test_a_keyboard_interrupt_out_of_a_ctrl_c_test_ends_only_its_child(tmp_path):
    # a session of three tests: the middle one is marked ctrl_c and lets a
    # KeyboardInterrupt out (as a signal landing just after its work would); run
    # in-process it ends the session, in its child pytest it fails that test alone
    import shutil

    shutil.copy(Path(__file__).parent / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_victim.py").write_text(
        "import pytest\n\n"
        "def test_before():\n    pass\n\n"
        "@pytest.mark.ctrl_c\n"
        "def test_escapes():\n    raise KeyboardInterrupt\n\n"
        "def test_after():\n    pass\n")
    env = {k: v for k, v in os.environ.items() if k != "BACKGAMMON_TEST_CTRL_C_CHILD"}
    env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in sys.path if p)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "test_victim.py"], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=600, stdin=subprocess.DEVNULL)
    out = run.stdout + run.stderr
    assert run.returncode == 1, out            # tests failed; 2 is "interrupted"
    assert "1 failed, 2 passed" in out, out
    assert "KeyboardInterrupt" in out          # the child's report, carried into the failure
