"""Shared fixtures.  Tests run against the INSTALLED package (see .ci/run)."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import backgammon

DATA = Path(__file__).parent / "data"


def pytest_configure(config):
    # registered here too: CI runs the tests from a copy without pyproject.toml
    config.addinivalue_line(
        "markers", "browser: renders HTML in a headless Chromium (skipped when none is installed)")
    config.addinivalue_line(
        "markers", "slow: takes seconds and repeats what quicker tests check in small; CI's "
        "main Python runs everything, its other Pythons a smoke subset without these (.ci/run)")
    config.addinivalue_line(
        "markers", "typecheck: runs mypy --strict (toolchain pinned in .ci/constraints-typecheck.txt); "
        "CI runs these on its newest Python, whose numpy has the newest stubs (.ci/run)")
    config.addinivalue_line(
        "markers", "ctrl_c: sends SIGINT to its own process; runs in a child pytest, so that a "
        "KeyboardInterrupt landing late can end only that child, never the session")


def pytest_report_header(config):
    return f"backgammon {backgammon.__version__} imported from {Path(backgammon.__file__).parent}"


# Set in the child pytest that runs one Ctrl-C test: there the test runs in-process.
_CTRL_C_CHILD = "BACKGAMMON_TEST_CTRL_C_CHILD"
CTRL_C_CHILD_TIMEOUT = 900   # seconds: above the watchdog of tests/test_interrupts.py (10 min)


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    """A test marked ``ctrl_c`` runs in a child pytest of its own (the same test id,
    fixtures made there), and its outcome is the child's: the signals it sends reach
    the child's main thread only.  A KeyboardInterrupt that escaped a test in-process
    once ended the whole session under load."""
    if pyfuncitem.get_closest_marker("ctrl_c") is None or os.environ.get(_CTRL_C_CHILD):
        return None
    test_id = f"{pyfuncitem.path}::{pyfuncitem.nodeid.split('::', 1)[1]}"
    env = dict(os.environ, **{_CTRL_C_CHILD: "1"})
    if env.get("PYTHONPATH"):   # made absolute: the child starts in the root folder
        env["PYTHONPATH"] = os.pathsep.join(
            os.path.abspath(p) for p in env["PYTHONPATH"].split(os.pathsep) if p)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "--no-header",
         test_id],
        cwd=pyfuncitem.config.rootpath, env=env, capture_output=True, text=True,
        timeout=CTRL_C_CHILD_TIMEOUT, stdin=subprocess.DEVNULL)
    out = run.stdout + run.stderr
    if run.returncode == 0 and " skipped" in out and " passed" not in out:
        pytest.skip(f"in the child pytest: {out.strip().splitlines()[-1]}")
    assert run.returncode == 0 and " passed" in out, (
        f"the child pytest of {test_id} exited {run.returncode}:\n{out[-6000:]}")
    return True


@pytest.fixture(scope="session")
def movegen_cases():
    with gzip.open(DATA / "movegen.jsonl.gz", "rt") as f:
        return [json.loads(line) for line in f]


@pytest.fixture(scope="session")
def position_id_cases():
    with open(DATA / "position_ids.jsonl") as f:
        return [json.loads(line) for line in f]


@pytest.fixture(scope="session")
def notation_cases():
    with open(DATA / "notation.jsonl") as f:
        return [json.loads(line) for line in f]


@pytest.fixture(scope="session")
def perft_table():
    rows = []
    for line in (DATA / "perft.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            depth, rolls, leaves = map(int, line.split())
            rows.append((depth, rolls, leaves))
    return rows


@pytest.fixture(autouse=True, scope="session")
def _ctrl_c_raises():
    """The Ctrl-C tests send SIGINT to the process.  A shell that starts the suite
    in the background hands it SIGINT ignored (POSIX: asynchronous commands ignore
    it), and Python then never raises KeyboardInterrupt, so those tests would wait
    on endless work: give SIGINT Python's default handler for the session."""
    import signal
    import threading

    if (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.SIG_IGN):
        signal.signal(signal.SIGINT, signal.default_int_handler)
        yield
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    else:
        yield
