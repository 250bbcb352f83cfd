"""Real `nbgrader autograde` and `generate_feedback` runs on generated submissions, one per mistake."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograde.building.mock_submissions import load_table, write_submissions
from autograde.results.gradebook_scores import read_scores
from autograde.results.ungradable import load_ungradable

ROOT = Path(__file__).resolve().parent.parent
TABLE = load_table(ROOT / "tests" / "data" / "submissions" / "mistakes.yaml")
NBGRADER = str(Path(sys.executable).with_name("nbgrader"))
TESTS = ("test_formulas", "test_fp32_branch", "test_communication", "test_dp1")
EDITS_POINTS = "edits_points"
"""The correct submission with Q1's points edited in its metadata: nbgrader's overwrite restores them from the source."""
LINKS_TO_SOURCE = "links_to_source"
"""A submission whose notebook is a symbolic link to the instructor's source notebook (the solutions)."""
ADDS_BROKEN_CELL = "adds_broken_cell"
"""The correct submission plus a graded cell of the student's own whose nbgrader metadata is invalid: graded as the
correct one, that cell made ordinary (students write answers, never grading metadata)."""


def nbgrader(course: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    return subprocess.run([NBGRADER, *args], cwd=course, env=env, capture_output=True, text=True, timeout=900)


def write_edited_metadata(submitted: Path) -> None:
    """Submit the correct notebook twice more: once with Q1's points changed to text, once with a broken cell added."""
    correct = json.loads((submitted / "correct" / "lesson05" / "lesson05.ipynb").read_text(encoding="utf-8"))
    for student in (EDITS_POINTS, ADDS_BROKEN_CELL):
        notebook = json.loads(json.dumps(correct))
        if student == EDITS_POINTS:
            q1 = next(c for c in notebook["cells"] if c["metadata"].get("nbgrader", {}).get("grade_id") == "q1")
            q1["metadata"]["nbgrader"]["points"] = "all of them"
        else:
            notebook["cells"].append({"cell_type": "code", "execution_count": None, "outputs": [], "source": "x = 1", "metadata": {
                "nbgrader": {"grade": True, "solution": False, "locked": False, "grade_id": "bonus", "points": "all of them",
                             "schema_version": 3}}})
        target = submitted / student / "lesson05" / "lesson05.ipynb"
        target.parent.mkdir(parents=True)
        target.write_text(json.dumps(notebook), encoding="utf-8")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """A course with every submission of the mistakes table autograded once, then feedback generated."""
    course = tmp_path_factory.mktemp("course")
    for name in ("source", "release"):
        shutil.copytree(ROOT / name, course / name)
    for name in ("nbgrader_config.py", "grader_config.py"):
        shutil.copy(ROOT / name, course / name)
    assert nbgrader(course, "generate_assignment", "lesson05", "--force").returncode == 0
    write_submissions(course / "release" / "lesson05" / "lesson05.ipynb", TABLE, course / "submitted", "lesson05")
    write_edited_metadata(course / "submitted")
    (course / "submitted" / LINKS_TO_SOURCE / "lesson05").mkdir(parents=True)
    (course / "submitted" / LINKS_TO_SOURCE / "lesson05" / "lesson05.ipynb").symlink_to(course / "source" / "lesson05" / "lesson05.ipynb")
    autograde = nbgrader(course, "autograde", "lesson05")
    feedback = nbgrader(course, "generate_feedback", "lesson05")
    export = nbgrader(course, "export")
    assert export.returncode == 0, export.stderr[-2000:]
    scores = {row.student: row.scores for row in read_scores(course, "lesson05", "lesson05")}
    return course, autograde, feedback, scores


GRADED = [row for row in TABLE if "ungradable" not in row.expect]


def test_table_covers_at_least_fifteen_distinct_mistakes():
    """Are there at least 15 distinct graded mistakes (not counting the correct one)?"""
    assert len({row.student for row in GRADED if row.student != "correct"}) >= 15


@pytest.mark.parametrize("row", GRADED, ids=[row.student for row in GRADED])
def test_points_per_test(graded, row):
    """Does each submission get exactly the per-test points the rubric gives its mistake?"""
    _, _, _, scores = graded
    got = {test: scores[row.student][test] for test in TESTS}
    assert got == {test: float(row.expect[test]) for test in TESTS}, row.why


UNGRADABLE = [row for row in TABLE if "ungradable" in row.expect]


@pytest.mark.parametrize("row", UNGRADABLE, ids=[row.student for row in UNGRADABLE])
def test_bad_submissions_are_ungradable_with_a_reason(graded, row):
    """Is a broken, incomplete or missing notebook recorded as ungradable with its reason, in file and log?"""
    course, autograde, _, _ = graded
    reasons = load_ungradable("lesson05", course)
    assert row.expect["ungradable"] in reasons[row.student]
    if not row.missing:
        assert f"UNGRADABLE {row.student}/lesson05" in autograde.stderr + autograde.stdout


def test_edited_points_are_restored_from_the_source(graded):
    """Is a submission whose Q1 points were edited graded with the source's points, like its unedited twin?"""
    course, _, _, scores = graded
    assert {t: scores[EDITS_POINTS][t] for t in TESTS} == {t: scores["correct"][t] for t in TESTS}
    notebook = json.loads((course / "autograded" / EDITS_POINTS / "lesson05" / "lesson05.ipynb").read_text(encoding="utf-8"))
    q1 = next(c for c in notebook["cells"] if c["metadata"].get("nbgrader", {}).get("grade_id") == "q1")
    assert q1["metadata"]["nbgrader"]["points"] == 2


def test_a_graded_cell_of_the_students_own_is_made_ordinary(graded):
    """Is a notebook with a graded cell the student made up (invalid points) graded like its twin, that cell plain?"""
    course, autograde, _, scores = graded
    assert {t: scores[ADDS_BROKEN_CELL][t] for t in TESTS} == {t: scores["correct"][t] for t in TESTS}
    assert "Traceback" not in autograde.stderr + autograde.stdout
    notebook = json.loads((course / "autograded" / ADDS_BROKEN_CELL / "lesson05" / "lesson05.ipynb").read_text(encoding="utf-8"))
    (bonus,) = [cell for cell in notebook["cells"] if "".join(cell["source"]) == "x = 1"]
    assert "nbgrader" not in bonus["metadata"]


def test_a_link_to_the_solutions_is_refused(graded):
    """Is a submitted notebook that links to the source notebook refused (not graded 4/4 from the solutions)?"""
    course, autograde, _, scores = graded
    assert "is a symbolic link" in load_ungradable("lesson05", course)[LINKS_TO_SOURCE]
    assert f"UNGRADABLE {LINKS_TO_SOURCE}/lesson05" in autograde.stderr
    assert LINKS_TO_SOURCE not in scores


def test_batch_goes_on_after_failures(graded):
    """Are all graded submissions present although some were ungradable, looped or killed the kernel?"""
    _, autograde, _, scores = graded
    assert autograde.returncode == 1  # nbgrader reports the ungradable ones
    assert {row.student for row in GRADED} <= set(scores)


def test_deleted_answer_cell_is_restored_not_dropped(graded):
    """Is a deleted Q2 answer put back (ungraded, pending) rather than missing from the gradebook?"""
    course, _, _, scores = graded
    assert "q2" in scores["deletes_answer"]
    notebook = json.loads((course / "autograded" / "deletes_answer" / "lesson05" / "lesson05.ipynb").read_text())
    assert any(c["metadata"].get("nbgrader", {}).get("grade_id") == "q2" for c in notebook["cells"])


def test_vetoes_json_is_written_beside_each_graded_notebook(graded):
    """Does autograde leave vetoes.json for each graded student, with code vetoes where the code shows one?"""
    course, _, _, _ = graded
    for row in GRADED:
        record = json.loads((course / "autograded" / row.student / "lesson05" / "vetoes.json").read_text())
        assert record["student"] == row.student
    bob = json.loads((course / "autograded" / "z2_params_not_grads" / "lesson05" / "vetoes.json").read_text())
    assert [v["id"] for v in bob["vetoes"]] == ["wrong-shard-target"]
    clean = json.loads((course / "autograded" / "correct" / "lesson05" / "vetoes.json").read_text())
    assert clean["vetoes"] == []


def test_feedback_never_shows_hidden_test_code(graded):
    """Does the feedback HTML omit hidden-test code, even in tracebacks of failed tests?"""
    course, _, feedback, _ = graded
    assert feedback.returncode == 0, feedback.stderr[-2000:]
    pages = list((course / "feedback").rglob("*.html"))
    assert sorted(page.parents[1].name for page in pages) == sorted([row.student for row in GRADED] + [EDITS_POINTS, ADDS_BROKEN_CELL])
    for page in pages:
        html = page.read_text(encoding="utf-8")
        submitted = (course / "submitted" / page.parents[1].name / "lesson05" / "lesson05.ipynb").read_text(encoding="utf-8")
        for secret in ("expected_memory", "LESSON_CASES", "check_here", "BEGIN HIDDEN TESTS", "6364136223846793005"):
            assert secret not in html or secret in submitted, (page, secret)  # a student may write a name themselves
    assert list((course / "feedback").rglob("vetoes.json")) == []  # veto candidates are for graders, not students
    failing = (course / "feedback" / "comm_swapped" / "lesson05" / "lesson05.html").read_text(encoding="utf-8")
    assert "AssertionError: zero_communication_volume(" in failing


def test_export_lists_every_graded_student(graded):
    """Does plain `nbgrader export` (no flags) write grades.csv with each graded student's score?"""
    course, _, _, scores = graded
    rows = (course / "grades.csv").read_text(encoding="utf-8").splitlines()
    exported = {line.split(",")[3] for line in rows[1:] if line.startswith("lesson05,")}
    assert {row.student for row in GRADED} <= exported
