"""Grading Q1-Q3 as a grader would: formgrader in Debian's chromium, offline, then the report and the feedback.

One course, one `jupyter server` and one browser for the whole module. A clean student (alice) and one with a
Q1 veto candidate (carol) are autograded; the browser opens carol from the gradebook by clicks, checks the page
(console, formulas, images, the veto note beside her answer), gives Q1-Q3 points and a comment, then grades alice.
The report must move both to their final status, and feedback must show the points and the comment.
"""
from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pytest.importorskip("playwright", reason="playwright is a test dependency: pip install -e '.[test]'")

from formgrader_server import BIN, grader_context, jupyter_server  # noqa: E402
from playwright.sync_api import Browser, Page  # noqa: E402

from autograde.building.site_check import (  # noqa: E402
    PageExpectations,
    Problem,
    find_chromium,
    inspect_page,
    open_chromium,
    record_failures,
    serve_directory,
)

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = find_chromium()
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH (Debian: apt-get install chromium)")

GRADER_WINDOW = {"width": 1280, "height": 800}
"""The laptop window the issue measured the grading page in."""
STUDENTS = ("alice", "carol")
POINTS = {"carol": {"q1": "0", "q2": "2", "q3": "1"}, "alice": {"q1": "2", "q2": "2", "q3": "2"}}
CAROL_COMMENT = "Q1 说 ZeRO-3 把激活切成 N_d 份：与课文第 5 节相反（激活各 rank 不同，没有冗余）。"
CAROL_EVIDENCE = "ZeRO-3 会把每层的激活也按 DP rank 切成 N_d 份分别保存"
OVERRIDES = """- student: carol
  veto: activations-sharded
  decision: upheld
  reason: Q1 states that ZeRO-3 splits each layer's activations into N_d shards
"""
LAYOUT_JS = """() => {
  const top = (el) => el.getBoundingClientRect().top + scrollY;
  const cells = Array.from(document.querySelectorAll("#notebook-container > .cell"));
  const blocks = {};
  for (const q of ["Q1", "Q2", "Q3"]) {
    const start = cells.findIndex(cell => cell.querySelector(`[id="user-content-${q}"]`));
    const rubric = cells.findIndex((cell, i) => i > start && cell.textContent.includes(`评分要点（${q}`));
    blocks[q] = cells[rubric].getBoundingClientRect().bottom + scrollY - top(cells[start]);
  }
  return {height: document.documentElement.scrollHeight, firstAnswer: Math.round(top(document.getElementById("q1"))),
          blocks, folds: document.querySelectorAll("details").length};
}"""
"""The page's height, where Q1's score box is, and how tall each question's block (question to rubric) is."""
NOTES_JS = """() => Object.fromEntries(["q1", "q2", "q3"].map(
  q => [q, document.getElementById(q).closest("div.cell").nextElementSibling.innerText]))"""
"""The text of the cell right after each answer."""
PICTURES_JS = """() => Object.fromEntries(Array.from(document.querySelectorAll(".jp-RenderedMarkdown img"),
  img => [img.getAttribute("src").slice(-64), img.naturalWidth]))"""
"""Each picture JupyterLab has drawn, keyed by the end of its data URL, with its width."""
IMAGES_DRAWN_JS = "() => Array.from(document.querySelectorAll('.jp-RenderedMarkdown img')).every(img => img.complete)"
SCROLL_HALF_WINDOW_JS = """() => {
  const box = document.querySelector(".jp-NotebookPanel .jp-WindowedPanel-outer");
  const before = box.scrollTop;
  box.scrollBy(0, box.clientHeight / 2);
  return box.scrollTop === before;
}"""
"""Scroll the notebook half a window down (no cell can be skipped); true once it cannot go further."""
SETTLED_JS = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"
"""Resolves once JupyterLab has drawn the cells the last scroll brought near the window."""
SCREENS_OF_LESSON = 40
"""Window heights to scroll through the release notebook in JupyterLab at most (it is about 30 long)."""


@dataclass
class GradingPage:
    """What the grader saw on one student's formgrader page before grading."""

    problems: list[Problem] = field(default_factory=list)
    layout: dict = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    placeholder: str = ""


@dataclass
class RoundTrip:
    """Everything the module's tests check, gathered in one pass through the course."""

    before: dict[str, str]
    after: dict[str, str] = field(default_factory=dict)
    carol: GradingPage = field(default_factory=GradingPage)
    feedback_problems: list[Problem] = field(default_factory=list)
    feedback_html: str = ""
    lab_problems: list[Problem] = field(default_factory=list)
    lab_math: int = 0
    lab_images: list[int] = field(default_factory=list)


def run(course: Path, *command: str) -> subprocess.CompletedProcess:
    """A command of the venv run from the course root; its output kept for the assertion message."""
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}")
    return subprocess.run(command, cwd=course, env=env, capture_output=True, text=True, timeout=600)


def statuses(course: Path) -> dict[str, str]:
    """Each student's status label from `python -m autograde report lesson05`."""
    done = run(course, sys.executable, "-m", "autograde", "report", "lesson05")
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads((course / "reports" / "lesson05" / "grades.json").read_text(encoding="utf-8"))
    return {row["student"]: row["status_label"] for row in report["students"]}


def open_from_gradebook(page: Page, base: str, student: str) -> None:
    """From formgrader's home, click through to the student's submission (five clicks, as a grader does)."""
    page.goto(f"{base}/formgrader")
    clicks = [page.get_by_role("link", name="Manual Grading"), page.locator("#main-table a", has_text="lesson05"),
              page.locator("#main-table a", has_text="lesson05"), page.get_by_role("button", name="Show All Names"),
              page.locator("#main-table a.name-shown", has_text=student)]
    for target in clicks:
        page.wait_for_load_state("networkidle")  # each list is filled in by a request after the page loads
        target.first.click()
    # the score and comment boxes work once these load, even where formgrader's script later stops on an error
    page.wait_for_function("() => window.formgrader?.grades?.loaded && formgrader.comments.loaded")


def enter(page: Page, selector: str, value: str, api: str) -> None:
    """Type into a score or comment box and leave it, waiting until formgrader has saved it."""
    with page.expect_response(lambda answer: api in answer.url and answer.request.method == "PUT" and answer.ok):
        page.fill(selector, value)
        page.locator(selector).blur()


def grade(page: Page, student: str, comment: str | None = None) -> None:
    """Give the student's Q1-Q3 points (and a Q1 comment) in the open formgrader page."""
    for question, points in POINTS[student].items():
        enter(page, f"[id='{question}']", points, "/formgrader/api/grade/")
    if comment:
        enter(page, "[id='q1-comment']", comment, "/formgrader/api/comment/")


def look_at_carol(page: Page, base: str) -> GradingPage:
    """Open carol's page as a grader and note what is broken, how it is laid out, and what the veto notes say."""
    seen = GradingPage()
    record_failures(page, seen.problems)
    open_from_gradebook(page, base, "carol")
    seen.layout = page.evaluate(LAYOUT_JS)
    seen.notes = page.evaluate(NOTES_JS)
    seen.placeholder = page.get_attribute("[id='q1-comment']", "placeholder") or ""
    seen.problems += inspect_page(page, PageExpectations())
    for summary in page.locator("details > summary").all():
        summary.click()
    seen.problems += [found for found in inspect_page(page, PageExpectations()) if found.kind in ("math", "image")]
    return seen


def look_at_lab(browser: Browser, base: str, token: str, into: RoundTrip) -> None:
    """Scroll through the release notebook in JupyterLab as a student would, noting its formulas and pictures."""
    context = grader_context(browser, base, token, GRADER_WINDOW)
    page = context.pages[0]
    record_failures(page, into.lab_problems)
    page.goto(f"{base}/lab/tree/release/lesson05/lesson05.ipynb")
    page.wait_for_selector(".jp-RenderedMarkdown mjx-container", timeout=60_000)
    pictures: dict[str, int] = {}
    for _ in range(2 * SCREENS_OF_LESSON):  # JupyterLab draws only the cells near the window
        page.evaluate(SETTLED_JS)
        page.wait_for_function(IMAGES_DRAWN_JS)
        pictures.update(page.evaluate(PICTURES_JS))
        into.lab_math += page.locator(".jp-RenderedMarkdown mjx-container").count()
        into.lab_problems += [problem for problem in inspect_page(page, PageExpectations()) if problem.kind == "math"]
        if page.evaluate(SCROLL_HALF_WINDOW_JS):
            break
    into.lab_images = list(pictures.values())
    # JupyterLab drops some of its own requests as it switches views (favicon, settings): not a reader's problem
    into.lab_problems[:] = [p for p in into.lab_problems if not p.detail.startswith("net::ERR_ABORTED")]
    context.close()


def look_at_feedback(browser: Browser, folder: Path, into: RoundTrip) -> None:
    """Open a student's feedback page, served as plain files with nothing else reachable, and note what is broken."""
    with serve_directory(folder) as url:
        context = browser.new_context(viewport=GRADER_WINDOW)
        context.route(lambda target: not target.startswith(url), lambda route: route.abort("internetdisconnected"))
        page = context.new_page()
        record_failures(page, into.feedback_problems)
        page.goto(f"{url}lesson05.html", wait_until="load")
        into.feedback_problems += inspect_page(page, PageExpectations())
        into.feedback_html = page.content()
        context.close()


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A course root with the committed release and two example submissions, autograded."""
    course = tmp_path_factory.mktemp("course")
    for name in ("source", "release"):
        shutil.copytree(ROOT / name, course / name)
    for name in ("nbgrader_config.py", "grader_config.py"):
        shutil.copy(ROOT / name, course / name)
    for student in STUDENTS:
        shutil.copytree(ROOT / "examples" / "submissions" / student, course / "submitted" / student)
    for command in (("generate_assignment", "lesson05", "--force"), ("autograde", "lesson05")):
        done = run(course, str(BIN / "nbgrader"), *command)
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return course


@pytest.fixture(scope="module")
def round_trip(course: Path) -> RoundTrip:
    """Grade carol and alice in formgrader, decide carol's veto, report, give feedback; note all on the way."""
    trip = RoundTrip(before=statuses(course))
    token = secrets.token_hex(16)
    with jupyter_server(course, token) as base, open_chromium(CHROMIUM) as browser:
        context = grader_context(browser, base, token, GRADER_WINDOW)
        page = context.pages[0]
        trip.carol = look_at_carol(page, base)
        grade(page, "carol", CAROL_COMMENT)
        open_from_gradebook(page, base, "alice")
        grade(page, "alice")
        (course / "overrides.yaml").write_text(OVERRIDES, encoding="utf-8")
        trip.after = statuses(course)
        done = run(course, str(BIN / "nbgrader"), "generate_feedback", "lesson05")
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        context.close()
        look_at_feedback(browser, course / "feedback" / "carol" / "lesson05", trip)
        look_at_lab(browser, base, token, trip)
    return trip


def test_grading_page_has_no_console_error_raw_formula_or_broken_image(round_trip: RoundTrip) -> None:
    """Does carol's page load with no console error, every formula typeset (folds opened too) and every image shown?"""
    assert [f"[{p.kind}] {p.detail}" for p in round_trip.carol.problems] == []


def test_grading_page_is_compact(round_trip: RoundTrip) -> None:
    """Is the page under six screens (it was fifteen), with each question, answer, veto note and rubric within one?"""
    layout = round_trip.carol.layout
    assert layout["folds"] == 2
    assert layout["height"] < 6 * GRADER_WINDOW["height"], layout
    assert all(height < GRADER_WINDOW["height"] for height in layout["blocks"].values()), layout


def test_veto_candidate_sits_beside_the_answer(round_trip: RoundTrip) -> None:
    """Does carol's Q1 note quote her sentence, name the veto and quote the lesson, and Q2/Q3 say there is none?"""
    notes = round_trip.carol.notes
    assert "activations-sharded" in notes["q1"] and CAROL_EVIDENCE in notes["q1"]
    assert "课文：「每个 DP 节点处理的是互不重叠的 Micro-Batch 数据。」" in notes["q1"]
    assert "无候选" in notes["q2"] and "无候选" in notes["q3"]
    assert "⚠ 一票否决候选 [activations-sharded]" in round_trip.carol.placeholder


def test_report_moves_each_student_to_the_final_status(round_trip: RoundTrip) -> None:
    """Do carol (veto undecided) and alice (needs manual grading) end as veto upheld and pass?"""
    assert round_trip.before == {"alice": "needs-manual-grading", "carol": "veto (undecided)"}
    assert round_trip.after == {"alice": "pass", "carol": "veto (upheld)"}


def test_feedback_shows_points_and_comment(round_trip: RoundTrip) -> None:
    """Does carol's feedback show her total, the Q1 comment and typeset math, and leave the grader's notes out?"""
    html = round_trip.feedback_html
    assert "Score: 7.0 / 10.0" in html and CAROL_COMMENT in html
    assert "无候选" not in html and "一票否决候选（q1" not in html
    assert [f"[{p.kind}] {p.detail}" for p in round_trip.feedback_problems] == []


def test_student_jupyterlab_shows_formulas_and_pictures(round_trip: RoundTrip) -> None:
    """Does JupyterLab, offline, typeset the release notebook's formulas and show its diagrams and figures?"""
    assert round_trip.lab_math > 20
    images = round_trip.lab_images
    assert len(images) == 5 and all(width > 100 for width in images), images
    assert [f"[{p.kind}] {p.detail}" for p in round_trip.lab_problems] == []
