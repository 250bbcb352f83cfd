"""`nbgrader autograde`, parallel and sandboxed: workers prepare, run and check submissions; only this process records.

Each worker (a process forked from this one, one per core by default, or a Dask worker when c.Sandbox.cluster
names a cluster) grades a submission with a SubmissionGrader (sanitize with nbgrader's own preprocessors, run in the
sandbox, judge the hidden tests, check for vetoes) and sends the graded notebook back. This process alone writes:
the gradebook (`record_preprocessors`), autograded/ and the ungradable record.
A submission's autograded notebook is written last and atomically, so a batch killed at any moment
leaves only whole results; the next run regrades what it had not finished.
"""
from __future__ import annotations

import logging
import os
import shutil
import signal
import threading
import time
import warnings
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from nbgrader import utils
from nbgrader.api import Gradebook, MissingEntry
from nbgrader.converters import Autograde, NbGraderException
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from traitlets import List, Unicode

from autograde.grading.batch_gradebook import SHARED_KEY, one_transaction
from autograde.grading.cluster import ClusterUnavailable
from autograde.grading.pool import GradingPool, Lost, WorkerRefused
from autograde.grading.preprocessors.assign_late_penalties_in_batch import (
    AssignLatePenaltiesInBatch,
)
from autograde.grading.preprocessors.record_vetoes import RecordVetoes
from autograde.grading.preprocessors.save_auto_grades_in_batch import (
    SaveAutoGradesInBatch,
)
from autograde.grading.sandbox.settings import Sandbox
from autograde.grading.source_snapshot import source_snapshot
from autograde.grading.submission_grader import (
    GradedSubmission,
    GraderSetup,
    SubmissionGrader,
    SubmissionTask,
)
from autograde.grading.submitted_folders import (
    RefusedFolder,
    SubmittedFolder,
    scan_submitted,
)
from autograde.results.ungradable import set_ungradable
from autograde.untrusted.shown import EscapeControlCharacters, for_terminal

NOT_REGISTERED = ("{assignment} is not in the gradebook ({db_url}) yet: run `make build` "
                  "(or `nbgrader generate_assignment {assignment}`) first, then autograde again")
NBGRADER_SESSION_WARNING = ".*not in session, add operation along.*"
"""SQLAlchemy's warning from nbgrader 0.9's own add_submission for a new student: harmless, one per student."""
IGNORED_NOTE = "the submission folder also held {entries}: not read, copied or shown (only the notebook is graded)"
STUDENT_ID = r"[\w@+-][\w.@+-]{0,63}"
"""Folder names that can be student ids: letters, digits, _ . - @ + (a leading '.' would hide the folder)."""


def batch_line(count: int, seconds: float, first: float | None, recording: float) -> str:
    """The batch's last line: how many, how fast, when the first result came, and the time this process spent
    recording each (the rate no number of workers can pass)."""
    rate = count / seconds if seconds > 0 else 0.0
    arrived = f"first result after {first:.2f} s" if first is not None else "no result"
    each = f", recording {1000 * recording / count:.0f} ms each" if count else ""
    return f"graded {count} submission(s) in {seconds:.1f} s: {rate:.2f} submissions/s, {arrived}{each}"


class ParallelAutograde(Autograde):
    """nbgrader's Autograde converter with a parallel, sandboxed, resumable batch in place of its serial loop."""

    student_id_pattern = Unicode(STUDENT_ID, help=(
        "Regular expression a submitted folder's name must match in full to be a student id; other folders are "
        "recorded as ungradable with the reason")).tag(config=True)
    record_preprocessors = List([SaveAutoGradesInBatch, AssignLatePenaltiesInBatch, RecordVetoes], help=(
        "Preprocessors run by the grading process itself on each graded notebook: the only ones that write "
        "the gradebook or files. `sanitize_preprocessors` and `autograde_preprocessors` run in the workers."
    )).tag(config=True)

    settings: Sandbox
    """The sandbox's limits for this batch, read once before the workers fork."""
    known: list[str]
    """The assignment's notebook names, from the gradebook."""
    submitted: dict[str, SubmittedFolder]
    """The gradable submissions found under submitted/, by student."""
    refused: list[RefusedFolder]
    """Folders under submitted/ that cannot be graded, with why."""
    setup: GraderSetup
    """What a worker needs to grade this batch (configuration, preprocessors, the source notebook)."""
    grader: SubmissionGrader | None = None
    """A forked worker's grader (None in the nbgrader process itself)."""
    recorders: list[Any]
    """Instances of record_preprocessors, built once per batch in this process."""
    batch_gradebook: Gradebook
    """The one gradebook this process records the whole batch through."""

    def init_notebooks(self) -> None:
        """Find the submissions ourselves (nbgrader's glob skips hidden and odd folder names without a word)."""
        for handler in self.log.handlers or logging.getLogger().handlers:
            handler.addFilter(EscapeControlCharacters())  # ids and reasons are student data: no control characters
        assignment = self.coursedir.assignment_id
        self.known = self._registered_notebooks(assignment)
        self.settings = Sandbox(parent=self)
        submitted = Path(self.coursedir.root) / self.coursedir.submitted_directory
        found, self.refused = scan_submitted(submitted, assignment, self.known, self.student_id_pattern,
                                             self.coursedir.student_id, self.settings.notebook_bytes)
        self.submitted = {folder.student: folder for folder in found}
        self.assignments = {str(folder.notebooks[0].parent): [str(path) for path in folder.notebooks] for folder in found}
        if not found and not self.refused:
            message = f"No notebooks were matched by '{self._format_source(assignment, self.coursedir.student_id)}'"
            self.log.error(message)
            raise NbGraderException(message)

    def convert_notebooks(self) -> None:
        """Grade every submission that needs it, several at once, recording each as it finishes."""
        assignment = self.coursedir.assignment_id
        root = Path(self.coursedir.root)
        db_url = self.coursedir.db_url
        self.setup = GraderSetup(self.config, list(self.sanitize_preprocessors), list(self.autograde_preprocessors),
                                 db_url, {(db_url, assignment, name): source_snapshot(db_url, assignment, name)
                                          for name in self.known})
        tasks = self._pending()
        if not tasks and not self.refused:
            self.log.warning("Nothing to autograde: every submission of %s is already graded (use --force to regrade)", assignment)
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=NBGRADER_SESSION_WARNING)
            failed = self._grade_all(tasks, self.settings.worker_count()) if tasks else []
        for folder in self.refused:  # written once grading could start: a refused sandbox or cluster writes nothing
            set_ungradable(assignment, folder.student, folder.reason, root)
            self.log.error("UNGRADABLE %s/%s: %s", folder.student, assignment, folder.reason)
        not_graded = [folder.student for folder in self.refused] + failed
        if not_graded:  # nbgrader's convention: exit status 1 when some submission was not graded
            shown = ", ".join(sorted(for_terminal(student)[:40] for student in not_graded))
            raise NbGraderException(f"{len(not_graded)} submission(s) not graded: {shown}")

    def _registered_notebooks(self, assignment: str) -> list[str]:
        """Notebook names of the assignment in the gradebook; one line telling what to run when it is not there."""
        with Gradebook(self.coursedir.db_url, self.coursedir.course_id) as gradebook:
            try:
                names = [notebook.name for notebook in gradebook.find_assignment(assignment).notebooks]
            except MissingEntry:
                names = []
        if not names:
            message = NOT_REGISTERED.format(assignment=assignment, db_url=self.coursedir.db_url)
            self.log.error(message)
            raise NbGraderException(message)
        return names

    def _pending(self) -> list[SubmissionTask]:
        """Each submission nbgrader's own rules say to (re)grade, with notes on what its folder also held."""
        tasks = []
        for folder in sorted(self.assignments):
            student = Path(folder).parent.name
            assignment = Path(folder).name
            self.notebooks = sorted(self.assignments[folder])
            if self.init_destination(assignment, student):
                ignored = self.submitted[student].ignored
                notes = (IGNORED_NOTE.format(entries=", ".join(ignored)),) if ignored else ()
                tasks.append(SubmissionTask(assignment, student, tuple(self.notebooks), notes))
        return tasks

    def init_destination(self, assignment_id: str, student_id: str) -> bool:
        """nbgrader's rules for whether to (re)grade, without deleting anything: the old result stays until replaced.

        A folder without its notebooks is a run stopped midway and is regraded; a notebook that arrived after the
        result was written is regraded.
        """
        if student_id in (self.coursedir.student_id_exclude or "").split(","):
            return False
        dest = Path(self._format_dest(assignment_id, student_id))
        results = [dest / Path(path).name for path in self.notebooks]
        if self.force or not all(result.exists() for result in results):
            return True
        graded = datetime.fromtimestamp(min(result.stat().st_mtime for result in results), UTC).replace(tzinfo=None)
        if self.submitted[student_id].received > graded:
            return True
        self.log.info("Skipping existing assignment: %s", dest)
        return False

    def _grade_all(self, tasks: list[SubmissionTask], workers: int) -> list[str]:
        """Run the pool under a progress bar; returns the students that were not graded (ungradable or failed).

        Ctrl-C lets the submission being recorded finish, then stops the workers and says how to go on.
        """
        console = Console(stderr=True, soft_wrap=True)
        failed: list[str] = []
        chatter = self.log.level
        if chatter <= logging.INFO:
            self.log.setLevel(logging.WARNING)  # one result line per student replaces nbgrader's per-file INFO lines
        stop = threading.Event()
        previous = signal.signal(signal.SIGINT, lambda *_: stop.set())
        pool = self._pool(workers)
        columns = (TextColumn("autograding"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("ETA"),
                   TimeRemainingColumn())
        recorded, started, first, recording = 0, time.monotonic(), None, 0.0
        try:
            pool.start(len(tasks))  # the workers start their sandboxes and warm their checks while this process sets up
            self.recorders = [preprocessor(parent=self) for preprocessor in self.record_preprocessors]
            with Gradebook(self.coursedir.db_url, self.coursedir.course_id) as self.batch_gradebook, \
                    Progress(*columns, console=console) as progress:
                bar = progress.add_task("autograde", total=len(tasks))
                for task, graded in pool.results(tasks, stop):
                    if isinstance(graded, Lost):
                        graded = GradedSubmission(task.assignment, task.student, failure=graded.reason)
                    began = time.monotonic()
                    line = self._record_safely(graded)
                    recording += time.monotonic() - began
                    recorded += 1
                    if graded.failure or graded.ungradable:
                        failed.append(task.student)
                    progress.console.print(line, markup=False, highlight=False)
                    progress.advance(bar)
                    first = first or time.monotonic() - started
                progress.console.print(batch_line(recorded, time.monotonic() - started, first, recording), markup=False)
        except (WorkerRefused, ClusterUnavailable) as refused:
            self.log.error(str(refused))
            raise NbGraderException(str(refused)) from None
        finally:
            pool.close()
            signal.signal(signal.SIGINT, previous)
            self.log.setLevel(chatter)
        if stop.is_set():
            message = (f"Canceled after {recorded} of {len(tasks)} submissions; run `nbgrader autograde "
                       f"{self.coursedir.assignment_id}` again to grade the rest")
            self.log.error(message)
            raise NbGraderException(message)
        return failed

    def _local_grader(self) -> SubmissionGrader:
        """This worker process's grader, built on first use after the fork (never in the nbgrader process)."""
        if self.grader is None:
            self.grader = SubmissionGrader(self.setup)
        return self.grader

    def _pool(self, workers: int) -> Any:
        """The local pool of forked workers, or the Dask cluster c.Sandbox.cluster names."""
        if self.settings.cluster:
            from autograde.grading.cluster.dask_pool import (
                DaskPool,  # nothing of Dask is imported without a cluster
            )

            return DaskPool(self.settings.cluster, self.setup, self.settings.notebook_bytes)
        return GradingPool(lambda task: self._local_grader().grade(task), workers,
                           lambda: self._local_grader().prepare())

    def _record_safely(self, graded: GradedSubmission) -> str:
        """Record one submission; a failure costs only that submission. Returns its result line."""
        name = f"{for_terminal(graded.student_id)}/{graded.assignment_id}"
        if graded.ungradable:
            set_ungradable(graded.assignment_id, graded.student_id, graded.ungradable, Path(self.coursedir.root))
            return f"  UNGRADABLE {name}: {for_terminal(graded.ungradable)}"
        if graded.failure is None:
            try:
                return self._record(graded)
            except Exception as error:  # the gradebook or the disk refused: say so, go on with the others
                graded.failure = f"{type(error).__name__}: {error}"[:300]
        self.log.error("NOT GRADED %s: %s", name, graded.failure)
        return f"  NOT GRADED {name}: {for_terminal(graded.failure)}"

    def _record(self, graded: GradedSubmission) -> str:
        """Write the gradebook in one transaction, then vetoes.json, then the notebook (last: it marks the student done)."""
        assignment, student = graded.assignment_id, graded.student_id
        self.notebooks = [notebook.path for notebook in graded.notebooks]
        shutil.rmtree(self._format_dest(assignment, student), ignore_errors=True)  # the new result replaces the old
        self.run_pre_convert_hook()
        recorded = []
        with one_transaction(self.batch_gradebook):
            self.init_assignment(assignment, student)
            for result in graded.notebooks:
                notebook = result.notebook
                resources = dict(result.resources, outputs={})
                resources["autograde"] = dict(resources.get("autograde", {}), **{SHARED_KEY: self.batch_gradebook})
                for recorder in self.recorders:
                    notebook, resources = recorder(notebook, resources)
                recorded.append((notebook, resources, result.text))
        points, vetoes = [], []
        for notebook, resources, text in recorded:
            self._write(text, resources)
            points += [utils.determine_grade(cell)[0] or 0.0 for cell in notebook.cells
                       if utils.is_grade(cell) and cell.cell_type == "code"]
            vetoes += [f"{veto.id} ({cell})" for cell, found in resources["autograde"]["vetoes"].items() for veto in found]
        set_ungradable(assignment, student, None, Path(self.coursedir.root))
        self.set_permissions(assignment, student)
        self.run_post_convert_hook()
        shown = ", ".join(sorted(set(vetoes))) or "—"
        return f"  {for_terminal(student):<16} code {sum(points):g}/{len(points)}  veto candidates: {shown}  ({graded.seconds:.2f} s)"

    def init_assignment(self, assignment_id: str, student_id: str) -> None:
        """nbgrader's Autograde.init_assignment through the batch's gradebook, copying nothing the student sent.

        Creates the student (or refuses, without `create_student`), records the submission with the time it arrived
        on this disk (not the student's timestamp.txt), and puts the source's other files (not notebooks) in place.
        """
        gradebook = self.batch_gradebook
        if self.create_student:
            gradebook.update_or_create_student(student_id)
        else:
            gradebook.find_student(student_id)
        gradebook.update_or_create_submission(assignment_id, student_id, timestamp=self.submitted[student_id].received)
        source = Path(self.coursedir.format_path(self.coursedir.source_directory, ".", assignment_id))
        dest = Path(self._format_dest(assignment_id, student_id))
        for path in map(Path, utils.find_all_files(str(source), self.coursedir.ignore + ["*.ipynb"])):
            target = dest / path.relative_to(source)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, target)

    def _write(self, text: str, resources: dict[str, Any]) -> None:
        """Each extra output file, then the notebook, each written whole (temporary name, then rename)."""
        dest = Path(self._format_dest(resources["nbgrader"]["assignment"], resources["nbgrader"]["student"]))
        dest.mkdir(parents=True, exist_ok=True)
        files = [(dest / name, data) for name, data in resources.get("outputs", {}).items()]
        files.append((dest / (resources["unique_key"] + ".ipynb"), text.encode("utf-8")))
        for path, data in files:
            partial = path.with_name(f".{path.name}.partial")
            partial.write_bytes(data)
            os.replace(partial, path)
