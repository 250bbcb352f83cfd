"""Hostile submissions graded in one batch by the course's own `nbgrader autograde`, honest classmates after them.

Every attacker knows no formula; each must get exactly its honest points (none), each control its true
points, nothing an attacker did may reach the host, a classmate, the gradebook or any output, and the
batch must finish.
"""
from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path
from string import Template

import pytest
import yaml
from nbgrader.api import Grade, Gradebook

from autograde.building.mock_submissions import MockSubmission, write_submissions
from autograde.grading.sandbox.bwrap import package_dirs
from autograde.results.gradebook_scores import read_scores

ROOT = Path(__file__).resolve().parent.parent
TESTS = ("test_formulas", "test_fp32_branch", "test_communication", "test_dp1")
SOLUTION_LINES = ("params_bf16 + (grads_bf16 + opt_fp32) / dp + extra", "(params_bf16 + grads_bf16 + opt_fp32) / dp + extra")
ORACLE_WORDS = ("expected_memory", "6364136223846793005", "LESSON_CASES", "check_here")
CONFIG = """
c.Sandbox.cell_timeout = 3          # the attackers' endless loops cost 3 s each, not 10
c.Sandbox.submission_timeout = 60
"""

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed (make test installs it as root)")


class Listener:
    """A TCP server on the host's loopback that records whether anybody connected."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.connections = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.server.accept()
            except OSError:
                return
            self.connections += 1
            connection.close()


def attack_table(values: dict[str, str]) -> list[MockSubmission]:
    """The attack table with the course's real paths and a fresh mark filled in."""
    text = Template((ROOT / "tests" / "data" / "hostile" / "attacks.yaml").read_text(encoding="utf-8")).substitute(values)
    return [MockSubmission(**row) for row in yaml.safe_load(text.replace("MARK", values["mark"]))]


def site_listing() -> list[str]:
    """Every file name in this environment's site-packages, to see that nothing was planted there."""
    return sorted(str(p) for folder in package_dirs() for p in folder.iterdir())


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    """The course with every hostile and control submission autograded in one run, then feedback generated."""
    course = tmp_path_factory.mktemp("course")
    home = tmp_path_factory.mktemp("home")
    mark = "MARK" + secrets.token_hex(4)
    (home / "secret.txt").write_text(f"{mark}-secret")
    for name in ("source", "release"):
        shutil.copytree(ROOT / name, course / name)
    shutil.copy(ROOT / "nbgrader_config.py", course)
    (course / "grader_config.py").write_text((ROOT / "grader_config.py").read_text() + CONFIG)
    listener = Listener()
    table = attack_table({"course": str(course), "home": str(home), "site_packages": str(package_dirs()[0]),
                          "port": str(listener.port), "mark": mark})
    env = dict(os.environ, HOME=str(home), PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    nbgrader = str(Path(sys.executable).with_name("nbgrader"))
    run = lambda *args: subprocess.run([nbgrader, *args], cwd=course, env=env, capture_output=True, text=True, timeout=900)  # noqa: E731
    assert run("generate_assignment", "lesson05", "--force").returncode == 0
    write_submissions(course / "release" / "lesson05" / "lesson05.ipynb", table, course / "submitted", "lesson05")
    before = site_listing()
    autograde = run("autograde", "lesson05")
    feedback = run("generate_feedback", "lesson05")
    scores = {row.student: row.scores for row in read_scores(course, "lesson05", "lesson05")}
    leftovers = subprocess.run(["pgrep", "-f", "987654"], capture_output=True, text=True).stdout.split()
    return {"course": course, "home": home, "mark": mark, "table": table, "autograde": autograde, "feedback": feedback,
            "scores": scores, "listener": listener, "site_before": before, "site_after": site_listing(),
            "leftovers": leftovers}


def outputs(course: Path) -> dict[tuple[str, Path], str]:
    """Every file the grader wrote for a student (autograded notebook, vetoes.json, feedback page), by student."""
    found = {}
    for folder in ("autograded", "feedback"):
        for path in (course / folder).rglob("*"):
            if path.is_file():
                found[path.relative_to(course / folder).parts[0], path] = path.read_text(encoding="utf-8", errors="replace")
    return found


def test_the_batch_finishes_and_grades_everyone(batch):
    """Does the batch end normally with every attacker and control in the gradebook?"""
    assert batch["autograde"].returncode == 0, batch["autograde"].stderr[-3000:]
    assert {row.student for row in batch["table"]} <= set(batch["scores"])


def test_each_submission_gets_exactly_its_honest_points(batch):
    """Does every attacker get only its honest points (none) and every control its true points?"""
    got = {row.student: {test: batch["scores"][row.student][test] for test in TESTS} for row in batch["table"]}
    expected = {row.student: {test: float(row.expect[test]) for test in TESTS} for row in batch["table"]}
    assert got == expected


def test_nobody_wrote_the_gradebook(batch):
    """Is there no manual score anywhere in the gradebook, though one attacker tried to give itself 2/2/2?"""
    with Gradebook(f"sqlite:///{batch['course'] / 'gradebook.db'}") as gradebook:
        manual = [(grade.student.id, grade.name, grade.manual_score) for grade in gradebook.db.query(Grade)
                  if grade.manual_score is not None]
    assert manual == []


def test_nothing_was_planted_on_the_host(batch):
    """Are the course, the instructor's home, site-packages, /tmp and cron free of anything an attacker wrote?"""
    mark, course, home = batch["mark"], batch["course"], batch["home"]
    assert batch["site_after"] == batch["site_before"]
    planted = [p for root in (course, home) for p in root.rglob(f"*{mark}*")]
    planted += [p for folder in (Path("/tmp"), Path("/var/spool/cron/crontabs")) if folder.is_dir()
                for p in folder.iterdir() if mark in p.name]
    assert planted == []
    assert not (home / ".ipython").exists() and not (home / ".bashrc").exists()
    ungradable = course / "reports" / "lesson05" / "ungradable.json"
    assert not ungradable.exists() or mark not in ungradable.read_text()


def test_no_process_outlives_the_batch(batch):
    """Is every daemon, orphan and sleeping child the attackers started gone when grading ends?"""
    assert batch["leftovers"] == []


def test_no_network_reached_the_host(batch):
    """Did no submission connect to a server on the grader's loopback?"""
    assert batch["listener"].connections == 0


def test_no_secret_or_success_reaches_any_output(batch):
    """Does no output hold a solution, oracle code, a secret or a successful read the student did not write, or grow huge?"""
    mark, course = batch["mark"], batch["course"]
    forbidden = (*SOLUTION_LINES, *ORACLE_WORDS, f"{mark}-secret", f"{mark}-a01 found", f"{mark}-a02 imported",
                 f"{mark}-a02 oracle", f"{mark}-a03 copied", f"{mark}-a04 wrote", f"{mark}-a09 got",
                 f"{mark}-a16 connected", f"{mark}-a18 read")
    for (student, path), text in outputs(course).items():
        submitted = (course / "submitted" / student / "lesson05" / "lesson05.ipynb").read_text(encoding="utf-8")
        leaked = [word for word in forbidden if word in text and word not in submitted]
        assert leaked == [], path
        assert len(text) < 2_000_000, path


def test_hidden_tests_show_a_verdict_and_one_line(batch):
    """Does each hidden test cell hold exactly one output, a single line, and nothing the student printed?"""
    mark = batch["mark"]
    for path in (batch["course"] / "autograded").rglob("lesson05.ipynb"):
        for cell in json.loads(path.read_text())["cells"]:
            if cell["metadata"].get("nbgrader", {}).get("grade_id") in TESTS:
                (output,) = cell["outputs"]
                text = "".join(output.get("text", "")) + output.get("evalue", "")
                assert text.strip().count("\n") == 0 and mark not in text, (path, text)


def test_feedback_is_generated_for_everyone(batch):
    """Does generate_feedback succeed and write a page per student after the hostile batch?"""
    assert batch["feedback"].returncode == 0, batch["feedback"].stderr[-2000:]
    assert len(list((batch["course"] / "feedback").rglob("*.html"))) == len(batch["table"])
