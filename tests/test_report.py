"""`python -m autograde report` on a gradebook built by a real `nbgrader autograde` run of a small class."""
from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograde.assignment_spec import REPO_ROOT, load_spec
from autograde.building.mock_submissions import (
    MockSubmission,
    load_table,
    write_submissions,
)
from autograde.cli import main
from autograde.results.gradebook_access import open_gradebook

DATA = Path(__file__).parent / "data" / "report"
SPEC = load_spec("lesson05")
CLASS = load_table(DATA / "submissions.yaml")
"""Who submitted what, the manual grades the test gives, and the row the report must show."""


def nbgrader(root: Path, *args: str) -> int:
    """Run the venv's nbgrader in the course root; returns its exit status."""
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    return subprocess.run(["nbgrader", *args], cwd=root, env=env, capture_output=True, check=False).returncode


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A course root autograded by nbgrader, with manual grades entered through the Gradebook API."""
    root = tmp_path_factory.mktemp("course")
    shutil.copytree(REPO_ROOT / "source" / SPEC.assignment, root / "source" / SPEC.assignment)
    for name in ("nbgrader_config.py", "grader_config.py"):
        shutil.copy(REPO_ROOT / name, root)
    assert nbgrader(root, "generate_assignment", SPEC.assignment, "--force") == 0
    write_submissions(root / "release" / SPEC.assignment / SPEC.notebook, CLASS, root / "submitted", SPEC.assignment)
    nbgrader(root, "autograde", SPEC.assignment, "--create")  # exits 1: grace's notebook is not JSON
    notebook = SPEC.notebook.removesuffix(".ipynb")
    with open_gradebook(root) as gradebook:
        for row in CLASS:
            for grade_id, points in row.expect.get("manual", {}).items():
                grade = gradebook.find_grade(grade_id, notebook, SPEC.assignment, row.student)
                grade.manual_score, grade.needs_manual_grade = points, False  # as formgrader's grade handler does
        gradebook.db.commit()
    shutil.copy(DATA / "overrides.yaml", root / "overrides.yaml")
    return root


def expected(student: str) -> MockSubmission:
    """The row of the class table for one student."""
    return next(row for row in CLASS if row.student == student)


def test_report_combines_gradebook_vetoes_and_overrides(course: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Do the CSV, JSON and HTML show each student's points, vetoes, decisions and status, safely and offline?"""
    monkeypatch.chdir(course)
    assert main(["report", SPEC.assignment, "--json", "elsewhere/grades.json"]) == 0
    assert "veto (upheld)" in capsys.readouterr().out

    with (course / "reports" / SPEC.assignment / "grades.csv").open(encoding="utf-8") as handle:
        rows = {row["student"]: row for row in csv.DictReader(handle)}
    assert {s: (r["status"], r[f"total/{SPEC.code_points + SPEC.answer_points}"]) for s, r in rows.items()} == {
        row.student: (row.expect["status"], row.expect["total"]) for row in CLASS}
    assert [rows["dave"][t.grade_id] for t in SPEC.tests] == ["1", "1", "0", "1"]
    assert (rows["dave"]["points_so_far"], rows["dave"]["pending"]) == ("3", "q1 q2 q3")
    assert [rows["erin"][a.grade_id] for a in SPEC.answers] == ["0", "0", "0"]
    assert rows["grace"]["ungradable"].startswith("lesson05.ipynb is not valid JSON")

    graded = {s["student"]: s for s in json.loads((course / "elsewhere" / "grades.json").read_text(encoding="utf-8"))["students"]}
    assert not (course / "reports" / SPEC.assignment / "grades.json").exists()
    assert graded["alice"]["parts"] == {"test_formulas": 1.0, "test_fp32_branch": 1.0, "test_communication": 1.0,
                                        "test_dp1": 1.0, "q1": 2.0, "q2": 1.5, "q3": 0.5}
    assert {(v["id"], v["cell"], v["decision"]) for v in graded["bob"]["vetoes"]} == {
        ("wrong-shard-target", "zero_code", "upheld")}
    assert {v["decision"] for v in graded["dave"]["vetoes"]} == {"dismissed"}
    assert graded["grace"]["total"] is None and graded["grace"]["points"] is None

    html = (course / "reports" / SPEC.assignment / "grades.html").read_text(encoding="utf-8")
    assert not re.search(r"""<script|<link|@import|url\(|(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "&lt;/td&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<svg" in html and "<del" in html


def test_bad_overrides_stop_the_report_and_keep_the_last_one(course: Path, monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Does an override for an unknown student give a one-line error and leave the written report untouched?"""
    monkeypatch.chdir(course)
    assert main(["report", SPEC.assignment]) == 0
    written = (course / "reports" / SPEC.assignment / "grades.csv").read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["report", SPEC.assignment, "--overrides", str(DATA / "overrides" / "unknown_student.yaml")]) == 1
    error = capsys.readouterr().out.strip()
    assert "unknown_student.yaml: entry 1: no submission from student 'mallory'" in error
    assert "\n" not in error
    assert (course / "reports" / SPEC.assignment / "grades.csv").read_text(encoding="utf-8") == written


def test_student_whose_autograding_stopped_is_ungradable(course: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Is a student with scores but no vetoes.json (the veto checks never ran) ungradable, not passed or failed?"""
    copy = shutil.copytree(course, tmp_path / "course")
    (copy / "autograded" / "erin" / SPEC.assignment / "vetoes.json").unlink()
    monkeypatch.chdir(copy)
    assert main(["report", SPEC.assignment]) == 0
    graded = {s["student"]: s for s in json.loads((copy / "reports" / SPEC.assignment / "grades.json").read_text(encoding="utf-8"))["students"]}
    assert graded["erin"]["status"] == "ungradable"
    assert graded["erin"]["ungradable"].startswith("autograding did not finish")
