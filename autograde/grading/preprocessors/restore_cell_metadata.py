"""Every cell's nbgrader metadata as the source notebook has it: students write answers, never grading metadata."""
from __future__ import annotations

from typing import Any

from nbconvert.exporters.exporter import ResourcesDict
from nbformat.notebooknode import NotebookNode
from nbgrader.preprocessors import NbGraderPreprocessor

from autograde.grading.source_snapshot import SourceSnapshot, source_snapshot

SCHEMA_VERSION = 3


def source_metadata(snapshot: SourceSnapshot, grade_id: str) -> dict[str, Any]:
    """The nbgrader metadata generate_assignment wrote for one source cell."""
    notebook = snapshot.find_notebook("", "")
    source = snapshot.cells[grade_id]
    graded = {cell.name for cell in notebook.grade_cells}
    tasks = {cell.name for cell in notebook.task_cells}
    metadata: dict[str, Any] = {
        "grade_id": grade_id, "cell_type": source.cell_type, "checksum": source.checksum, "locked": bool(source.locked),
        "grade": grade_id in graded, "solution": grade_id in {cell.name for cell in notebook.solution_cells},
        "schema_version": SCHEMA_VERSION,
    }
    if grade_id in tasks:
        metadata["task"] = True
    if grade_id in graded or grade_id in tasks:
        metadata["points"] = snapshot.graded[grade_id].max_score
    return metadata


class RestoreCellMetadata(NbGraderPreprocessor):
    """Runs after DeduplicateIds: a cell of the source gets the source's metadata back (a forged `grade: true` or
    changed points undone); any other nbgrader metadata (a student-made graded cell, or the empty metadata that
    DeduplicateIds leaves on a pasted copy) is removed, so the cell is ordinary and the submission is graded."""

    def preprocess(self, nb: NotebookNode, resources: ResourcesDict) -> tuple[NotebookNode, ResourcesDict]:
        """Put back or drop each cell's nbgrader metadata."""
        info = resources["nbgrader"]
        snapshot = source_snapshot(info["db_url"], info["assignment"], info["notebook"])
        for cell in nb.cells:
            if "nbgrader" not in cell.metadata:
                continue
            metadata = cell.metadata["nbgrader"]
            grade_id = metadata.get("grade_id") if isinstance(metadata, dict) else None
            if isinstance(grade_id, str) and grade_id in snapshot.cells:
                cell.metadata["nbgrader"] = source_metadata(snapshot, grade_id)
            else:
                del cell.metadata["nbgrader"]
        return nb, resources
