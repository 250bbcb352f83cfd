"""`make demo`'s two commands on a copy of the course: autograde the example class, then the final report."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograde.results.gradebook_scores import read_scores

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess, subprocess.CompletedProcess]:
    """A copy of the course where `demo` and then `report` ran once."""
    course = tmp_path_factory.mktemp("demo")
    for name in ("source", "release", "examples"):
        shutil.copytree(ROOT / name, course / name)
    for name in ("nbgrader_config.py", "grader_config.py"):
        shutil.copy(ROOT / name, course / name)
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", PYTHONPATH=str(ROOT))
    subprocess.run([str(Path(sys.executable).with_name("nbgrader")), "generate_assignment", "lesson05", "--force"],
                   cwd=course, env=env, check=True, capture_output=True)
    demo = subprocess.run([sys.executable, "-m", "autograde", "demo", "lesson05"], cwd=course, env=env,
                          capture_output=True, text=True, timeout=600)
    report = subprocess.run([sys.executable, "-m", "autograde", "report", "lesson05"], cwd=course, env=env,
                            capture_output=True, text=True, timeout=300)
    return course, demo, report


def test_demo_prints_points_for_every_example(course):
    """Does the demo exit 0 and print a row per example student, the broken one as ungradable?"""
    _, demo, _ = course
    assert demo.returncode == 0, demo.stdout[-3000:] + demo.stderr[-3000:]
    for student in ("alice", "bob", "carol", "dave", "erin", "frank", "grace"):
        assert f"│ {student}" in demo.stdout
    assert "ungradable grace: lesson05.ipynb is not valid JSON" in demo.stdout


def test_a_broken_notebook_is_one_line_not_a_traceback(course):
    """Does the instructor see grace's broken notebook as one UNGRADABLE line, with no traceback anywhere?"""
    _, demo, _ = course
    assert "UNGRADABLE grace/lesson05: lesson05.ipynb is not valid JSON" in demo.stderr
    assert "Traceback" not in demo.stdout + demo.stderr


def test_autograde_before_build_says_what_to_run(tmp_path):
    """On a fresh clone with submissions but no gradebook yet, does autograde stop at once with one line naming make build?"""
    for name in ("source", "release"):
        shutil.copytree(ROOT / name, tmp_path / name)
    for name in ("nbgrader_config.py", "grader_config.py"):
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copytree(ROOT / "examples" / "submissions", tmp_path / "submitted")
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    run = subprocess.run([str(Path(sys.executable).with_name("nbgrader")), "autograde", "lesson05"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 1
    assert "lesson05 is not in the gradebook" in run.stderr and "run `make build`" in run.stderr
    assert "Traceback" not in run.stderr and not (tmp_path / "autograded").exists()


def test_report_after_demo_has_text_and_code_vetoes(course):
    """Does the report after the demo show one student vetoed from text and one from code, and the right statuses?"""
    root, _, report = course
    assert report.returncode == 0, report.stderr[-3000:]
    rows = {row["student"]: row for row in json.loads((root / "reports" / "lesson05" / "grades.json").read_text())["students"]}
    origins = {(v["id"], v["origin"]) for v in rows["carol"]["vetoes"]}
    assert ("activations-sharded", "text") in origins
    assert ("wrong-comm-volume", "code") in {(v["id"], v["origin"]) for v in rows["dave"]["vetoes"]}
    assert rows["grace"]["status"] == "ungradable"
    assert rows["erin"]["status"] == "fail" and rows["alice"]["status"] == "needs-manual-grading"
    for name in ("grades.csv", "grades.json", "grades.html"):
        assert (root / "reports" / "lesson05" / name).stat().st_size > 0


def test_a_function_that_never_returns_costs_only_its_test(course):
    """Is frank's stage 3 loop interrupted, costing test_communication alone, with no veto read into a missing number?"""
    root, _, _ = course
    scores = {row.student: row.scores for row in read_scores(root, "lesson05", "lesson05")}["frank"]
    assert [scores[test] for test in ("test_formulas", "test_fp32_branch", "test_communication", "test_dp1")] == [1, 1, 0, 1]
    notebook = json.loads((root / "autograded" / "frank" / "lesson05" / "lesson05.ipynb").read_text(encoding="utf-8"))
    test = next(c for c in notebook["cells"] if c["metadata"].get("nbgrader", {}).get("grade_id") == "test_communication")
    assert "did not return within" in json.dumps(test["outputs"])
    assert json.loads((root / "autograded" / "frank" / "lesson05" / "vetoes.json").read_text())["vetoes"] == []
