"""The nbgrader configuration for this course (loaded by nbgrader_config.py; nbgrader ignores --config FILE)."""
# ruff: noqa: F821  (`get_config` is provided by traitlets when nbgrader loads this file)
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

from autograde.preprocessors.clear_solutions_to_exercise import ClearSolutionsToExercise

c = get_config()

c.CourseDirectory.course_id = "dist-training-lesson05"
c.CourseDirectory.db_assignments = [{"name": "lesson05"}]

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

# Autograde: each cell gets 10 s; a timeout interrupts the cell, records an error and moves on.
c.Execute.timeout = 10
c.Execute.interrupt_on_timeout = True
c.Execute.allow_errors = True
# A deleted test or answer cell is put back from the source notebook, so it is graded, not silently missing.
c.OverwriteCells.add_missing_cells = True

# Feedback never shows hidden test code: test regions are cleared and their tracebacks cut to one line.
c.GenerateFeedback.preprocessors = [GetGrades, CSSHTMLHeaderPreprocessor, ClearHiddenTests]
