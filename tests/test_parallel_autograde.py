"""The batch as an instructor runs it: parallel, killed at any moment and run again, nothing lost or doubled; on the
local pool of forked workers and on a Dask cluster (two workers on 127.0.0.1)."""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook, SubmittedAssignment

from autograde.building.mock_submissions import (
    cycle_table,
    load_table,
    write_submissions,
)
from autograde.results.gradebook_scores import read_scores

ROOT = Path(__file__).resolve().parent.parent
TESTS = ("test_formulas", "test_fp32_branch", "test_communication", "test_dp1")
QUICK = [row for row in load_table(ROOT / "tests" / "data" / "submissions" / "mistakes.yaml")
         if "ungradable" not in row.expect and "loop" not in row.student]
STUDENTS = 12

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed (make test installs it as root)")


def processes_in(folder: Path, grace_s: float = 5.0) -> list[int]:
    """Processes still working in `folder` (the grader and its workers) once `grace_s` has passed for them to exit."""
    deadline = time.monotonic() + grace_s
    while True:
        found = []
        for entry in Path("/proc").iterdir():
            try:
                if entry.name.isdigit() and Path(os.readlink(entry / "cwd")) == folder:
                    found.append(int(entry.name))
            except OSError:
                continue
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


class Course:
    """A copy of the course with a class of submissions, and nbgrader run in it."""

    def __init__(self, root: Path, settings: str = "") -> None:
        self.root = root
        for name in ("source", "release"):
            shutil.copytree(ROOT / name, root / name)
        shutil.copy(ROOT / "nbgrader_config.py", root)
        (root / "grader_config.py").write_text((ROOT / "grader_config.py").read_text() + "\nc.Sandbox.workers = 2\n" + settings)
        self.env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
        self.nbgrader = str(Path(sys.executable).with_name("nbgrader"))
        assert self.run("generate_assignment", "lesson05", "--force").returncode == 0
        self.table = cycle_table(QUICK, STUDENTS, name="s{number:02d}")
        write_submissions(root / "release" / "lesson05" / "lesson05.ipynb", self.table, root / "submitted", "lesson05")

    def run(self, *args: str) -> subprocess.CompletedProcess:
        """An nbgrader command to its end."""
        return subprocess.run([self.nbgrader, *args], cwd=self.root, env=self.env, capture_output=True, text=True, timeout=600)

    def interrupt(self, sig: int, after: int, *args: str) -> subprocess.Popen:
        """Start `nbgrader autograde`, send `sig` once it has written `after` notebooks, and wait for it to end."""
        started = time.time()
        process = subprocess.Popen([self.nbgrader, "autograde", "lesson05", *args], cwd=self.root, env=self.env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 300
        while len(self.graded(since=started)) < after:
            assert process.poll() is None and time.monotonic() < deadline, "the batch ended before it could be interrupted"
            time.sleep(0.05)
        process.send_signal(sig)
        process.wait(timeout=60)
        return process

    def graded(self, since: float = 0.0) -> set[str]:
        """Students with an autograded notebook written after `since`."""
        return {p.parents[1].name for p in (self.root / "autograded").glob("*/lesson05/lesson05.ipynb")
                if p.stat().st_mtime > since}


@pytest.fixture(scope="module", params=["local", "cluster"])
def course(request, tmp_path_factory):
    """A class of 12 submissions: killed by SIGKILL after 4 results, by Ctrl-C during a --force regrade, then finished
    (graded by the local pool, then by the Dask cluster)."""
    cluster = request.getfixturevalue("dask_cluster") if request.param == "cluster" else None
    settings = f'c.Sandbox.cluster = "{cluster.address}"\n' if cluster else ""
    course = Course(tmp_path_factory.mktemp(f"course-{request.param}"), settings)
    killed = course.interrupt(signal.SIGKILL, 4)
    course.after_kill = (killed.returncode, sorted(course.graded()), processes_in(course.root))
    course.resumed = course.run("autograde", "lesson05")
    course.after_resume = sorted(course.graded())
    course.interrupted = course.interrupt(signal.SIGINT, 3, "--force")
    course.after_interrupt = (sorted(course.graded()), processes_in(course.root))
    course.finished = course.run("autograde", "lesson05")
    return course


def test_a_killed_batch_leaves_no_process_and_only_whole_results(course):
    """After SIGKILL, is no grader, worker or sandbox process left, and does every result folder hold its notebook?"""
    returncode, graded, left = course.after_kill
    assert returncode == -signal.SIGKILL and left == []
    assert 4 <= len(graded) < STUDENTS
    for student in graded:  # each notebook there was written whole (a temporary name, then a rename)
        nbformat.read(course.root / "autograded" / student / "lesson05" / "lesson05.ipynb", as_version=4)


def test_running_again_finishes_only_the_rest(course):
    """Does the next run grade exactly the students the killed one had not finished?"""
    assert course.resumed.returncode == 0, course.resumed.stderr[-2000:]
    _, graded_before, _ = course.after_kill
    lines = [line.split()[0] for line in course.resumed.stderr.splitlines() if line.startswith("  s")]
    assert sorted(lines) == sorted(set(course.after_resume) - set(graded_before))
    assert len(course.after_resume) == STUDENTS


def test_ctrl_c_stops_the_batch_cleanly(course):
    """Does Ctrl-C end the batch promptly, no process left, the submission being recorded finished, no folder half-written?"""
    graded, left = course.after_interrupt
    assert course.interrupted.returncode != 0 and left == []
    assert len(graded) == STUDENTS
    assert sorted(p.name for p in (course.root / "autograded").iterdir()) == graded


def test_nothing_is_lost_or_doubled(course):
    """After the interruptions, is every student graded once, with the per-test points of their mistake?"""
    assert course.finished.returncode == 0
    scores = {row.student: row.scores for row in read_scores(course.root, "lesson05", "lesson05")}
    assert {row.student: [scores[row.student][t] for t in TESTS] for row in course.table} == {
        row.student: [float(row.expect[t]) for t in TESTS] for row in course.table}
    with Gradebook(f"sqlite:///{course.root / 'gradebook.db'}") as gradebook:
        submissions = [s.student.id for s in gradebook.db.query(SubmittedAssignment)]
    assert sorted(submissions) == sorted(row.student for row in course.table)


def test_one_result_line_per_student_and_a_progress_bar(course):
    """Does a full run print one line per graded student and a bar with counts and ETA?"""
    rerun = course.run("autograde", "lesson05", "--force")
    lines = [line for line in rerun.stderr.splitlines() if line.startswith("  s")]
    assert sorted(line.split()[0] for line in lines) == sorted(row.student for row in course.table)
    assert f"{STUDENTS}/{STUDENTS}" in rerun.stderr and "ETA" in rerun.stderr
    last = re.search(r"graded (\d+) submission\(s\) in ([\d.]+) s: ([\d.]+) submissions/s, first result after ([\d.]+) s, "
                     r"recording (\d+) ms each", rerun.stderr)
    assert last is not None, rerun.stderr[-500:]
    count, seconds, rate, first, recording_ms = (float(value) for value in last.groups())
    assert count == STUDENTS and 0 < first <= seconds and abs(rate - count / seconds) < 0.1 + 0.02 * rate
    assert 0 < recording_ms * count / 1000 <= seconds  # the time spent recording is part of the batch
