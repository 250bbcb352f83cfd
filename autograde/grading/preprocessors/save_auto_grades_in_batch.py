"""nbgrader's SaveAutoGrades, writing through the batch's open gradebook instead of a new one per notebook."""
from __future__ import annotations

from nbconvert.exporters.exporter import ResourcesDict
from nbformat.notebooknode import NotebookNode
from nbgrader.preprocessors import NbGraderPreprocessor, SaveAutoGrades

from autograde.grading.batch_gradebook import gradebook_in


class SaveAutoGradesInBatch(SaveAutoGrades):
    """Store each grade cell's autograded score and each answer's "No response." comment, as nbgrader does."""

    def preprocess(self, nb: NotebookNode, resources: ResourcesDict) -> tuple[NotebookNode, ResourcesDict]:
        """nbgrader's SaveAutoGrades.preprocess with the gradebook from gradebook_in."""
        info = resources["nbgrader"]
        self.notebook_id, self.assignment_id, self.student_id = info["notebook"], info["assignment"], info["student"]
        self.db_url = info["db_url"]
        with gradebook_in(resources) as self.gradebook:
            return NbGraderPreprocessor.preprocess(self, nb, resources)  # each cell through nbgrader's preprocess_cell
