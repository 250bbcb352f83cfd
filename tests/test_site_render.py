"""Render both Quarto profiles for real, check what each site exposes and how its pages read in Chromium offline.

Skipped without quarto; the browser checks also skip without chromium (tests/test_site_check.py proves the checks).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograde.building.lesson_source import Div, read_lesson

pytest.importorskip("playwright", reason="playwright is a test dependency: pip install -e '.[test]'")

from autograde.building.site_check import (  # noqa: E402
    PageExpectations, check_page, find_chromium, open_chromium, serve_directory)

ROOT = Path(__file__).resolve().parent.parent
QUARTO = shutil.which("quarto")
pytestmark = pytest.mark.skipif(QUARTO is None, reason="quarto is not on PATH (it cannot be installed on this machine)")
CHROMIUM = find_chromium()
LESSON_PAGE = PageExpectations(mermaid_diagrams=2)
PAGES = [
    ("_site", "lessons/index.html", PageExpectations()),
    ("_site", "lessons/lesson05.html", LESSON_PAGE),
    ("_site-answer", "lessons/index.html", PageExpectations()),
    ("_site-answer", "lessons/lesson05.html",
     PageExpectations(mermaid_diagrams=2, callout_title="点击展开参考答案", callout_shows="opt_fp32 / dp + extra")),
]
"""Every page of both sites, with what it must hold: 图 1 and 图 2 on the lesson; the answer in its callout."""
LEAKS = ["opt_fp32 / dp + extra", "(params_bf16 + grads_bf16 + opt_fp32) / dp", "3 * num_params",
         "BEGIN HIDDEN TESTS", "_hidden_test", "参考答案版", "三个问答题要点"]


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    work = tmp_path_factory.mktemp("site")
    for name in ("lessons", "_quarto.yml", "_quarto-student.yml", "_quarto-answer.yml"):
        source = ROOT / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, work / name)
    env = dict(os.environ, QUARTO_PYTHON=sys.executable)
    for profile in ([], ["--profile", "answer"]):
        subprocess.run([QUARTO, "render", *profile], cwd=work, env=env, check=True, timeout=600)
    return work / "_site", work / "_site-answer"


def site_text(site: Path) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in site.rglob("*") if p.suffix in {".html", ".json"})


def test_student_site_leaks_nothing(sites):
    """Does the student site's HTML and search.json hold no solution, rubric or hidden test?"""
    student, _ = sites
    assert (student / "search.json").exists()
    text = site_text(student)
    for leak in LEAKS:
        assert leak not in text, leak
    rubric = next(b for b, _ in read_lesson(ROOT / "lessons" / "lesson05.qmd").walk() if isinstance(b, Div) and "rubric" in b.classes)
    first_point = rubric.children[0].text.strip().splitlines()[0].lstrip("- ").split("：")[1][:20]
    assert first_point not in text


def test_answer_site_shows_the_executed_solution(sites):
    """Does the answer site show the banner and the solution cell's real output?"""
    _, answer = sites
    page = (answer / "lessons" / "lesson05.html").read_text(encoding="utf-8")
    assert "参考答案版" in page
    assert "dp=1 时三档相等 ✓" in page
    assert "38.5" in page and "opt_fp32 / dp + extra" in page


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for the module; the browser checks skip without one."""
    if CHROMIUM is None:
        pytest.skip("no chromium on PATH (Debian: apt-get install chromium)")
    with open_chromium(CHROMIUM) as chromium:
        yield chromium


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory) -> Path:
    """Where failing pages leave screenshots: $SITE_SCREENSHOTS (for CI artefacts), else a pytest temp folder."""
    return Path(os.environ.get("SITE_SCREENSHOTS") or tmp_path_factory.mktemp("site-screenshots"))


@pytest.mark.parametrize(("site", "page", "expect"), PAGES, ids=[f"{site}/{page}" for site, page, _ in PAGES])
def test_page_reads_well_offline(sites, browser, screenshots, site, page, expect):
    """With no network at 1280 px: nothing overflows, images load, math and diagrams render, no console errors?"""
    folder = sites[0].parent / site
    with serve_directory(folder) as base_url:
        report = check_page(browser, base_url + page, expect, screenshots / f"{site.strip('_')}-{Path(page).stem}.png")
    assert not report.problems, report.summary()
