"""Several graders at once on a PostgreSQL gradebook: build, autograde, two concurrent formgrader-like graders, report.

The test starts its own PostgreSQL server (a private data folder, port and socket folder, listening on 127.0.0.1 only)
and stops it afterwards, whatever happens; it skips only where no PostgreSQL server is installed to start.
"""
from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, replace
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier
from pathlib import Path

import pytest
from nbgrader.api import Comment, Grade
from postgres_server import PASSWORD, postgres_database
from sqlalchemy import func

from autograde.assignment_spec import REPO_ROOT, load_spec
from autograde.building.mock_submissions import load_table, write_submissions
from autograde.results.gradebook_access import open_gradebook

SPEC = load_spec("lesson05")
NOTEBOOK = SPEC.notebook.removesuffix(".ipynb")
EXAMPLES = {row.student: row for row in load_table(REPO_ROOT / "examples" / "submissions.yaml")}
CLASS = [EXAMPLES["alice"], replace(EXAMPLES["alice"], student="henry"), EXAMPLES["bob"], EXAMPLES["carol"]]
"""alice and henry answer alike (their points decide pass or fail); bob has a code veto, carol a text veto."""



@dataclass(frozen=True)
class Mark:
    """One manual grade a grader saves in formgrader: points and a comment for one answer of one student."""

    student: str
    cell: str
    points: float
    comment: str


GRADERS = {
    "ada": [Mark("alice", "q1", 2, "ada: redundancy explained"), Mark("henry", "q1", 0.5, "ada: activations missing"),
            Mark("alice", "q2", 2, "ada: RS + AG right"), Mark("henry", "q2", 0.5, "ada: no ZeRO-2 saving"),
            Mark("bob", "q1", 2, "ada: fine"), Mark("bob", "q2", 2, "ada: fine"), Mark("carol", "q1", 0, "ada: veto claim")],
    "ben": [Mark("alice", "q3", 2, "ben: prefetch explained"), Mark("henry", "q3", 0.5, "ben: 3Ψ parts missing"),
            Mark("carol", "q2", 1, "ben: short"), Mark("bob", "q1", 2, "ben: agree with ada"),
            Mark("carol", "q3", 1, "ben: short"), Mark("bob", "q3", 2, "ben: fine")],
}
"""Two graders splitting the class: every student is graded by both, and both grade bob's q1 (with the same points)."""

STATUS_AFTER_GRADING = {"alice": "pass", "henry": "fail", "bob": "veto", "carol": "veto"}
"""alice 4 + 6 ≥ 8 passes, henry 4 + 1.5 fails; bob's and carol's undecided vetoes win over any points."""


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    """A PostgreSQL server of this test's own with an empty `lesson05` database; stopped and deleted afterwards."""
    with postgres_database() as url:
        yield url


def run(root: Path, *command: str) -> subprocess.CompletedProcess:
    """A command of the venv (nbgrader, python -m autograde) in the course root, with the environment as it is."""
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    return subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=600)


def report(root: Path) -> dict[str, dict]:
    """`python -m autograde report` in the course root; each student's row of grades.json."""
    done = run(root, sys.executable, "-m", "autograde", "report", SPEC.assignment)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    students = json.loads((root / "reports" / SPEC.assignment / "grades.json").read_text(encoding="utf-8"))["students"]
    assert len({row["student"] for row in students}) == len(students), "a student appears twice in the report"
    return {row["student"]: row for row in students}


def grade_as_formgrader(root: Path, grader: str, marks: list[Mark], start: Barrier, results: Queue) -> None:
    """One grader's formgrader: its own Gradebook; each score, then each comment, committed as its API handlers do."""
    try:
        with open_gradebook(root) as gradebook:
            start.wait(timeout=120)
            began = time.time()
            for mark in marks:
                grade = gradebook.find_grade(mark.cell, NOTEBOOK, SPEC.assignment, mark.student)
                grade.manual_score, grade.extra_credit, grade.needs_manual_grade = mark.points, None, False
                gradebook.db.commit()
                comment = gradebook.find_comment(mark.cell, NOTEBOOK, SPEC.assignment, mark.student)
                comment.manual_comment = mark.comment
                gradebook.db.commit()
                time.sleep(0.05)  # a grader reads the next answer; keeps both graders' writes interleaved
        results.put((grader, began, time.time(), ""))
    except Exception:  # noqa: BLE001  (the parent asserts on it)
        results.put((grader, 0.0, 0.0, traceback.format_exc()))


def grade_concurrently(root: Path) -> dict[str, tuple[float, float]]:
    """Run every grader of GRADERS in its own process, all starting together; when each was writing."""
    context = multiprocessing.get_context("spawn")
    start, results = context.Barrier(len(GRADERS)), context.Queue()
    graders = [context.Process(target=grade_as_formgrader, args=(root, name, marks, start, results))
               for name, marks in GRADERS.items()]
    for process in graders:
        process.start()
    reported = [results.get(timeout=300) for _ in graders]
    for process in graders:
        process.join(timeout=60)
    assert [error for *_, error in reported if error] == []
    return {name: (began, ended) for name, began, ended, _ in reported}


def table_rows(root: Path) -> dict[str, list[tuple]]:
    """Every row of the grade and comment tables: (student, cell, manual score or comment, auto comment)."""
    with open_gradebook(root) as gradebook:
        grades, comments = gradebook.db.query(Grade), gradebook.db.query(Comment)
        return {"grade": [(g.student.id, g.name, g.manual_score, None) for g in grades],
                "comment": [(c.student.id, c.name, c.manual_comment, c.auto_comment) for c in comments]}


def duplicated_cells(root: Path) -> list[tuple]:
    """(table, submitted notebook, cell) that hold more than one row: a grade or comment stored twice."""
    with open_gradebook(root) as gradebook:
        return [(table.__tablename__, notebook, cell) for table in (Grade, Comment)
                for notebook, cell, _ in gradebook.db.query(table.notebook_id, table.cell_id, func.count())
                .group_by(table.notebook_id, table.cell_id).having(func.count() > 1)]


@dataclass(frozen=True)
class GradedCourse:
    """The course after autograde and after the two graders, with what the report and the tables said at each step."""

    root: Path
    before: dict[str, dict]
    after: dict[str, dict]
    rows_before: dict[str, list[tuple]]
    rows_after: dict[str, list[tuple]]
    writing: dict[str, tuple[float, float]]


@pytest.fixture(scope="module")
def course(server_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[GradedCourse]:
    """The course on the PostgreSQL gradebook (NBGRADER_DB_URL): released, autograded, graded by two graders at once."""
    root = tmp_path_factory.mktemp("course")
    shutil.copytree(REPO_ROOT / "source" / SPEC.assignment, root / "source" / SPEC.assignment)
    for name in ("nbgrader_config.py", "grader_config.py"):
        shutil.copy(REPO_ROOT / name, root)
    with pytest.MonkeyPatch.context() as environment:
        environment.setenv("NBGRADER_DB_URL", server_url)
        released = run(root, "nbgrader", "generate_assignment", SPEC.assignment, "--force")
        assert released.returncode == 0, released.stderr[-3000:]
        release = root / "release" / SPEC.assignment / SPEC.notebook
        write_submissions(release, CLASS, root / "submitted", SPEC.assignment)
        autograded = run(root, "nbgrader", "autograde", SPEC.assignment)
        assert autograded.returncode == 0, autograded.stderr[-3000:]
        before, rows_before = report(root), table_rows(root)
        writing = grade_concurrently(root)
        yield GradedCourse(root, before, report(root), rows_before, table_rows(root), writing)


def test_autograde_and_report_use_the_postgresql_gradebook(course: GradedCourse) -> None:
    """Do nbgrader and the report both use the database NBGRADER_DB_URL names, leaving no SQLite gradebook?"""
    assert not (course.root / "gradebook.db").exists()
    assert set(course.before) == {row.student for row in CLASS}
    assert {student: row["status"] for student, row in course.before.items()} == {
        "alice": "needs-manual-grading", "henry": "needs-manual-grading", "bob": "veto", "carol": "veto"}
    assert all(row["pending"] == ["q1", "q2", "q3"] for row in course.before.values())
    carol_q1 = [auto for student, cell, _, auto in course.rows_before["comment"] if (student, cell) == ("carol", "q1")]
    assert "activations-sharded" in carol_q1[0]  # RecordVetoes' auto-comment, written during autograde


def test_both_graders_were_writing_at_the_same_time(course: GradedCourse) -> None:
    """Did the two graders' writing periods overlap (so the test really had concurrent sessions)?"""
    (ada_began, ada_ended), (ben_began, ben_ended) = course.writing["ada"], course.writing["ben"]
    assert max(ada_began, ben_began) < min(ada_ended, ben_ended)


def test_every_manual_score_and_comment_is_stored_once(course: GradedCourse) -> None:
    """Is each mark in the gradebook exactly once, with no grade or comment row added, lost or doubled?"""
    assert duplicated_cells(course.root) == []
    for table in ("grade", "comment"):
        assert len(course.rows_after[table]) == len(course.rows_before[table])
    marks = [mark for marks in GRADERS.values() for mark in marks]
    scores = {(student, cell): score for student, cell, score, _ in course.rows_after["grade"]}
    comments = {(student, cell): comment for student, cell, comment, _ in course.rows_after["comment"]}
    for mark in marks:
        assert scores[mark.student, mark.cell] == mark.points, mark
        same_cell = {m.comment for m in marks if (m.student, m.cell) == (mark.student, mark.cell)}
        assert comments[mark.student, mark.cell] in same_cell, mark  # a cell both graders marked keeps one of their comments
    untouched = set(scores) - {(m.student, m.cell) for m in marks}
    assert all(scores[key] is None for key in untouched)  # nobody's write landed on a cell it was not meant for
    auto_before = {(student, cell): auto for student, cell, _, auto in course.rows_before["comment"]}
    auto_after = {(student, cell): auto for student, cell, _, auto in course.rows_after["comment"]}
    assert auto_after == auto_before  # the veto auto-comments survive the graders' comments


def test_report_moves_statuses_as_the_manual_points_say(course: GradedCourse) -> None:
    """After grading, does the report show every mark once, nothing pending, and pass/fail by the points?"""
    assert {student: row["status"] for student, row in course.after.items()} == STATUS_AFTER_GRADING
    for student, row in course.after.items():
        marks = {m.cell: m.points for marks in GRADERS.values() for m in marks if m.student == student}
        assert {cell: row["parts"][cell] for cell in ("q1", "q2", "q3")} == marks
        assert row["pending"] == []
        assert row["total"] == course.before[student]["code"] + sum(marks.values())


def test_wrong_password_is_one_line_naming_the_setting(course: GradedCourse, server_url: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Does a refused login give one line that names NBGRADER_DB_URL and hides the password?"""
    monkeypatch.setenv("NBGRADER_DB_URL", server_url.replace(PASSWORD, "not-the-password"))
    done = run(course.root, sys.executable, "-m", "autograde", "report", SPEC.assignment)
    assert done.returncode == 1
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1 and "password authentication failed" in lines[0] and "NBGRADER_DB_URL" in lines[0]
    assert "not-the-password" not in done.stdout + done.stderr and "Traceback" not in done.stderr
