"""Run the veto checks on a submission: the code's behaviour (answered in the sandbox), each free-text answer here."""
from __future__ import annotations

from nbconvert.exporters.exporter import ResourcesDict
from nbformat.notebooknode import NotebookNode
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import List, Unicode

from autograde.grading.calls import Call
from autograde.grading.isolated_calls import call_isolated
from autograde.grading.sandbox.settings import Sandbox


class FindVetoes(NbGraderPreprocessor):
    """Collect veto findings per cell into resources["autograde"]["vetoes"]; RecordVetoes writes them down."""

    code_cell = Unicode("zero_code", help="grade_id of the cell whose functions the code checks call").tag(config=True)
    answer_cells = List(Unicode(), default_value=["q1", "q2", "q3"],
                        help="grade_ids of free-text answers checked for veto claims").tag(config=True)

    def preprocess(self, nb: NotebookNode, resources: ResourcesDict) -> tuple[NotebookNode, ResourcesDict]:
        """Check the code cell alone in a fresh sandboxed process, and every answer cell's text."""
        from autograde.veto.code import find_code_vetoes  # imported here: generate_assignment need not load the checkers
        from autograde.veto.text import find_vetoes

        findings = resources.setdefault("autograde", {}).setdefault("vetoes", {})
        for cell in nb.cells:
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
            if grade_id == self.code_cell:
                findings[grade_id] = find_code_vetoes(cell.source, self._answers(cell.source, resources))
            elif grade_id in self.answer_cells:
                findings[grade_id] = find_vetoes(cell.source, question=grade_id)
        return nb, resources

    def _answers(self, source: str, resources: ResourcesDict) -> dict[Call, float | int | None]:
        """The probe answers SandboxedExecute got right after the code cell ran, or (run alone) from a fresh sandbox."""
        from autograde.veto.code import PROBE_CALLS

        given = resources.get("autograde", {}).get("probes", {}).get(self.code_cell)
        if given is not None:
            return {call: answer.number for call, answer in given.items()}
        return dict(zip(PROBE_CALLS, call_isolated(source, PROBE_CALLS, Sandbox(parent=self), self.log)))
