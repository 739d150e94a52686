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
