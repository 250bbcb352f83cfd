"""Release the lesson's exercise code (with its `______` blanks) in place of nbgrader's stub."""
from __future__ import annotations

from nbconvert.exporters.exporter import ResourcesDict
from nbformat.notebooknode import NotebookNode
from nbgrader.preprocessors import ClearSolutions
from traitlets import Unicode


class ClearSolutionsToExercise(ClearSolutions):
    """ClearSolutions that swaps a solution cell for the exercise source stored in its metadata."""

    metadata_key = Unicode(
        "course", help="Cell metadata key whose `exercise_source` replaces the solution in the release."
    ).tag(config=True)

    def preprocess_cell(self, cell: NotebookNode, resources: ResourcesDict, cell_index: int) -> tuple[NotebookNode, ResourcesDict]:
        """Use the exercise source where one is given; nbgrader's behaviour everywhere else."""
        exercise = cell.metadata.get(self.metadata_key, {}).get("exercise_source")
        if exercise is None:
            return super().preprocess_cell(cell, resources, cell_index)
        cell.source = exercise
        del cell.metadata[self.metadata_key]
        cell.metadata["tags"] = [tag for tag in cell.metadata.get("tags", []) if tag != "solution"]
        return cell, resources
