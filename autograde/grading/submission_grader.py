"""Grade one submission from its text: sanitize, run in the sandbox, judge the hidden tests, check for vetoes.

This is what a worker does, a process forked by the local pool or a Dask worker on another machine. It needs no
course folder and no gradebook: everything comes in a picklable GraderSetup (the nbgrader configuration, the
preprocessor lists, the source notebook as the gradebook stores it) and the SubmissionTask (the notebooks' text),
and everything goes back as a GradedSubmission the nbgrader process alone records.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import nbformat
from nbformat.notebooknode import NotebookNode
from nbgrader.nbgraderformat import ValidationError
from traitlets.config import Config, LoggingConfigurable

from autograde.grading.preprocessors.check_submission import UngradableSubmission
from autograde.grading.sandbox.bwrap import SandboxUnavailable
from autograde.grading.sandbox.settings import Sandbox
from autograde.grading.sandbox.worker import shared_worker
from autograde.grading.source_snapshot import (
    SnapshotKey,
    SourceSnapshot,
    remember_snapshots,
)
from autograde.grading.submitted_folders import (
    UnreadableNotebook,
    parse_notebook,
    read_submitted_text,
)

CORRUPTED_METADATA = ("{notebook}: the cells' nbgrader metadata was changed or broken; ask the student to re-fetch the "
                      "release notebook and copy their work into it")
KEPT_RESOURCES = ("unique_key", "output_extension", "output_files_dir", "metadata", "nbgrader")


@dataclass(frozen=True)
class SubmissionTask:
    """One student's submission to grade."""

    assignment: str
    student: str
    paths: tuple[str, ...]
    """The submitted notebooks, as the instructor's disk names them (they also name the results)."""
    notes: tuple[str, ...] = ()
    """What the grader should know about the submission folder (files left out)."""
    texts: tuple[str, ...] = ()
    """The notebooks' text, when read by the nbgrader process (a cluster worker cannot read the instructor's disk)."""

    def read(self, max_bytes: int) -> SubmissionTask:
        """This task with its notebooks' text read (safely, see read_submitted_text)."""
        return replace(self, texts=tuple(read_submitted_text(Path(path), max_bytes) for path in self.paths))


@dataclass
class GradedNotebook:
    """One notebook as a worker left it: graded, not yet recorded."""

    path: str
    text: str
    """The graded notebook as nbformat writes it (validated in the worker, so the grading process only parses it)."""
    resources: dict[str, Any]

    @property
    def notebook(self) -> NotebookNode:
        """The graded notebook, read back without validating it again."""
        return nbformat.v4.reads(self.text)


@dataclass
class GradedSubmission:
    """Everything a worker sends back for one student's submission."""

    assignment_id: str
    student_id: str
    notebooks: list[GradedNotebook] = field(default_factory=list)
    ungradable: str | None = None
    failure: str | None = None
    seconds: float = 0.0


@dataclass
class GraderSetup:
    """Everything a worker needs for this batch, picklable: a cluster worker receives it once."""

    config: Config
    sanitize: list[type]
    autograde: list[type]
    db_url: str
    snapshots: dict[SnapshotKey, SourceSnapshot]
    """The source notebook of each of the assignment's notebooks, read from the gradebook by the nbgrader process."""


class SubmissionGrader(LoggingConfigurable):
    """Grades submissions in the process it lives in (one sandbox, the preprocessors built once)."""

    def __init__(self, setup: GraderSetup, **kwargs: Any) -> None:
        super().__init__(config=setup.config, **kwargs)
        self.setup = setup
        self.settings = Sandbox(parent=self)
        self.chains: dict[str, list[Any]] = {}
        remember_snapshots(setup.snapshots)

    def prepare(self) -> str | None:
        """Start this process's sandbox and warm the checks meanwhile; why it cannot grade, or None when ready."""
        def warm() -> None:
            parse_notebook("warm-up.ipynb", nbformat.writes(nbformat.v4.new_notebook()))  # nbformat builds its validator
            for preprocessor in self._chain("sanitize") + self._chain("autograde"):
                getattr(preprocessor, "prepare", lambda: None)()

        try:
            shared_worker(self.settings, self.log, meanwhile=warm)
        except SandboxUnavailable as refused:
            return str(refused)
        return None

    def grade(self, task: SubmissionTask) -> GradedSubmission:
        """Sanitize, run and check each notebook of one submission; never raises."""
        started = time.monotonic()
        graded = GradedSubmission(task.assignment, task.student)
        try:
            texts = (task if task.texts else task.read(self.settings.notebook_bytes)).texts
            graded.notebooks = [self._grade_notebook(task, path, text) for path, text in zip(task.paths, texts)]
        except (UngradableSubmission, UnreadableNotebook) as reason:
            graded.ungradable = str(reason)
        except ValidationError:  # nbgrader's: the cells' grading metadata was edited or broken
            graded.ungradable = CORRUPTED_METADATA.format(notebook=", ".join(Path(path).name for path in task.paths))
        except Exception as error:  # a broken submission must not stop the batch; the reason is kept
            graded.failure = f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"[:300]
        graded.seconds = time.monotonic() - started
        return graded

    def _grade_notebook(self, task: SubmissionTask, path: str, text: str) -> GradedNotebook:
        """One notebook through the sanitize and autograde preprocessors, in memory (no copy or JSON between passes)."""
        name = Path(path).stem
        notebook = parse_notebook(Path(path).name, text)
        resources: dict[str, Any] = {
            "unique_key": name, "output_files_dir": f"{name}_files", "metadata": {"name": name, "path": str(Path(path).parent)},
            "nbgrader": {"student": task.student, "assignment": task.assignment, "notebook": name, "db_url": self.setup.db_url},
            "autograde": {"submitted_text": text, "notes": list(task.notes)},
        }
        for preprocessor in self._chain("sanitize") + self._chain("autograde"):
            notebook, resources = preprocessor(notebook, resources)
        kept = {key: resources[key] for key in KEPT_RESOURCES if key in resources}
        checked = resources.get("autograde", {})
        kept["autograde"] = {"vetoes": checked.get("vetoes", {}), "notes": checked.get("notes", [])}
        return GradedNotebook(path, nbformat.writes(notebook), kept)

    def _chain(self, kind: str) -> list[Any]:
        """This process's preprocessors for the sanitize or the autograde pass, built on first use."""
        if kind not in self.chains:
            classes = self.setup.sanitize if kind == "sanitize" else self.setup.autograde
            self.chains[kind] = [preprocessor(parent=self) for preprocessor in classes]
        return self.chains[kind]
