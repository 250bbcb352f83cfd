"""The site checker in a real headless Chromium, on small fixture pages that each break one thing (or nothing)."""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

pytest.importorskip("playwright", reason="playwright is a test dependency: pip install -e '.[test]'")

from playwright.sync_api import Browser  # noqa: E402

from autograde.building.site_check import (  # noqa: E402
    PageExpectations,
    PageReport,
    check_page,
    find_chromium,
    open_chromium,
    serve_directory,
)

ROOT = Path(__file__).resolve().parent.parent
PAGES = Path(__file__).parent / "data" / "site"
CASES: list[dict[str, Any]] = yaml.safe_load((PAGES / "pages.yaml").read_text(encoding="utf-8"))
CHROMIUM = find_chromium()
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH (Debian: apt-get install chromium)")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the whole module."""
    with open_chromium(CHROMIUM) as chromium:
        yield chromium


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    """The repository served on localhost (the fixtures load the lesson's shipped KaTeX from lessons/assets)."""
    with serve_directory(ROOT) as url:
        yield url


@pytest.fixture(scope="module")
def reports(browser: Browser, base_url: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, PageReport]:
    """Each fixture page checked once, screenshots under a temporary folder."""
    screenshots = tmp_path_factory.mktemp("screenshots")
    return {case["page"]: check_page(browser, f"{base_url}tests/data/site/{case['page']}",
                                     PageExpectations(**case.get("expect", {})),
                                     screenshots / case["page"].replace(".html", ".png"))
            for case in CASES}


@pytest.mark.parametrize("case", CASES, ids=[case["page"] for case in CASES])
def test_each_page_reports_exactly_its_problems(reports: dict[str, PageReport], case: dict[str, Any]) -> None:
    """Does the checker find the kinds of problem each fixture page has, and no others?"""
    report = reports[case["page"]]
    assert report.kinds == set(case["problems"]), report.summary()


@pytest.mark.parametrize("case", CASES, ids=[case["page"] for case in CASES])
def test_screenshot_is_kept_only_for_a_failing_page(reports: dict[str, PageReport], case: dict[str, Any]) -> None:
    """Is a full-page PNG kept when (and only when) a page has problems?"""
    screenshot = reports[case["page"]].screenshot
    if case["problems"]:
        assert screenshot is not None and screenshot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    else:
        assert screenshot is None


def test_problems_name_what_is_broken(reports: dict[str, PageReport]) -> None:
    """Do the details say which image, which formula, which label and which blocked URL?"""
    text = "\n".join(report.summary() for report in reports.values())
    assert "image not loaded: missing-chart.png" in text
    assert "math left as TeX: \\Psi" in text and "MathJax-style text: \\(M_3 = \\frac" in text
    notebook = reports["notebook_math.html"].summary()
    assert "holds $\\frac{16\\Psi}{N_d}$" in notebook and "$$M_0 = 16\\Psi$$" in notebook
    assert "price of" not in notebook
    assert "https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-chtml-full.js" in text
    assert re.search(r'fig-strip: label "DDP: 16Ψ" is [34]\.\dpx, body text 17px', text)
    assert "mermaid diagram not rendered: flowchart LR" in text
    assert "the page is" in reports["overflow.html"].summary()
    assert "'Reference answer' did not open when clicked" in text
