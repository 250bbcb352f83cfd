"""Keys, screens and seconds per answer: Q2 of the mock class of 60 graded on the by-question page and in formgrader.

Run: .venv/bin/python bench/grading_by_question.py [--formgrader-answers 10] [--course DIR]

The class (tests/data/by_question/class.yaml) is written and autograded in a temporary course (or DIR, reused when
it already holds autograded/), a `jupyter server` is started there and Debian's chromium drives it at 1280×800:

- by question: every Q2 answer by keys only (groups decided at once, each veto upheld or dismissed, one comment);
- formgrader, by question: the same score for --formgrader-answers students, Tab to the Q2 box once, then per
  student its score and Ctrl+. (formgrader's own "same box, next submission"); veto decisions are not made on that
  page (they go into overrides.yaml) and are not counted;
- formgrader, per student (the README's way): how many screens one student's page is, for Q1-Q3 together.

Seconds are the machine's (page loads, typesetting, saves), not a person's reading time. The run's figures are
printed; keys per answer count every key pressed to score and decide (comment text is counted apart).
"""
from __future__ import annotations

import argparse
import secrets
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from by_question_driver import (  # noqa: E402
    ASSIGNMENT,
    WINDOW,
    KeyboardGrader,
    class_rows,
    formgrader_page_screens,
    grade_in_formgrader,
    make_course,
)
from formgrader_server import grader_context, jupyter_server  # noqa: E402
from nbgrader.api import Gradebook  # noqa: E402

from autograde.building.site_check import find_chromium, open_chromium  # noqa: E402

QUESTION = "q2"
COMMENT = "快两倍：数据量减半，说得对。"
"""One comment typed on the page (to the answer that explains it), as a grader would now and then."""


def submissions(course: Path) -> dict[str, str]:
    """Formgrader's submission ids → students, in formgrader's own order (its "next" follows it)."""
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", "dist-training-lesson05") as gradebook:
        return {notebook.id: notebook.student.id for notebook in gradebook.notebook_submissions(ASSIGNMENT, ASSIGNMENT)}


def main() -> int:
    """Build or reuse the course, grade Q2 both ways, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--formgrader-answers", type=int, default=10, help="students graded in formgrader (sample)")
    parser.add_argument("--course", type=Path, help="course folder to use (the class is autograded there if needed)")
    args = parser.parse_args()
    chromium = find_chromium()
    if chromium is None:
        print("no chromium on PATH (Debian: apt-get install chromium)")
        return 1
    rows = class_rows("top.__pwned=1")
    expected = {row.student: row for row in rows}
    course = args.course or Path(tempfile.mkdtemp(prefix="grading-by-question-"))
    if not (course / "autograded").exists():
        course.mkdir(parents=True, exist_ok=True)
        print(f"writing and autograding the class of {len(rows)} in {course} …", flush=True)
        make_course(course, rows)
    token = secrets.token_hex(16)
    with jupyter_server(course, token) as base, open_chromium(chromium) as browser:
        page = grader_context(browser, base, token, WINDOW).pages[0]
        page.goto(f"{base}/autograde/by-question/{ASSIGNMENT}/{QUESTION}")
        commented = next(row.student for row in rows if row.answers.get(QUESTION, "").startswith("每卡只需要"))
        by_question = KeyboardGrader(page, QUESTION, expected, {commented: COMMENT}).grade()
        data = page.evaluate("url => fetch(url).then(r => r.json())", f"{base}/autograde/api/by-question/{ASSIGNMENT}/{QUESTION}")
        student_of = submissions(course)
        in_formgrader = grade_in_formgrader(page, base, QUESTION, student_of, expected, args.formgrader_answers)
        whole_pages = [formgrader_page_screens(page, base, submission) for submission in sorted(student_of)[:3]]
    decisions = data["decisions"]
    per_student = statistics.mean(whole_pages)
    print(by_question.line("by question  "))
    print(in_formgrader.line("formgrader, Ctrl+."))
    print(f"formgrader, per student: {per_student:.1f} screens a student's page, {per_student / 3:.2f} screens per "
          f"answer (Q1-Q3 on one page; Tab between boxes)")
    print(f"decisions on {QUESTION}: {decisions['one_by_one']} one answer at a time (scores and veto decisions), "
          f"{decisions['by_group']} with {len(data['groups'])} groups: "
          f"{1 - decisions['by_group'] / decisions['one_by_one']:.0%} fewer")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
