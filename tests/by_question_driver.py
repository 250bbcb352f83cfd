"""The mock class of 60 graded in a browser two ways, counting keys, screens and seconds: on the grading-by-question
page by keyboard only, and in formgrader with its own keys (shared by tests/test_by_question_page.py and
bench/grading_by_question.py).

Seconds are the machine's (page loads, typesetting, saves), not a person's reading time.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from playwright.sync_api import Page

from autograde.building.mock_submissions import (
    MockSubmission,
    class_table,
    write_submissions,
)

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
CLASS = ROOT / "tests" / "data" / "by_question" / "class.yaml"
WINDOW = {"width": 1280, "height": 800}
"""The laptop window the issue measures in."""
ASSIGNMENT = "lesson05"
PAGE_STATE_JS = """() => {
  const pane = document.getElementById("answer-pane"), side = document.querySelector("aside");
  const where = document.getElementById("position").dataset;
  return {
    student: document.getElementById("student").textContent, answer: Number(where.answer),
    group: Number(where.group), groupFirst: Number(where.groupFirst), groupSize: Number(where.groupSize),
    screens: Math.max(1, Math.ceil(pane.scrollHeight / pane.clientHeight), Math.ceil(side.scrollHeight / side.clientHeight),
                      Math.ceil(document.documentElement.scrollHeight / innerHeight)),
    marks: Array.from(document.querySelectorAll("#answer mark"), mark => mark.textContent),
    math: document.querySelectorAll("#answer .katex").length,
    vetoes: Array.from(document.querySelectorAll("#vetoes li.veto"), item => ({
      id: item.querySelector("code").textContent, undecided: item.classList.contains("undecided"),
      marked: item.classList.contains("marked"), fixed: !item.querySelector("button")})),
    done: document.body.dataset.done === "true", status: document.getElementById("status").textContent,
  };
}"""
"""What the grader sees of the shown answer, read from the page as a person would."""
SAVED_JS = "() => document.body.dataset.saving === '0'"
KEYS_PER_ANSWER_AT_MOST = 20
"""A grading run that needs more keys than this per answer is stuck (a save that keeps failing)."""
FORMGRADER_READY_JS = "() => window.formgrader?.grades?.loaded && formgrader.comments.loaded"
FORMGRADER_BLOCK_JS = """(question) => {
  const cells = Array.from(document.querySelectorAll("#notebook-container > .cell"));
  const answer = document.getElementById(question).closest("#notebook-container > .cell");
  const start = cells.indexOf(answer) - 1;
  const rubric = cells.findIndex((cell, i) => i > start && cell.textContent.includes("评分要点"));
  return {block: cells[rubric].getBoundingClientRect().bottom - cells[start].getBoundingClientRect().top,
          page: document.documentElement.scrollHeight, focused: document.activeElement?.id ?? ""};
}"""
"""How tall the question's block (prompt, answer, veto note, rubric) and the whole page are, and what has the focus."""


def class_rows(payload: str) -> list[MockSubmission]:
    """The mock class of 60 with `payload` planted where its hostile answers say PAYLOAD."""
    return class_table(yaml.safe_load(CLASS.read_text(encoding="utf-8").replace("PAYLOAD", payload)))


def run(course: Path, *command: str, **environment: str) -> subprocess.CompletedProcess:
    """A command of the venv in the course root (with `environment` added); its output kept for assertion messages."""
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}", **environment)
    return subprocess.run(command, check=False, cwd=course, env=env, capture_output=True, text=True, timeout=900)


def make_course(course: Path, rows: list[MockSubmission]) -> None:
    """A course root with the committed source and release, the class submitted and autograded."""
    for name in ("source", "release"):
        shutil.copytree(ROOT / name, course / name)
    for name in ("nbgrader_config.py", "grader_config.py"):
        shutil.copy(ROOT / name, course / name)
    released = run(course, str(BIN / "nbgrader"), "generate_assignment", ASSIGNMENT, "--force")
    assert released.returncode == 0, released.stderr[-3000:]
    write_submissions(course / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", rows, course / "submitted", ASSIGNMENT)
    autograded = run(course, str(BIN / "nbgrader"), "autograde", ASSIGNMENT)
    assert autograded.returncode == 0, autograded.stdout[-3000:] + autograded.stderr[-3000:]


def expected_decision(row: Any, veto: str) -> str:
    """What the class table says a grader decides on a veto the checker raised: its decision, or dismissed when the
    table gives the answer no such veto (the checker's false alarm)."""
    return row.expect.get("decisions", {}).get(veto, "dismissed")


@dataclass
class Tally:
    """What grading one question took: keys pressed (and characters typed in comments), screens, seconds."""

    answers: int = 0
    keys: int = 0
    typed: int = 0
    screens: int = 0
    seen: int = 0
    """Answers shown on their own screen (the rest were decided with their group)."""
    seconds: float = 0.0
    page_loads: int = 0
    marks: dict[str, list[str]] = field(default_factory=dict)
    """Student → the evidence marked in the answer shown."""
    math: dict[str, int] = field(default_factory=dict)
    """Student → formulas typeset in the answer shown."""
    statuses: list[str] = field(default_factory=list)
    """Every status line after a save other than "saved"."""

    def per_answer(self) -> dict[str, float]:
        """Keys, screens and seconds per answer."""
        return {"keys": self.keys / self.answers, "screens": self.screens / self.answers,
                "seconds": self.seconds / self.answers}

    def line(self, name: str) -> str:
        """One printed line of figures."""
        each = self.per_answer()
        return (f"{name}: {self.answers} answers, {each['keys']:.2f} keys, {each['screens']:.2f} screens, "
                f"{each['seconds']:.2f} s per answer ({self.keys} keys, {self.typed} characters of comments, "
                f"{self.seen} answers shown, {self.page_loads} page loads, {self.seconds:.1f} s)")


class KeyboardGrader:
    """Grades the open by-question page by keys only, as the class table says each answer deserves."""

    def __init__(self, page: Page, question: str, expected: Mapping[str, MockSubmission],
                 comments: Mapping[str, str] | None = None) -> None:
        self.page, self.question, self.expected, self.comments = page, question, expected, comments or {}
        self.tally = Tally(answers=len(expected))
        self.groups_done: set[int] = set()

    def press(self, *keys: str) -> None:
        """Press keys, counting each, then wait until every save has come back."""
        if self.tally.keys > KEYS_PER_ANSWER_AT_MOST * self.tally.answers:
            raise RuntimeError(f"grading {self.question} did not finish (status: {self.page.inner_text('#status')!r})")
        for key in keys:
            self.page.keyboard.press(key)
            self.tally.keys += 1
        self.page.wait_for_function(SAVED_JS)
        status = self.page.inner_text("#status")
        if status not in ("", "saved"):
            self.tally.statuses.append(status)

    def next_decision(self) -> list[str] | None:
        """Keys that mark the shown answer's next undecided veto (v moves the mark) and decide it; None when none is."""
        state = self.page.evaluate(PAGE_STATE_JS)
        vetoes = state["vetoes"]
        todo = next((i for i, veto in enumerate(vetoes) if veto["undecided"] and not veto["fixed"]), None)
        if todo is None:
            return None
        marked = next((i for i, veto in enumerate(vetoes) if veto["marked"]), 0)
        wanted = expected_decision(self.expected[state["student"]], vetoes[todo]["id"])
        return ["v"] * ((todo - marked) % len(vetoes)) + ["u" if wanted == "upheld" else "d"]

    def grade_group(self, state: dict[str, Any]) -> None:
        """Decide the shown answer's whole group: each veto, then the score (the page moves to the next group)."""
        while (keys := self.next_decision()) is not None:
            self.press(*keys[:-1], "g", keys[-1], "Enter")
        self.press("g", self.score_key(state), "Enter")

    def score_key(self, state: dict[str, Any]) -> str:
        """The score key the class table gives the shown answer."""
        return f"{self.expected[state['student']].expect['scores'][self.question]:g}"

    def grade_one(self, state: dict[str, Any]) -> None:
        """Decide the shown answer alone: its vetoes, a comment if planned, its score, then the next answer."""
        while (keys := self.next_decision()) is not None:
            self.press(*keys)
        if state["student"] in self.comments:
            self.press("c")
            self.page.keyboard.type(self.comments[state["student"]])
            self.tally.typed += len(self.comments[state["student"]])
            self.press("Escape")
        self.press(self.score_key(state))
        if state["answer"] < self.tally.answers - 1:
            self.press("j")

    def grade(self) -> Tally:
        """Grade every answer of the page; the tally of what it took."""
        began = time.perf_counter()
        self.page.wait_for_selector("body[data-ready=true]")
        self.tally.page_loads += 1
        seen: set[str] = set()
        while True:
            state = self.page.evaluate(PAGE_STATE_JS)
            if state["done"]:
                break
            if state["student"] not in seen:
                seen.add(state["student"])
                self.tally.screens += state["screens"]
                self.tally.marks[state["student"]] = state["marks"]
                self.tally.math[state["student"]] = state["math"]
            if state["groupSize"] > 1 and state["group"] not in self.groups_done:
                self.groups_done.add(state["group"])
                self.grade_group(state)
            else:
                self.grade_one(state)
        self.tally.seen = len(seen)
        self.tally.seconds = time.perf_counter() - began
        return self.tally


def submission_shown(page: Page) -> str:
    """The formgrader submission id in the page's address ("" off a submission page)."""
    return page.url.split("/submissions/")[1].split("/")[0].split("?")[0] if "/submissions/" in page.url else ""


def grade_in_formgrader(page: Page, base: str, question: str, student_of: Mapping[str, str],
                        expected: Mapping[str, MockSubmission], answers: int) -> Tally:
    """Grade `question` for `answers` students in formgrader by keys only: Tab to the question's score box once, then
    per student its score and Ctrl+. (formgrader's "same box, next submission"); where its order ends, the next
    student left is opened from the list (counted as one key: a click)."""
    tally, began, left = Tally(answers=answers), time.perf_counter(), list(student_of)
    page.goto(f"{base}/formgrader/submissions/{left[0]}/")
    page.wait_for_function(FORMGRADER_READY_JS)
    page.wait_for_timeout(300)  # formgrader focuses the first box once the formulas are typeset
    index = 0
    while page.evaluate(FORMGRADER_BLOCK_JS, question)["focused"] != question:
        page.keyboard.press("Tab")
        tally.keys += 1
        index += 1
    for number in range(answers):
        tally.page_loads += 1
        shown = page.evaluate(FORMGRADER_BLOCK_JS, question)
        tally.screens += max(1, -(-shown["block"] // WINDOW["height"]))
        submission = submission_shown(page)
        left.remove(submission)
        page.keyboard.type(f"{expected[student_of[submission]].expect['scores'][question]:g}")
        tally.keys += 1
        if number == answers - 1:
            with page.expect_response(lambda answer: "/formgrader/api/grade/" in answer.url):
                page.keyboard.press("Escape")  # formgrader saves the box it leaves
            tally.keys += 1
            break
        before = page.url
        page.keyboard.press("Control+.")
        tally.keys += 1
        while page.url == before or "/next" in page.url:  # formgrader navigates twice (the first is aborted): poll
            page.wait_for_timeout(50)
        page.wait_for_load_state()
        if submission_shown(page) not in left:  # the end of formgrader's order: the list, then the next student
            page.goto(f"{base}/formgrader/submissions/{left[0]}/?index={index}")
            tally.keys += 1
        page.wait_for_function(FORMGRADER_READY_JS)
        page.wait_for_function(f"() => document.activeElement?.id === {question!r}")
    tally.seen = answers
    tally.seconds = time.perf_counter() - began
    return tally


def formgrader_page_screens(page: Page, base: str, submission: str) -> float:
    """Screens of one student's whole formgrader page (the per-student path: all of Q1-Q3 and the rest)."""
    page.goto(f"{base}/formgrader/submissions/{submission}/")
    page.wait_for_function(FORMGRADER_READY_JS)
    return page.evaluate("() => document.documentElement.scrollHeight") / WINDOW["height"]
