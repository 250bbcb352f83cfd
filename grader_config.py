"""The nbgrader configuration for this course (loaded by nbgrader_config.py; nbgrader ignores --config FILE)."""
# ruff: noqa: F821  (`get_config` is provided by traitlets when nbgrader loads this file)
import os

import nbgrader
from nbconvert.preprocessors import ClearMetadataPreprocessor, CSSHTMLHeaderPreprocessor, TagRemovePreprocessor
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

from autograde.building.grading_view import NOTE_TAG
from autograde.building.offline_math import NOTEBOOK_TEMPLATES
from autograde.grading.install import use_parallel_autograde
from autograde.grading.preprocessors.assign_late_penalties_in_batch import AssignLatePenaltiesInBatch
from autograde.grading.preprocessors.check_cell_metadata import CheckCellMetadataQuickly
from autograde.grading.preprocessors.check_submission import CheckSubmission
from autograde.grading.preprocessors.clear_solutions_to_exercise import ClearSolutionsToExercise
from autograde.grading.preprocessors.find_vetoes import FindVetoes
from autograde.grading.preprocessors.judge_hidden_tests import JudgeHiddenTests
from autograde.grading.preprocessors.lay_out_for_grading import LayOutForGrading
from autograde.grading.preprocessors.overwrite_cells_in_order import OverwriteCellsInOrder
from autograde.grading.preprocessors.overwrite_kernelspec_from_snapshot import OverwriteKernelspecFromSnapshot
from autograde.grading.preprocessors.record_vetoes import RecordVetoes
from autograde.grading.preprocessors.restore_cell_metadata import RestoreCellMetadata
from autograde.grading.preprocessors.sandboxed_execute import SandboxedExecute
from autograde.grading.preprocessors.save_auto_grades_in_batch import SaveAutoGradesInBatch

c = get_config()

c.CourseDirectory.course_id = "dist-training-lesson05"
# The gradebook (also read by our report and demo): nbgrader's SQLite gradebook.db in the course root, or the database
# NBGRADER_DB_URL names, e.g. PostgreSQL for several graders at once; the environment keeps passwords out of the repo.
if os.environ.get("NBGRADER_DB_URL"):
    c.CourseDirectory.db_url = os.environ["NBGRADER_DB_URL"]
# nbgrader's own list, plus vetoes.json: the veto candidates are for graders, and generate_feedback would otherwise
# copy them from autograded/ into every student's feedback folder.
c.CourseDirectory.ignore = [".ipynb_checkpoints", "*.pyc", "__pycache__", "feedback", "vetoes.json"]
# `nbgrader export`: nbgrader's columns, written so a spreadsheet reads every cell as data (quoted, formulas escaped)
c.ExportApp.plugin_class = "autograde.results.csv_export.SpreadsheetSafeCsvExport"
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
    RestoreCellMetadata,  # grading metadata as the source has it: forged flags and points undone, pasted copies plain
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
    LayOutForGrading,  # lesson prose folded; each answer followed by its veto candidates (after the checks read it)
]
# the veto checks read student code and text in a forked child under these limits (a bomb costs only its own checks)
c.FindVetoes.memory_bytes = 1024**3
c.FindVetoes.seconds = 20.0
c.ParallelAutograde.record_preprocessors = [SaveAutoGradesInBatch, AssignLatePenaltiesInBatch, RecordVetoes]
# What the lesson says against each veto, quoted word for word from lessons/lesson05.qmd (tests check the quotes)
c.LayOutForGrading.lesson_says = {
    "wrong-shard-target": [r"优化器的动量和方差以及 FP32 Master 权重按 $1/N_d$ 均分到各 Rank。",
                           r"在 ZeRO-1 的基础上，进一步将梯度切片。", r"连前向与反向所需的模型参数本身也彻底分片！"],
    "activations-sharded": [r"每个 DP 节点处理的是互不重叠的 Micro-Batch 数据。", r"它们之间**没有任何冗余**可供消除！"],
    "wrong-comm-volume": [r"ZeRO-1 与 ZeRO-2 的总通信量与朴素 DDP **完全一致**！",
                          r"ZeRO-3 的通信量相比 DDP / ZeRO-2 增加了 **50%（从 $2\Psi$ 升至 $3\Psi$）**。"],
    "unbounded-scaling": [r"当 $N_d \to \infty$ 时，静态模型显存理论上趋近于 0（实际受限于单层参数峰值）。",
                          r"在 ZeRO-3 消除模型静态状态后，显存瓶颈将**完全转移至激活显存**。"],
}

# Formgrader and feedback pages: math typeset by the course's KaTeX, inlined (nbconvert's macro loads MathJax from a
# CDN, and formgrader's script stops when it never arrives); our template folder comes before nbgrader's own.
c.HTMLExporter.extra_template_basedirs = [
    str(NOTEBOOK_TEMPLATES),
    os.path.join(os.path.dirname(nbgrader.__file__), "server_extensions", "formgrader", "templates"),
]
c.HTMLExporter.filters = {
    "offline_math": "autograde.building.offline_math.offline_math",
    "page_policy": "autograde.building.offline_math.page_policy",
    # student markdown and HTML outputs are cleaned by an allow-list before the page shows them (nbconvert's own
    # markdown2html passes raw HTML through); sanitize_html also drops JavaScript and widget outputs
    "markdown2html": "autograde.untrusted.html.markdown2html",
    "clean_html": "autograde.untrusted.html.clean_markdown_html",
}
c.HTMLExporter.sanitize_html = True

# The sandbox (README: "What the sandbox guarantees"). Every limit applies to each submission on its own.
c.Sandbox.memory_bytes = 2 * 1024**3      # address space of each process the submission starts
c.Sandbox.max_processes = 64              # processes at once; more kills that submission's run
c.Sandbox.cpu_seconds = 60                # CPU seconds per process
c.Sandbox.file_bytes = 64 * 1024**2       # largest file it may write
c.Sandbox.scratch_bytes = 256 * 1024**2   # its private /tmp + HOME + submission folder + /dev/shm together
c.Sandbox.output_bytes = 64 * 1024        # output kept per cell
c.Sandbox.cell_timeout = 10               # seconds per cell and per hidden test
c.Sandbox.submission_timeout = 120        # seconds for all of one submission
c.Sandbox.workers = 0                     # submissions at once; 0 = one per CPU core (+1 beside a slow one, up to 3/core)
c.Sandbox.notebook_bytes = 32 * 1024**2  # largest submitted notebook read; bigger ones, and links, are ungradable
c.Sandbox.allow_unsandboxed = False       # True only on a throwaway machine without bubblewrap

# Feedback never shows hidden test code: test regions are cleared; test cells only ever hold a one-line verdict.
# The grader's veto notes stay out of it (config scoped to feedback's exporter: formgrader shows them): a student
# reads the grader's comment, not an undecided candidate.
c.GenerateFeedback.preprocessors = [GetGrades, CSSHTMLHeaderPreprocessor, ClearHiddenTests, TagRemovePreprocessor]
c.GenerateFeedback.HTMLExporter.TagRemovePreprocessor.remove_cell_tags = {NOTE_TAG}
