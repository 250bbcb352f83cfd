"""nbgrader's AssignLatePenalties, writing through the batch's open gradebook instead of a new one per notebook."""
from __future__ import annotations

from nbconvert.exporters.exporter import ResourcesDict
from nbformat.notebooknode import NotebookNode
from nbgrader.preprocessors import AssignLatePenalties

from autograde.grading.batch_gradebook import gradebook_in


class AssignLatePenaltiesInBatch(AssignLatePenalties):
    """Apply the late-submission plugin's penalty to the notebook's score, as nbgrader does."""

    def preprocess(self, nb: NotebookNode, resources: ResourcesDict) -> tuple[NotebookNode, ResourcesDict]:
        """nbgrader's AssignLatePenalties.preprocess with the gradebook from gradebook_in."""
        info = resources["nbgrader"]
        self.notebook_id, self.assignment_id, self.student_id = info["notebook"], info["assignment"], info["student"]
        self.db_url = info["db_url"]
        self.init_plugin()
        with gradebook_in(resources) as self.gradebook:
            assignment = self.gradebook.find_submission(self.assignment_id, self.student_id)
            notebook = self.gradebook.find_submission_notebook(self.notebook_id, self.assignment_id, self.student_id)
            notebook.late_submission_penalty = None
            if assignment.total_seconds_late > 0:
                self.log.warning("%s is %s seconds late", assignment, assignment.total_seconds_late)
                penalty = self.plugin_inst.late_submission_penalty(self.student_id, notebook.score,
                                                                   assignment.total_seconds_late)
                self.log.warning("Late submission penalty: %s", penalty)
                if penalty is not None:
                    notebook.late_submission_penalty = self._check_late_penalty(notebook, penalty)
            self.gradebook.db.commit()
        return nb, resources
