"""The shipped documents: the license, and a rules page with every section the code cites."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

pytestmark = pytest.mark.skipif(not (DOCS / "rules.md").exists(),
                                reason="needs the checkout or the sdist (docs/)")


def _cited(pattern: str) -> set[str]:
    found: set[str] = set()
    for folder in ("python", "src", "tests", "docs"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".pyx", ".pxd", ".h", ".md", ".pyi") and path.is_file():
                found.update(re.findall(pattern, path.read_text(encoding="utf-8")))
    readme = ROOT / "README.md"
    found.update(re.findall(pattern, readme.read_text(encoding="utf-8")))
    return found


def test_every_rules_section_cited_is_in_docs_rules_md():
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    sections = set(re.findall(r"^(\d+\.\d+) ", text, re.M))
    headings = set(re.findall(r"^## (\d+)\. ", text, re.M))
    cited = _cited(r"RULES (\d+(?:\.\d+)?)")
    assert cited, "the code cites RULES sections"
    missing = sorted(c for c in cited if c not in sections and c not in headings)
    assert missing == []


def test_every_pubeval_section_cited_is_in_docs_pubeval_md():
    text = (DOCS / "pubeval.md").read_text(encoding="utf-8")
    headings = set(re.findall(r"^## (\d+)\. ", text, re.M))
    cited = {c.split(".")[0] for c in _cited(r"PUBEVAL\.md (\d+)")}
    assert cited and sorted(cited - headings) == []


def test_the_license_is_mit_and_declared_so():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License")
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^license = "MIT"$', pyproject, re.M)
    assert re.search(r'^license-files = \["LICENSE"\]$', pyproject, re.M)


def _manifest_includes(path: str) -> bool:
    """Whether MANIFEST.in's include / recursive-include lines take ``path`` (relative)."""
    import fnmatch

    taken = False
    for line in (ROOT / "MANIFEST.in").read_text(encoding="utf-8").splitlines():
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if words[0] == "include":
            taken |= any(fnmatch.fnmatch(path, w) for w in words[1:])
        elif words[0] == "recursive-include":
            folder, patterns = words[1], words[2:]
            if path.startswith(folder.rstrip("/") + "/"):
                taken |= any(fnmatch.fnmatch(path.rsplit("/", 1)[-1], p) for p in patterns)
    return taken


@pytest.mark.skipif(not (ROOT / "MANIFEST.in").exists(), reason="needs the checkout")
def test_the_sdist_carries_every_file_the_readme_shows():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    # the README's links are absolute (PyPI shows it): the project's Source URL, then
    # blob/main/ or raw/main/ and the file's path in the checkout
    base = re.search(r'^Source = "([^"]+)"$', (ROOT / "pyproject.toml").read_text(), re.M)
    assert base
    local = sorted({re.sub(r"^(blob|raw)/main/", "", t[len(base.group(1)) + 1:])
                    for t in re.findall(r"\]\(([^)\s#]+)", text)
                    if t.startswith(base.group(1) + "/")})
    assert "docs/board.png" in local and "docs/rules.md" in local
    missing = [t for t in local if not (ROOT / t).exists()]
    assert missing == []
    # benchmarks/ and training/ are the repository's (the lab), never in the sdist
    left_out = [t for t in local if (ROOT / t).is_file() and not _manifest_includes(t)
                and not t.startswith(("benchmarks/", "training/"))]
    assert left_out == []
