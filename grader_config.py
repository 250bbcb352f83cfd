"""The nbgrader configuration for this course (loaded by nbgrader_config.py; nbgrader ignores --config FILE)."""
# ruff: noqa: F821  (`get_config` is provided by traitlets when nbgrader loads this file)
import os

from nbconvert.preprocessors import ClearMetadataPreprocessor, CSSHTMLHeaderPreprocessor
from nbgrader.preprocessors import (
    CheckCellMetadata,
    ClearHiddenTests,
    ClearMarkScheme,
    ClearOutput,
    ComputeChecksums,
    DeduplicateIds,
    GetGrades,
    IgnorePattern,
    IncludeHeaderFooter,
    InstantiateTests,
    LimitOutput,
    LockCells,
    SaveCells,
)

from autograde.grading.install import use_parallel_autograde
from autograde.grading.preprocessors.assign_late_penalties_in_batch import AssignLatePenaltiesInBatch
from autograde.grading.preprocessors.check_cell_metadata import CheckCellMetadataQuickly
from autograde.grading.preprocessors.check_submission import CheckSubmission
from autograde.grading.preprocessors.clear_solutions_to_exercise import ClearSolutionsToExercise
from autograde.grading.preprocessors.find_vetoes import FindVetoes
from autograde.grading.preprocessors.judge_hidden_tests import JudgeHiddenTests
from autograde.grading.preprocessors.overwrite_cells_in_order import OverwriteCellsInOrder
from autograde.grading.preprocessors.overwrite_kernelspec_from_snapshot import OverwriteKernelspecFromSnapshot
from autograde.grading.preprocessors.record_vetoes import RecordVetoes
from autograde.grading.preprocessors.sandboxed_execute import SandboxedExecute
from autograde.grading.preprocessors.save_auto_grades_in_batch import SaveAutoGradesInBatch

c = get_config()

c.CourseDirectory.course_id = "dist-training-lesson05"
# The gradebook (also read by our report and demo): nbgrader's SQLite gradebook.db in the course root, or the database
# NBGRADER_DB_URL names, e.g. PostgreSQL for several graders at once; the environment keeps passwords out of the repo.
if os.environ.get("NBGRADER_DB_URL"):
    c.CourseDirectory.db_url = os.environ["NBGRADER_DB_URL"]
# `nbgrader autograde lesson05` adds students it has not seen (no --create needed).
c.Autograde.create_student = True

# Release: the exercise keeps the lesson's five `______` blanks instead of nbgrader's NotImplementedError stub.
# The list is nbgrader 0.9.6's own, with ClearSolutions swapped; rubric cells are locked, not task cells.
c.GenerateAssignment.preprocessors = [
    IncludeHeaderFooter,
    InstantiateTests,
    LockCells,
    ClearSolutionsToExercise,
    ClearOutput,
    CheckCellMetadata,
    ComputeChecksums,
    SaveCells,
    ClearHiddenTests,
    ClearMarkScheme,
    ComputeChecksums,
    CheckCellMetadata,
]
c.ClearMarkScheme.enforce_metadata = False

# Autograde runs in parallel worker processes, each with its own sandbox (autograde/grading/parallel_autograde.py).
# Workers: sanitize (a notebook that lacks the code cell is recorded as ungradable, never scored 0; a deleted
# test or answer cell is put back from the source), then run the cells in the sandbox, judge the hidden tests
# outside it, and check for vetoes. Only this process writes the gradebook, autograded/ and vetoes.json.
use_parallel_autograde()
c.Autograde.sanitize_preprocessors = [
    CheckSubmission,
    ClearOutput,
    DeduplicateIds,
    OverwriteKernelspecFromSnapshot,
    OverwriteCellsInOrder,
    CheckCellMetadataQuickly,
]
c.OverwriteCells.add_missing_cells = True
c.Autograde.autograde_preprocessors = [
    SandboxedExecute,
    JudgeHiddenTests,
    ClearHiddenTests,  # the graded notebook shows each test's verdict, not the call behind it
    IgnorePattern,
    ClearMetadataPreprocessor,
    LimitOutput,
    FindVetoes,
]
# the code vetoes' probes are answered in the same sandboxed run, right after the code cell (no second run)
c.SandboxedExecute.probes_after = {"zero_code": "autograde.veto.code:PROBE_CALLS"}
c.ParallelAutograde.record_preprocessors = [SaveAutoGradesInBatch, AssignLatePenaltiesInBatch, RecordVetoes]

# The sandbox (README: "What the sandbox guarantees"). Every limit applies to each submission on its own.
c.Sandbox.memory_bytes = 2 * 1024**3      # address space of each process the submission starts
c.Sandbox.max_processes = 64              # processes at once; more kills that submission's run
c.Sandbox.cpu_seconds = 60                # CPU seconds per process
c.Sandbox.file_bytes = 64 * 1024**2       # largest file it may write
c.Sandbox.scratch_bytes = 256 * 1024**2   # its private /tmp + HOME + submission folder + /dev/shm together
c.Sandbox.output_bytes = 64 * 1024        # output kept per cell
c.Sandbox.cell_timeout = 10               # seconds per cell and per hidden test
c.Sandbox.submission_timeout = 120        # seconds for all of one submission
c.Sandbox.workers = 0                     # submissions at once; 0 = two per CPU core
c.Sandbox.allow_unsandboxed = False       # True only on a throwaway machine without bubblewrap

# Feedback never shows hidden test code: test regions are cleared; test cells only ever hold a one-line verdict.
c.GenerateFeedback.preprocessors = [GetGrades, CSSHTMLHeaderPreprocessor, ClearHiddenTests]
