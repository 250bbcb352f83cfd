"""OverwriteCells that restores deleted cells robustly (after any kind of cell, past unknown cells), from a snapshot."""
from __future__ import annotations

from typing import Any

from nbconvert.exporters.exporter import ResourcesDict
from nbformat.notebooknode import NotebookNode
from nbgrader.api import MissingEntry
from nbgrader.preprocessors import NbGraderPreprocessor, OverwriteCells

from autograde.grading.source_snapshot import source_snapshot

CLEARED_IN_RELEASE = ("### BEGIN HIDDEN TESTS", "### BEGIN MARK SCHEME")
"""Markers of cell regions the release removes, so those cells' release checksums always differ from the source's."""


class OverwriteCellsInOrder(OverwriteCells):
    """Re-adds a missing grade cell right after the nearest earlier source cell that is still present.

    nbgrader 0.9.6 only looks the previous source cell up among graded/solution cells, so a deleted
    answer that follows a read-only prose cell raises KeyError and the whole submission fails.
    The source cells come from a per-process snapshot instead of a gradebook query per cell.
    """

    def preprocess(self, nb: NotebookNode, resources: ResourcesDict) -> tuple[NotebookNode, ResourcesDict]:
        """nbgrader's OverwriteCells.preprocess, reading the source cells from the snapshot."""
        info = resources["nbgrader"]
        self.notebook_id, self.assignment_id, self.db_url = info["notebook"], info["assignment"], info["db_url"]
        self.gradebook = source_snapshot(self.db_url, self.assignment_id, self.notebook_id)
        nb, resources = NbGraderPreprocessor.preprocess(self, nb, resources)  # each cell through preprocess_cell
        if self.add_missing_cells:
            nb, resources = self.add_missing_grade_cells(nb, resources)
            nb, resources = self.add_missing_task_cells(nb, resources)
        return nb, resources

    def preprocess_cell(self, cell: NotebookNode, resources: ResourcesDict, cell_index: int) -> tuple[NotebookNode, ResourcesDict]:
        """nbgrader's, after putting back points a student made unreadable (nbgrader's float() would fail the submission)."""
        nbgrader = cell.metadata.get("nbgrader", {})
        if nbgrader.get("grade") and not _is_number(nbgrader.get("points")):
            try:
                source = self.gradebook.find_graded_cell(nbgrader.get("grade_id"), self.notebook_id, self.assignment_id)
            except MissingEntry:
                pass  # not a cell of the source: CheckCellMetadata refuses the notebook with its one-line reason
            else:
                self.report_change(source.name, "points", source.max_score, nbgrader.get("points"))
                nbgrader["points"] = source.max_score
        return super().preprocess_cell(cell, resources, cell_index)

    def add_missing_grade_cells(self, nb: NotebookNode, resources: ResourcesDict) -> tuple[NotebookNode, ResourcesDict]:
        """Insert each missing grade cell after its nearest present predecessor in the source notebook."""
        source_nb = self.gradebook.find_notebook(self.notebook_id, self.assignment_id)
        source_ids = [cell.name for cell in source_nb.source_cells]
        source_by_id = {cell.name: cell for cell in source_nb.source_cells}
        solution_ids = {cell.name for cell in source_nb.solution_cells}
        for grade_cell in source_nb.grade_cells:
            present = [cell.metadata.get("nbgrader", {}).get("grade_id") for cell in nb.cells]
            if grade_cell.name in present:
                continue
            self.log.warning("Missing grade cell %s encountered, adding it back from the source notebook", grade_cell.name)
            restored = self.missing_cell_transform(source_by_id[grade_cell.name], grade_cell.max_score,
                                                   is_solution=grade_cell.name in solution_ids)
            earlier = source_ids[:source_ids.index(grade_cell.name)]
            anchors = [present.index(name) for name in reversed(earlier) if name in present]
            nb.cells.insert(anchors[0] + 1 if anchors else 0, restored)
        return nb, resources

    def missing_cell_transform(self, source_cell: Any, max_score: float, is_solution: bool = False,
                               is_task: bool = False) -> NotebookNode:
        """nbgrader's restored cell, with the cell id nbformat 4.5 requires (derived from its grade id)."""
        cell = super().missing_cell_transform(source_cell, max_score, is_solution=is_solution, is_task=is_task)
        cell.setdefault("id", source_cell.name.replace("_", "-"))
        return cell

    def report_change(self, name: str, attr: str, old: Any, new: Any) -> None:
        """nbgrader's warning, except the checksum of a cell whose hidden tests or mark scheme the release removed."""
        if attr == "checksum" and name in self._cleared_cells():
            return
        super().report_change(name, attr, old, new)

    def _cleared_cells(self) -> set[str]:
        """Grade ids of source cells with a region the release removes."""
        source_nb = self.gradebook.find_notebook(self.notebook_id, self.assignment_id)
        return {cell.name for cell in source_nb.source_cells if any(mark in cell.source for mark in CLEARED_IN_RELEASE)}

    def add_missing_task_cells(self, nb: NotebookNode, resources: ResourcesDict) -> tuple[NotebookNode, ResourcesDict]:
        """nbgrader's version, minus its KeyError on cells whose unknown grade_id it has just removed.

        A submission made from an older release has such cells; they must not fail the whole submission.
        """
        source_nb = self.gradebook.find_notebook(self.notebook_id, self.assignment_id)
        source_by_id = {cell.name: cell for cell in source_nb.source_cells}
        present = {cell.metadata.get("nbgrader", {}).get("grade_id") for cell in nb.cells}
        for task_cell in source_nb.task_cells:
            if task_cell.name not in present:
                nb.cells.append(self.missing_cell_transform(source_by_id[task_cell.name], task_cell.max_score, is_task=True))
        return nb, resources


def _is_number(value: Any) -> bool:
    """Whether nbgrader can read `value` as a cell's points."""
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return True
