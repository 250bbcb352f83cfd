"""Grading Q1-Q3 by question in Debian's chromium: the mock class of 60, keyboard only, then the gradebook, the report,
the feedback, and what formgrader would have written.

One course, one `jupyter server` and one browser for the module. Two graders first meet on one Q1 answer (each is
told when the other saved first, and chooses). Then one grader grades Q1, Q2 and Q3 by keys on the page, giving each
answer the score and veto decisions the class table gives it. Q2 carries repeats, near-repeats, placeholders, true
and false veto candidates and planted script (HTML, SVG, LaTeX); nothing planted may run or reach anything.
Afterwards the same scores are written through formgrader's own API and the decisions into overrides.yaml: the report
must read the same final grades either way.
"""
from __future__ import annotations

import json
import secrets
import shutil
import sqlite3
import sys
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import pytest
import yaml

pytest.importorskip("playwright", reason="playwright is a test dependency: pip install -e '.[test]'")

from by_question_driver import (  # noqa: E402
    ASSIGNMENT,
    BIN,
    WINDOW,
    KeyboardGrader,
    Tally,
    class_rows,
    expected_decision,
    make_course,
    run,
)
from formgrader_server import grader_context, jupyter_server  # noqa: E402
from hostile_course import PAYLOAD  # noqa: E402
from playwright.sync_api import Browser, BrowserContext, Page  # noqa: E402

from autograde.building.site_check import find_chromium, open_chromium  # noqa: E402
from autograde.results.veto_decisions import VETO_DECISIONS  # noqa: E402

CHROMIUM = find_chromium()
pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH (Debian: apt-get install chromium)"),
              pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed (make test installs it as root)")]
QUESTIONS = ("q1", "q2", "q3")
ROWS = class_rows(PAYLOAD)
EXPECTED = {row.student: row for row in ROWS}
COMMENTED = next(row.student for row in ROWS if row.answers.get("q2", "").startswith("reduce-scatter 只传一半数据"))
COMMENT = "只说了总量相同，没说为什么 reduce-scatter 够用（优化器只需要自己那 1/N_d 梯度）。"
HOSTILE_EVIDENCE = next(row.student for row in ROWS if row.answers.get("q2", "").startswith("ZeRO-1 的通信量是 3Ψ <img"))
MATH = next(row.student for row in ROWS if "\\frac" in row.answers.get("q2", ""))
PAGE_API = "/autograde/api/by-question/"


@dataclass
class Grading:
    """Everything the module's tests check, gathered in one pass."""

    tallies: dict[str, Tally] = field(default_factory=dict)
    data: dict[str, dict] = field(default_factory=dict)
    conflict: dict[str, str] = field(default_factory=dict)
    contested: str = ""
    off_site: list[str] = field(default_factory=list)
    other_calls: list[str] = field(default_factory=list)
    pwned: list = field(default_factory=list)
    policy: str = ""
    unauthenticated: dict[str, int] = field(default_factory=dict)
    cli: str = ""
    page_report: dict[str, dict] = field(default_factory=dict)
    formgrader_report: dict[str, dict] = field(default_factory=dict)
    page_rows: list[tuple] = field(default_factory=list)
    formgrader_rows: list[tuple] = field(default_factory=list)
    feedback_html: str = ""


def grade_rows(course: Path) -> list[tuple]:
    """Every manual grade row of Q1-Q3: (student, cell, manual score, extra credit, needs manual grade)."""
    with sqlite3.connect(course / "gradebook.db") as db:
        return sorted(db.execute(
            "SELECT sa.student_id, bc.name, g.manual_score, g.extra_credit, g.needs_manual_grade FROM grade g "
            "JOIN base_cell bc ON g.cell_id = bc.id JOIN submitted_notebook sn ON g.notebook_id = sn.id "
            "JOIN submitted_assignment sa ON sn.assignment_id = sa.id WHERE bc.name IN ('q1', 'q2', 'q3')").fetchall())


def report(course: Path) -> dict[str, dict]:
    """`python -m autograde report`: each student's row, veto reasons left out (they say who decided, and where)."""
    done = run(course, sys.executable, "-m", "autograde", "report", ASSIGNMENT)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    rows = json.loads((course / "reports" / ASSIGNMENT / "grades.json").read_text(encoding="utf-8"))["students"]
    return {row["student"]: row | {"vetoes": sorted((v["id"], v["decision"]) for v in row["vetoes"])} for row in rows}


def open_question(context: BrowserContext, base: str, question: str) -> tuple[Page, str]:
    """The question's page, loaded, and the Content-Security-Policy it came with."""
    page = context.pages[0]
    response = page.goto(f"{base}/autograde/by-question/{ASSIGNMENT}/{question}")
    page.wait_for_selector("body[data-ready=true]")
    return page, (response.headers if response else {}).get("content-security-policy", "")


def two_graders_meet(first: BrowserContext, second: BrowserContext, base: str, into: Grading) -> None:
    """Both open Q1 on the same answer; each saves over the other's score once and is told (one keeps theirs)."""
    (ada, _), (ben, _) = open_question(first, base, "q1"), open_question(second, base, "q1")
    into.contested = ada.inner_text("#student")
    assert ben.inner_text("#student") == into.contested
    for page, key in ((ada, "1"), (ben, "0")):
        page.keyboard.press(key)
        page.wait_for_function("() => document.body.dataset.saving === '0'")
    into.conflict["ben"] = ben.inner_text("#conflict-text")
    ben.keyboard.press("y")  # keep mine: 0 replaces ada's 1
    ben.wait_for_function("() => document.body.dataset.saving === '0'")
    ada.keyboard.press("2")
    ada.wait_for_function("() => document.body.dataset.saving === '0'")
    into.conflict["ada"] = ada.inner_text("#conflict-text")
    ada.keyboard.press("n")  # keep theirs: ben's 0 stays
    into.conflict["ada_after"] = ada.inner_text("#scores [aria-pressed=true]")


def watch(page: Page, base: str, into: Grading) -> None:
    """Note every request that leaves the server, and every call that is not the page's own data, saves or files."""
    def note(request) -> None:
        path = urlparse(request.url).path
        if not request.url.startswith(base):
            into.off_site.append(request.url)
        elif not path.startswith((PAGE_API, "/autograde/by-question/", "/autograde/static/by-question/", "/favicon.ico")):
            into.other_calls.append(f"{request.method} {path}")
    page.on("request", note)


def formgrader_put(base: str, token: str, kind: str, row: str, body: dict) -> None:
    """One write through formgrader's own API, as its grading page sends it."""
    request = urllib.request.Request(f"{base}/formgrader/api/{kind}/{row}", data=json.dumps(body).encode(), method="PUT",
                                     headers={"Authorization": f"token {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert answer.status == 200


def grade_again_in_formgrader(course: Path, base: str, token: str) -> None:
    """Clear the manual grades, then write the same scores and comments through formgrader's API and the same veto
    decisions into overrides.yaml (the page's table emptied)."""
    with sqlite3.connect(course / "gradebook.db") as db:
        marks = db.execute(
            "SELECT g.id, g.manual_score, c.id, c.manual_comment FROM grade g JOIN base_cell bc ON g.cell_id = bc.id "
            "JOIN comment c ON c.notebook_id = g.notebook_id JOIN base_cell cc ON c.cell_id = cc.id "
            "WHERE bc.name IN ('q1', 'q2', 'q3') AND cc.name = bc.name").fetchall()
        decisions = db.execute(f"SELECT student, veto, decision FROM {VETO_DECISIONS.name}").fetchall()
        db.execute("UPDATE grade SET manual_score = NULL, needs_manual_grade = 1 "
                   "WHERE cell_id IN (SELECT id FROM base_cell WHERE name IN ('q1', 'q2', 'q3'))")
        db.execute("UPDATE comment SET manual_comment = NULL")
        db.execute(f"DELETE FROM {VETO_DECISIONS.name}")
    for grade, score, comment, text in marks:
        formgrader_put(base, token, "grade", grade, {"manual_score": score, "extra_credit": None})
        if text:
            formgrader_put(base, token, "comment", comment, {"manual_comment": text})
    (course / "overrides.yaml").write_text(yaml.safe_dump(
        [{"student": s, "veto": v, "decision": d, "reason": "decided in formgrader's course"} for s, v, d in decisions],
        allow_unicode=True), encoding="utf-8")


def unauthenticated(base: str, browser: Browser, graded: BrowserContext, data_url: str) -> dict[str, int]:
    """Statuses of the page and its API for a browser that has not logged in, and of a save without the XSRF header."""
    stranger = browser.new_context()
    statuses = {"page": stranger.request.get(f"{base}/autograde/by-question/{ASSIGNMENT}/q2", max_redirects=0).status,
                "data": stranger.request.get(data_url).status,
                "save": stranger.request.put(f"{data_url}/scores", data={"changes": []}).status}
    stranger.close()
    statuses["save without XSRF"] = graded.request.put(f"{data_url}/scores", data={"changes": []}).status
    return statuses


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The class of 60 released and autograded."""
    course = tmp_path_factory.mktemp("class")
    make_course(course, ROWS)
    return course


@pytest.fixture(scope="module")
def grading(course: Path) -> Grading:
    """Two graders meet on Q1; one grades Q1-Q3 by keys; report, feedback; the same grades again via formgrader."""
    seen, token = Grading(), secrets.token_hex(16)
    with jupyter_server(course, token) as base, open_chromium(CHROMIUM) as browser:
        seen.cli = run(course, sys.executable, "-m", "autograde", "grade", ASSIGNMENT, "q2",
                       JUPYTER_RUNTIME_DIR=str(course / ".runtime")).stdout  # where the server says it runs
        first, second = grader_context(browser, base, token, WINDOW), grader_context(browser, base, token, WINDOW)
        two_graders_meet(first, second, base, seen)
        second.close()
        for question in QUESTIONS:
            if question == "q2":
                watch(first.pages[0], base, seen)
            page, policy = open_question(first, base, question)
            seen.policy = policy if question == "q2" else seen.policy
            seen.data[question] = page.evaluate("url => fetch(url).then(r => r.json())",
                                                f"{base}{PAGE_API}{ASSIGNMENT}/{question}")
            comments = {COMMENTED: COMMENT} if question == "q2" else {}
            seen.tallies[question] = KeyboardGrader(page, question, EXPECTED, comments).grade()
            if question == "q2":
                seen.pwned = page.evaluate("() => [window.__pwned, top.__pwned].filter(mark => mark !== undefined)")
        seen.unauthenticated = unauthenticated(base, browser, first, f"{base}{PAGE_API}{ASSIGNMENT}/q2")
        first.close()
        seen.page_report, seen.page_rows = report(course), grade_rows(course)
        done = run(course, str(BIN / "nbgrader"), "generate_feedback", ASSIGNMENT, "--student", COMMENTED)
        assert done.returncode == 0, done.stderr[-3000:]
        seen.feedback_html = (course / "feedback" / COMMENTED / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text(encoding="utf-8")
        grade_again_in_formgrader(course, base, token)
    seen.formgrader_report, seen.formgrader_rows = report(course), grade_rows(course)
    return seen


def test_every_answer_gets_the_score_and_decisions_the_grader_gave(grading: Grading, course: Path) -> None:
    """Does the gradebook hold each of the 180 answers' scores, and the decisions table each veto decision, as given?"""
    scores = {(student, cell): score for student, cell, score, _, _ in grading.page_rows}
    assert scores == {(row.student, q): row.expect["scores"][q] for row in ROWS for q in QUESTIONS}
    with sqlite3.connect(course / "gradebook.db") as db:  # the formgrader pass moved them to overrides.yaml
        assert db.execute(f"SELECT count(*) FROM {VETO_DECISIONS.name}").fetchone() == (0,)
    decided = yaml.safe_load((course / "overrides.yaml").read_text(encoding="utf-8"))
    raised = {row.student: {veto["id"] for veto in json.loads((course / "autograded" / row.student / "lesson05" /
                                                              "vetoes.json").read_text(encoding="utf-8"))["vetoes"]
                            if veto.get("cell") in QUESTIONS} for row in ROWS}
    assert {(d["student"], d["veto"]): d["decision"] for d in decided} == {
        (row.student, veto): expected_decision(row, veto) for row in ROWS for veto in raised[row.student]}
    assert all(tally.statuses == [] for tally in grading.tallies.values())


def test_one_screen_and_at_most_two_keys_per_answer(grading: Grading) -> None:
    """Grading Q2 by keys: does every answer shown fit one 1280×800 screen, and do 60 answers take ≤ 2 keys each?"""
    q2 = grading.tallies["q2"]
    print(q2.line("by question, q2"))
    assert q2.screens == q2.seen  # each answer shown needed exactly one screen
    assert q2.per_answer()["keys"] <= 2 and q2.per_answer()["screens"] <= 1


def test_groups_cut_the_decisions_by_at_least_a_third(grading: Grading) -> None:
    """On the mock class, do Q2's groups (repeats, near-repeats, placeholders) cut the decisions by 30% or more?"""
    decisions = grading.data["q2"]["decisions"]
    print(f"q2 decisions: {decisions['one_by_one']} one answer at a time, {decisions['by_group']} by group")
    assert decisions["by_group"] <= 0.7 * decisions["one_by_one"]
    kinds = {group["kind"] for group in grading.data["q2"]["groups"]}
    assert kinds == {"placeholder", "identical", "near-identical", "single"}


def test_evidence_is_marked_inside_the_answer_and_math_is_typeset(grading: Grading) -> None:
    """Is each shown veto's evidence marked in the answer (the planted-markup one by its start), and math typeset?"""
    marks, vetoed = grading.tallies["q2"].marks, {a["student"] for a in grading.data["q2"]["answers"] if a["vetoes"]}
    shown = vetoed & set(marks)
    assert shown and all(marks[student] for student in shown), {student: marks[student] for student in shown}
    assert marks[HOSTILE_EVIDENCE][0].startswith("ZeRO-1 的通信量是 3Ψ")  # the sentence around the cleaned-out markup
    assert grading.tallies["q2"].math[MATH] >= 3


def test_two_graders_are_told_and_choose(grading: Grading, course: Path) -> None:
    """When one grader saves over a score the other changed since the page loaded, is it told the value, and does
    the gradebook keep the one chosen?"""
    assert "someone else saved the score 1" in grading.conflict["ben"] and "you gave 0" in grading.conflict["ben"]
    assert "someone else saved the score 0" in grading.conflict["ada"] and "you gave 2" in grading.conflict["ada"]
    assert grading.conflict["ada_after"] == "0"
    assert EXPECTED[grading.contested].expect["scores"]["q1"] == 0


def test_nothing_a_student_wrote_runs_or_reaches_anything(grading: Grading) -> None:
    """After every Q2 answer was shown (script in HTML, SVG, links, LaTeX), did no planted script run, no request
    leave the server and no call go anywhere but the page's own data and saves?"""
    assert grading.pwned == []
    assert grading.off_site == []
    assert grading.other_calls == []
    script_src = grading.policy.split("script-src")[1].split(";")[0]
    assert "default-src 'none'" in grading.policy and "'unsafe-inline'" not in script_src
    assert script_src.split()[0].endswith("/autograde/static/by-question/")


def test_login_and_xsrf_are_required(grading: Grading) -> None:
    """Without logging in, is the page a redirect to the login and its API refused; and is a save without the XSRF
    header refused even for a logged-in grader?"""
    assert grading.unauthenticated == {"page": 302, "data": 403, "save": 403, "save without XSRF": 403}


def test_report_reads_the_same_final_grades_as_formgrader(grading: Grading) -> None:
    """Do the report's statuses, points and veto decisions, and the gradebook rows, come out the same when the same
    grades are written through formgrader's API and overrides.yaml?"""
    assert grading.page_rows == grading.formgrader_rows
    assert grading.page_report == grading.formgrader_report
    statuses = {row["status_label"] for row in grading.page_report.values()}
    assert statuses <= {"pass", "fail", "veto (upheld)"} and all(not row["pending"] for row in grading.page_report.values())


def test_feedback_shows_the_score_and_the_comment(grading: Grading) -> None:
    """Does the commented student's feedback page show the comment typed on the page and the total?"""
    row = EXPECTED[COMMENTED]
    total = 4 + sum(row.expect["scores"].values())
    assert COMMENT in grading.feedback_html and f"Score: {total:.1f} / 10.0" in grading.feedback_html


def test_the_command_prints_the_link(grading: Grading) -> None:
    """Does `python -m autograde grade lesson05 q2` print the answers, groups and the page's link on this server?"""
    assert "lesson05 q2: 60 answers in" in grading.cli
    assert "/autograde/by-question/lesson05/q2?token=" in grading.cli
