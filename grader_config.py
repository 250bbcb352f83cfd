"""The nbgrader configuration for this course (loaded by nbgrader_config.py; nbgrader ignores --config FILE)."""
# ruff: noqa: F821  (`get_config` is provided by traitlets when nbgrader loads this file)
import os

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
    OverwriteKernelspec,
    SaveAutoGrades,
    SaveCells,
    AssignLatePenalties,
)
from nbconvert.preprocessors import ClearMetadataPreprocessor, CSSHTMLHeaderPreprocessor

from autograde.grading.preprocessors.check_submission import CheckSubmission
from autograde.grading.preprocessors.clear_solutions_to_exercise import ClearSolutionsToExercise
from autograde.grading.preprocessors.overwrite_cells_in_order import OverwriteCellsInOrder
from autograde.grading.preprocessors.record_vetoes import RecordVetoes
from autograde.grading.preprocessors.redact_test_errors import RedactTestErrors
from autograde.grading.preprocessors.resilient_execute import ResilientExecute
from autograde.results.ungradable import record_unreadable_notebooks

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

# Autograde. A notebook that is not JSON, or lacks the code cell, is recorded as ungradable with its reason
# (reports/lesson05/ungradable.json), never scored 0. A deleted test or answer cell is put back from the source.
c.BaseConverter.pre_convert_hook = record_unreadable_notebooks
c.Autograde.sanitize_preprocessors = [
    CheckSubmission,
    ClearOutput,
    DeduplicateIds,
    OverwriteKernelspec,
    OverwriteCellsInOrder,
    CheckCellMetadata,
]
c.OverwriteCells.add_missing_cells = True
# Each cell gets 10 s; a timeout interrupts it and records an error; a dead kernel is restarted. Then the
# veto checks run and write their findings as auto-comments and autograded/<student>/lesson05/vetoes.json.
c.Autograde.autograde_preprocessors = [
    ResilientExecute,
    IgnorePattern,
    ClearMetadataPreprocessor,
    LimitOutput,
    SaveAutoGrades,
    AssignLatePenalties,
    CheckCellMetadata,
    RecordVetoes,
]
c.Execute.timeout = 10
c.Execute.interrupt_on_timeout = True

# Feedback never shows hidden test code: test regions are cleared and their tracebacks cut to one line.
c.GenerateFeedback.preprocessors = [GetGrades, CSSHTMLHeaderPreprocessor, ClearHiddenTests, RedactTestErrors]
