"""The README tells the truth: its Python examples run as doctests against the installed
package, its links are absolute (PyPI shows it) and reach files of the checkout, and it
keeps the two commands that .ci/run runs.

The README is the checkout's: beside tests/, or where $BACKGAMMON_SOURCE points (.ci/run
sets it: CI tests a copy of tests/).  Without one the tests skip, except under CI=true.
"""

from __future__ import annotations

import doctest
import os
import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(os.environ.get("BACKGAMMON_SOURCE") or Path(__file__).resolve().parents[1])
README = ROOT / "README.md"
DATA = Path(__file__).parent / "data"
MAX_WORDS = 2500


@pytest.fixture(scope="module")
def readme() -> str:
    if not README.is_file():
        if os.environ.get("CI") == "true":
            pytest.fail(f"no README.md at {README} (set BACKGAMMON_SOURCE)")
        pytest.skip("needs the checkout's README.md")
    return README.read_text(encoding="utf-8")


def python_blocks(text: str) -> list[str]:
    """The fenced ``python`` blocks of a Markdown text, in order.

        >>> python_blocks("a\\n```python\\n>>> 1\\n1\\n```\\n```sh\\nls\\n```\\n")
        ['>>> 1\\n1\\n']
    """
    return re.findall(r"^```python\n(.*?)^```$", text, flags=re.M | re.S)


def source_url() -> str:
    """The project's Source URL in pyproject.toml, the base of the README's links."""
    found = re.search(r'^Source = "([^"]+)"$', (ROOT / "pyproject.toml").read_text(), re.M)
    assert found, "pyproject.toml's [project.urls] has no Source"
    return found.group(1)


def test_the_python_examples_give_the_outputs_shown(readme, tmp_path, monkeypatch):
    blocks = python_blocks(readme)
    assert len(blocks) >= 5
    # the analysis example reads match.mat: a Galaxy export of two games (tests/data)
    shutil.copy(DATA / "galaxy_resignations.txt", tmp_path / "match.mat")
    monkeypatch.chdir(tmp_path)
    try:
        import gymnasium  # noqa: F401
        have_env = True
    except ImportError:
        have_env = os.environ.get("CI") == "true"   # there, a missing extra fails the block
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    namespace: dict[str, object] = {}   # one session: later blocks use the tour's names
    ran = 0
    for k, block in enumerate(blocks):
        assert ">>> " in block, f"block {k + 1} is not written as a doctest:\n{block}"
        if "backgammon.env" in block and not have_env:
            continue   # pip install "backgammon[env]"
        test = parser.get_doctest(block, namespace, f"README block {k + 1}", str(README), 0)
        runner.run(test, clear_globs=False)
        namespace = test.globs   # a DocTest works on a copy of the names it is given
        ran += 1
    assert runner.failures == 0, f"{runner.failures} README example(s) differ (output above)"
    assert ran >= len(blocks) - 1


def test_links_are_absolute_and_reach_files_of_the_checkout(readme):
    base = source_url()
    links = re.findall(r"\]\(([^)\s]+)\)", readme)
    assert links
    relative = [t for t in links if "://" not in t and not t.startswith("mailto:")]
    assert relative == [], "relative links break on PyPI"
    ours = [t for t in links if t.startswith(base + "/")]
    paths = [re.sub(r"^(blob|raw)/main/", "", t[len(base) + 1:]) for t in ours]
    assert all(t.startswith(("blob/main/", "raw/main/")) for t in (t[len(base) + 1:] for t in ours))
    missing = [p for p in paths if not (ROOT / p.split("#")[0]).exists()]
    assert missing == []
    assert "docs/history.md" in paths and "CHANGELOG.md" in paths


def test_the_first_screen_has_the_two_commands_and_the_readme_stays_short(readme):
    # .ci/run runs these two; the README says them first
    first = readme[:readme.index("## A ten-line tour")]
    assert '```sh\npip install ".[progress]" && backgammon rollout\n```' in first
    assert '```sh\npip install ".[test]" && python -m pytest tests\n```' in first
    assert len(readme.split()) <= MAX_WORDS
