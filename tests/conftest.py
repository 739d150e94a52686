"""Shared fixtures.  Tests run against the INSTALLED package (see .ci/run)."""

from __future__ import annotations

import gzip
import json
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
        "other Pythons run -m 'not slow' (.ci/run), its main Python runs everything")


def pytest_report_header(config):
    return f"backgammon {backgammon.__version__} imported from {Path(backgammon.__file__).parent}"


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
