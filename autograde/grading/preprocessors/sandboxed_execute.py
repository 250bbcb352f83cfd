"""nbgrader's Execute step, run in the sandbox: cells run there, hidden tests only have their calls answered there."""
from __future__ import annotations

import copy

import nbformat
from nbconvert.exporters.exporter import ResourcesDict
from nbformat.notebooknode import NotebookNode
from nbgrader import utils
from nbgrader.preprocessors import (
    ClearHiddenTests,
    ClearMarkScheme,
    NbGraderPreprocessor,
)

from autograde.grading.execution import run_steps
from autograde.grading.hidden_tests import HiddenTest, load_hidden_tests
from autograde.grading.sandbox.job import CellStep, ProbeStep, Step
from autograde.grading.sandbox.settings import Sandbox
from autograde.grading.sandbox.worker import shared_worker
from autograde.untrusted.outputs import inert_outputs


def hidden_tests_of(assignment: str) -> dict[str, HiddenTest]:
    """The assignment's hidden tests by grade id; none for an assignment without a course spec."""
    try:
        return load_hidden_tests(assignment)
    except FileNotFoundError:
        return {}


def student_copy(nb: NotebookNode, resources: ResourcesDict) -> str:
    """The only file the sandbox sees: the notebook as the student submitted it (no hidden tests, no mark scheme)."""
    submitted = resources.get("autograde", {}).get("submitted_text")
    if submitted is not None:
        return submitted
    visible = copy.deepcopy(nb)
    for strip in (ClearHiddenTests(), ClearMarkScheme(enforce_metadata=False)):
        visible, _ = strip.preprocess(visible, {})
    return nbformat.writes(visible)


def cell_time_limit(cell: NotebookNode, settings: Sandbox) -> float:
    """A student's own cell gets the cell timeout; a locked cell of the assignment (the self-check) only waits on the
    student's code as long as a check does."""
    nbgrader = cell.metadata.get("nbgrader", {})
    ours = nbgrader.get("locked") and not nbgrader.get("solution")
    return min(settings.check_timeout, settings.cell_timeout) if ours else settings.cell_timeout


class SandboxedExecute(NbGraderPreprocessor):
    """Execute a submission in the sandbox; the hidden tests' answers go to resources, never to the kernel."""

    def preprocess(self, nb: NotebookNode, resources: ResourcesDict) -> tuple[NotebookNode, ResourcesDict]:
        """Run every code cell in order (hidden tests as probes) and store outputs and answers."""
        settings = Sandbox(parent=self)
        info = resources["nbgrader"]
        tests = hidden_tests_of(info["assignment"])
        steps: list[Step] = []
        cells: list[NotebookNode] = []
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "")
            test = tests.get(grade_id) if utils.is_grade(cell) else None
            steps.append(ProbeStep(test.calls, settings.cell_timeout, settings.check_timeout) if test
                         else CellStep(cell.source, cell_time_limit(cell, settings)))
            cells.append(cell)
        worker = shared_worker(settings, self.log)
        results = run_steps(worker, steps, {info["notebook"] + ".ipynb": student_copy(nb, resources)},
                            {"NBGRADER_EXECUTION": "autograde"}, settings.output_bytes, settings.submission_timeout)
        answers = resources.setdefault("autograde", {}).setdefault("answers", {})
        for cell, step, result in zip(cells, steps, results):
            if isinstance(step, ProbeStep):
                answers[cell.metadata["nbgrader"]["grade_id"]] = dict(zip(step.calls, result.answers))
                cell.outputs = []
            else:
                cell.outputs = inert_outputs(list(result.outputs))
            cell.execution_count = result.execution_count
        return nb, resources
