"""Grading on a Dask cluster (two workers on 127.0.0.1, each in its own folder): the same points as the local pool for
the hostile suite and the mistake table, a worker lost mid-batch costs nothing, an unreachable scheduler is one line
and nothing is written."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from dask_cluster import free_port

from autograde.building.mock_submissions import (
    cycle_table,
    load_table,
    write_submissions,
)
from autograde.results.gradebook_scores import read_scores

ROOT = Path(__file__).resolve().parent.parent
TESTS = ("test_formulas", "test_fp32_branch", "test_communication", "test_dp1")
MISTAKES = [row for row in load_table(ROOT / "tests" / "data" / "submissions" / "mistakes.yaml") if "ungradable" not in row.expect]
pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed (make test installs it as root)")


def course_with(folder: Path, settings: str, rows: list) -> Path:
    """A course with the committed release, `settings` added to grader_config.py, and `rows` submitted."""
    for name in ("source", "release"):
        shutil.copytree(ROOT / name, folder / name)
    shutil.copy(ROOT / "nbgrader_config.py", folder)
    (folder / "grader_config.py").write_text((ROOT / "grader_config.py").read_text() + settings)
    assert nbgrader(folder, "generate_assignment", "lesson05", "--force").returncode == 0
    write_submissions(folder / "release" / "lesson05" / "lesson05.ipynb", rows, folder / "submitted", "lesson05")
    return folder


def nbgrader(course: Path, *args: str) -> subprocess.CompletedProcess:
    """An nbgrader command run to its end in the course."""
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    return subprocess.run([str(Path(sys.executable).with_name("nbgrader")), *args], cwd=course, env=env,
                          capture_output=True, text=True, timeout=900)


def points(course: Path) -> dict[str, dict[str, float | None]]:
    """Per-test points of every graded student."""
    return {row.student: {test: row.scores[test] for test in TESTS} for row in read_scores(course, "lesson05", "lesson05")}


def test_an_unreachable_scheduler_is_one_line_and_writes_nothing(tmp_path: Path) -> None:
    """With no scheduler at the configured address, does autograde exit 1 with one line naming it and the setting?"""
    address = f"tcp://127.0.0.1:{free_port()}"
    course = course_with(tmp_path, f'c.Sandbox.cluster = "{address}"\n', MISTAKES[:2])
    done = nbgrader(course, "autograde", "lesson05")
    errors = [line for line in done.stderr.splitlines() if "ERROR" in line]
    assert done.returncode == 1 and len(errors) == 1, done.stderr[-2000:]
    assert address in errors[0] and "c.Sandbox.cluster" in errors[0] and "Traceback" not in done.stderr
    assert not (course / "autograded").exists() and not (course / "reports").exists() and points(course) == {}


def test_a_worker_lost_mid_batch_costs_nothing(dask_cluster, tmp_path: Path) -> None:
    """When one worker is SIGKILLed mid-batch, is every student still graded exactly once, on the one left?"""
    rows = cycle_table(MISTAKES, 14, name="k{number:02d}_{student}")
    course = course_with(tmp_path, f'c.Sandbox.cluster = "{dask_cluster.address}"\n', rows)
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    batch = subprocess.Popen([str(Path(sys.executable).with_name("nbgrader")), "autograde", "lesson05"], cwd=course,
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 300
    while len(list((course / "autograded").glob("*/lesson05/lesson05.ipynb"))) < 3:
        assert batch.poll() is None and time.monotonic() < deadline, "the batch ended before a worker could be lost"
        time.sleep(0.05)
    dask_cluster.kill_worker("w1")
    _, stderr = batch.communicate(timeout=600)
    dask_cluster.add_worker("w1")  # the next test finds the cluster whole again
    lines = [line.split()[0] for line in stderr.splitlines() if line.startswith("  k")]
    assert batch.returncode == 0, stderr[-3000:]
    assert sorted(lines) == sorted(row.student for row in rows)  # each result recorded once
    assert points(course) == {row.student: {t: float(row.expect[t]) for t in TESTS} for row in rows}


def test_the_hostile_suite_and_the_mistakes_get_the_local_points_on_the_cluster(dask_cluster, tmp_path_factory) -> None:
    """In one batch on the cluster, does every attacker, control and mistake of the table get exactly its local points
    (and every hidden veto its veto)?"""
    from hostile_course import grade_hostile_batch

    batch = grade_hostile_batch(tmp_path_factory.mktemp("hostile-cluster"), tmp_path_factory.mktemp("hostile-home"),
                                f'c.Sandbox.cluster = "{dask_cluster.address}"\n', MISTAKES, autograde_only=True)
    graded = [row for row in batch.table if "ungradable" not in row.expect]
    assert {row.student: {t: batch.scores[row.student][t] for t in TESTS} for row in graded} == {
        row.student: {t: float(row.expect[t]) for t in TESTS} for row in graded}
    vetoes = {row.student: {v["id"] for v in json.loads((batch.course / "autograded" / row.student / "lesson05" /
                                                          "vetoes.json").read_text(encoding="utf-8"))["vetoes"]}
              for row in graded if "vetoes" in row.expect}
    assert vetoes == {row.student: set(row.expect["vetoes"]) for row in graded if "vetoes" in row.expect}
