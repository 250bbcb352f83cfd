"""Refuse to grade a submission that lacks a required cell: it is recorded as ungradable, never scored a silent 0."""
from __future__ import annotations

from nbconvert.exporters.exporter import ResourcesDict
from nbformat.notebooknode import NotebookNode
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import List, Unicode

MISSING_CELL = "{notebook}: cell '{grade_id}' is missing; ask the student to re-fetch the release notebook and copy their work into it"


class UngradableSubmission(Exception):
    """A submission that cannot be graded fairly."""


class CheckSubmission(NbGraderPreprocessor):
    """Stop grading (and record why) when a required answer cell is gone."""

    required_cells = List(Unicode(), default_value=["zero_code"],
                          help="grade_ids that must be present; a submission without one is ungradable").tag(config=True)

    def preprocess(self, nb: NotebookNode, resources: ResourcesDict) -> tuple[NotebookNode, ResourcesDict]:
        """Raise UngradableSubmission, with the reason to record, if a required cell is missing."""
        present = {cell.metadata.get("nbgrader", {}).get("grade_id") for cell in nb.cells}
        info = resources["nbgrader"]
        for grade_id in self.required_cells:
            if grade_id not in present:
                raise UngradableSubmission(MISSING_CELL.format(notebook=info["notebook"] + ".ipynb", grade_id=grade_id))
        return nb, resources
