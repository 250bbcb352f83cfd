"""Render both Quarto profiles for real, check what each site holds and how its pages read in Chromium offline.

Skipped without quarto (.ci/run installs it); the browser checks also skip without chromium (tests/test_site_check.py
proves the checks).
"""
from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from autograde.building.lesson_source import Div, read_lesson

pytest.importorskip("playwright", reason="playwright is a test dependency: pip install -e '.[test]'")

from autograde.building.site_check import (  # noqa: E402
    PageExpectations,
    check_page,
    find_chromium,
    open_chromium,
    serve_directory,
)

ROOT = Path(__file__).resolve().parent.parent
QUARTO = shutil.which("quarto")
pytestmark = pytest.mark.skipif(QUARTO is None, reason="quarto is not on PATH (https://quarto.org; CI: .ci/run)")
CHROMIUM = find_chromium()
PROJECT = yaml.safe_load((ROOT / "_quarto.yml").read_text(encoding="utf-8"))["project"]
OUTPUT_DIRS = {profile: yaml.safe_load((ROOT / f"_quarto-{profile}.yml").read_text(encoding="utf-8"))["project"]
               ["output-dir"] for profile in ("student", "answer")}
"""Each profile's site folder: _site and _site-answer."""
EXPECTATIONS = {
    ("student", "lessons/lesson05.html"): PageExpectations(mermaid_diagrams=2),
    ("answer", "lessons/lesson05.html"):
        PageExpectations(mermaid_diagrams=2, callout_title="点击展开参考答案", callout_shows="opt_fp32 / dp + extra"),
}
"""What a page must hold beyond the common checks: 图 1 and 图 2 on the lesson; the answer in its callout."""
HTML_PAGES = [Path(qmd).with_suffix(".html").as_posix() for qmd in PROJECT["render"]]
PAGES = [(OUTPUT_DIRS[profile], page, EXPECTATIONS.get((profile, page), PageExpectations()))
         for profile in OUTPUT_DIRS for page in HTML_PAGES]
"""Every page of both sites."""
LEAKS = ["opt_fp32 / dp + extra", "(params_bf16 + grads_bf16 + opt_fp32) / dp", "3 * num_params",
         "BEGIN HIDDEN TESTS", "_hidden_test", "参考答案版", "三个问答题要点"]
STALE = "lessons/assets/left-by-an-earlier-render.txt"
"""A file planted in both site folders before rendering, as a developer's earlier render would leave one."""


@pytest.fixture(scope="module")
def sites(tmp_path_factory) -> dict[str, Path]:
    """Each profile rendered as `make site` / `make site-answer` do, in its own copy of the project, both at once;
    every site folder of an earlier render planted in each copy first."""
    env = dict(os.environ, QUARTO_PYTHON=sys.executable)
    renders = {}
    for profile, folder in OUTPUT_DIRS.items():
        work = tmp_path_factory.mktemp(profile)
        for name in ("lessons", "_quarto.yml", "_quarto-student.yml", "_quarto-answer.yml"):
            (shutil.copytree if (ROOT / name).is_dir() else shutil.copy)(ROOT / name, work / name)
        for planted in OUTPUT_DIRS.values():
            (work / planted / STALE).parent.mkdir(parents=True)
            (work / planted / STALE).write_text("stale\n", encoding="utf-8")
        command = [QUARTO, "render", *([] if profile == "student" else ["--profile", profile])]
        renders[folder] = work, subprocess.Popen(command, cwd=work, env=env, stdout=subprocess.DEVNULL)
    for folder, (_, process) in renders.items():
        assert process.wait(timeout=600) == 0, f"quarto render of {folder} failed; its output is above"
    return {folder: work / folder for folder, (work, _) in renders.items()}


def page_text(path: Path) -> str:
    """What a reader can read on a page (or in search.json): tags dropped, so highlighted code reads as written."""
    return html.unescape(re.sub(r"<[^>]+>", "", path.read_text(encoding="utf-8")))


def site_text(site: Path) -> str:
    return "\n".join(page_text(p) for p in site.rglob("*") if p.suffix in {".html", ".json"})


def foreign_files(site: Path, project: Path) -> list[str]:
    """Files in a site that are none of its own: its pages and their figures, Quarto's libraries and search index,
    and copies of the project's resources."""
    pages = [re.escape(page) + "|" + re.escape(page.removesuffix(".html") + "_files/") + ".*" for page in HTML_PAGES]
    own = re.compile("|".join([r"index\.html", r"search\.json", r"site_libs/.*", r"lessons/styles\.css", *pages]))
    resources = [folder.strip("/") + "/" for folder in PROJECT["resources"]]
    return sorted(
        name for path in site.rglob("*") if path.is_file()
        for name in [path.relative_to(site).as_posix()]
        if not own.fullmatch(name) and not (name.startswith(tuple(resources)) and (project / name).is_file())
    )


def test_each_site_holds_only_its_own_files(sites):
    """Does neither site ship the other's files, or files an earlier render left, and both every resource?"""
    for site in sites.values():
        assert foreign_files(site, site.parent) == []
        shipped = {p.relative_to(site) for p in (site / "lessons" / "assets").rglob("*") if p.is_file()}
        assert shipped == {p.relative_to(ROOT) for p in (ROOT / "lessons" / "assets").rglob("*") if p.is_file()}


def test_foreign_files_are_found(tmp_path):
    """Would a copy of the other site, or an asset the project does not have, be reported?"""
    site = tmp_path / "_site-answer"
    for name in ("lessons/lesson05.html", "lessons/lesson05_files/figure-html/a.svg", "site_libs/quarto.js",
                 "_site/lessons/assets/zero3_comm_flow.svg", STALE, "lessons/assets/zero3_comm_flow.svg"):
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text("x", encoding="utf-8")
    assert foreign_files(site, ROOT) == ["_site/lessons/assets/zero3_comm_flow.svg", STALE]


def test_student_site_leaks_nothing(sites):
    """Does the student site's HTML and search.json hold no solution, rubric or hidden test?"""
    student = sites[OUTPUT_DIRS["student"]]
    assert (student / "search.json").exists()
    text = site_text(student)
    for leak in LEAKS:
        assert leak not in text, leak
    rubric = next(b for b, _ in read_lesson(ROOT / "lessons" / "lesson05.qmd").walk() if isinstance(b, Div) and "rubric" in b.classes)
    first_point = rubric.children[0].text.strip().splitlines()[0].lstrip("- ").split("：")[1][:20]
    assert first_point not in text


def test_answer_site_shows_the_executed_solution(sites):
    """Does the answer site show the banner, the solution code as written and the solution cell's real output?"""
    page = page_text(sites[OUTPUT_DIRS["answer"]] / "lessons" / "lesson05.html")
    assert "参考答案版" in page
    assert "dp=1 时三档相等 ✓" in page
    assert "38.5" in page and "opt_fp32 / dp + extra" in page


def test_lab_tables_are_executed(sites):
    """Do both sites show the lab's measured table and DeepSpeed's three-way table, computed at render time?"""
    for site in sites.values():
        page = page_text(site / "lessons" / "lesson05.html")
        assert "ZeRO-2-like" in page and "DeepSpeed 估算" in page and "stage3.py:4027" in page
        assert "126.5 GB" in page and "19.96 MB" in page


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
    with serve_directory(sites[site]) as base_url:
        report = check_page(browser, base_url + page, expect, screenshots / f"{site.strip('_')}-{Path(page).stem}.png")
    assert not report.problems, report.summary()
