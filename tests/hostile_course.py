"""One course with every hostile submission (attacks.yaml: code; content.yaml: content) and honest controls, graded
in one `nbgrader autograde` run, then feedback, export and the report; shared by test_hostile and test_hostile_pages."""
from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from string import Template
from typing import Any

import yaml

from autograde.building.mock_submissions import MockSubmission, write_submissions
from autograde.grading.sandbox.bwrap import package_dirs
from autograde.results.gradebook_scores import read_scores

ROOT = Path(__file__).resolve().parent.parent
TABLES = ("attacks.yaml", "content.yaml")
CONFIG = """
c.Sandbox.cell_timeout = 2          # the attackers' endless loops cost 2 s each, not 10
c.Sandbox.check_timeout = 1         # a hidden test's call that never returns, 1 s
c.Sandbox.submission_timeout = 8    # far above an honest submission's 1-2 s; the sleepy cells' 43 s stop here
"""
PAYLOAD = ("top.__pwned=(top.__pwned||0)+1;fetch('/api/kernels',{method:'POST'});"
           "new Image().src='http://198.51.100.7/x'")
"""Script planted by the content attackers: if it ever runs in a page, the page says so."""


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


def expanded(row: dict[str, Any]) -> dict[str, Any]:
    """A table row with its `*_repeat` shorthands (long, repetitive content) written out."""
    if "append_repeat" in row:
        text, times = row.pop("append_repeat")
        row["append"] = text * times
    if "extra_cells_repeat" in row:
        text, times = row.pop("extra_cells_repeat")
        row["extra_cells"] = [text] * times
    for question, (text, times) in row.pop("answer_repeat", {}).items():
        row.setdefault("answers", {})[question] = text * times
    return row


def attack_table(values: dict[str, str]) -> list[MockSubmission]:
    """Both attack tables with the course's real paths and a fresh mark filled in."""
    rows = []
    for name in TABLES:
        text = Template((ROOT / "tests" / "data" / "hostile" / name).read_text(encoding="utf-8")).substitute(values)
        rows += [MockSubmission(**expanded(row)) for row in yaml.safe_load(text.replace("MARK", values["mark"]))]
    return rows


def site_listing() -> list[str]:
    """Every file name in this environment's site-packages, to see that nothing was planted there."""
    return sorted(str(p) for folder in package_dirs() for p in folder.iterdir())


@dataclass
class HostileBatch:
    """The graded course and everything the tests look at."""

    course: Path
    home: Path
    mark: str
    table: list[MockSubmission]
    listener: Listener
    started: float
    runs: dict[str, subprocess.CompletedProcess] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    scores: dict[str, dict[str, float | None]] = field(default_factory=dict)
    site_before: list[str] = field(default_factory=list)
    site_after: list[str] = field(default_factory=list)
    leftovers: list[str] = field(default_factory=list)

    def run(self, *command: str) -> subprocess.CompletedProcess:
        """A command of the venv from the course root (the instructor's HOME is the fake one), timed."""
        env = dict(os.environ, HOME=str(self.home), PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
        started = time.monotonic()
        done = subprocess.run(command, cwd=self.course, env=env, capture_output=True, text=True, timeout=900)
        self.seconds[" ".join(command[1:3])] = time.monotonic() - started
        return done

    def row(self, student: str) -> MockSubmission:
        """The table row of one student."""
        return next(row for row in self.table if row.student == student)


def grade_hostile_batch(
    course: Path, home: Path, settings: str = "", more: list[MockSubmission] | None = None, *, autograde_only: bool = False
) -> HostileBatch:
    """Write every submission (and `more`), autograde them in one run, then (unless `autograde_only`) feedback, export
    and the report (`settings`: extra grader_config.py lines, e.g. a Dask cluster)."""
    mark = "MARK" + secrets.token_hex(4)
    (home / "secret.txt").write_text(f"{mark}-secret")
    for name in ("source", "release"):
        shutil.copytree(ROOT / name, course / name)
    shutil.copy(ROOT / "nbgrader_config.py", course)
    (course / "grader_config.py").write_text((ROOT / "grader_config.py").read_text() + CONFIG + settings)
    listener = Listener()
    values = {"course": str(course), "home": str(home), "site_packages": str(package_dirs()[0]), "port": str(listener.port),
              "mark": mark, "payload": PAYLOAD, "classmate": str(course / "submitted" / "zz_control_correct" / "lesson05" / "lesson05.ipynb"),
              "hidden_tests": str(ROOT / "autograde" / "assignments" / "lesson05" / "hidden_tests.py")}
    batch = HostileBatch(course, home, mark, attack_table(values) + (more or []), listener, time.time())
    nbgrader, python = str(Path(sys.executable).with_name("nbgrader")), sys.executable
    assert batch.run(nbgrader, "generate_assignment", "lesson05", "--force").returncode == 0
    write_submissions(course / "release" / "lesson05" / "lesson05.ipynb", batch.table, course / "submitted", "lesson05")
    batch.site_before = site_listing()
    batch.runs["autograde"] = batch.run(nbgrader, "autograde", "lesson05")
    if not autograde_only:
        batch.runs["feedback"] = batch.run(nbgrader, "generate_feedback", "lesson05")
        batch.runs["export"] = batch.run(nbgrader, "export")
        batch.runs["report"] = batch.run(python, "-m", "autograde", "report", "lesson05")
    batch.scores = {row.student: row.scores for row in read_scores(course, "lesson05", "lesson05")}
    batch.leftovers = subprocess.run(["pgrep", "-f", "987654"], capture_output=True, text=True).stdout.split()
    batch.site_after = site_listing()
    return batch
