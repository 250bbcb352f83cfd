"""The source notebook as the gradebook stores it, read once per process: nbgrader's sanitizing asks for it cell by cell."""
from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace

from nbgrader.api import Gradebook, MissingEntry

CELL_COLUMNS = ("name", "cell_type", "locked", "checksum", "source", "max_score")


def _plain(cells: list, ) -> list[SimpleNamespace]:
    """Detached copies of ORM cells, with the columns nbgrader's preprocessors read."""
    return [SimpleNamespace(**{column: getattr(cell, column) for column in CELL_COLUMNS if hasattr(cell, column)})
            for cell in cells]


@dataclass(frozen=True)
class SourceSnapshot:
    """The read-only part of nbgrader's Gradebook API that OverwriteCells and OverwriteKernelspec use."""

    notebook: SimpleNamespace
    cells: dict[str, SimpleNamespace] = field(default_factory=dict)
    graded: dict[str, SimpleNamespace] = field(default_factory=dict)

    def find_notebook(self, notebook: str, assignment: str) -> SimpleNamespace:
        """The notebook: kernelspec and its source, grade, solution and task cells."""
        return self.notebook

    def find_source_cell(self, name: str, notebook: str, assignment: str) -> SimpleNamespace:
        """One source cell by grade id; MissingEntry as nbgrader raises it."""
        if name not in self.cells:
            raise MissingEntry()
        return self.cells[name]

    def find_graded_cell(self, name: str, notebook: str, assignment: str) -> SimpleNamespace:
        """One grade or task cell by grade id; MissingEntry as nbgrader raises it."""
        if name not in self.graded:
            raise MissingEntry()
        return self.graded[name]


SnapshotKey = tuple[str, str, str]
"""(db_url, assignment, notebook)."""
_snapshots: dict[SnapshotKey, SourceSnapshot] = {}


def remember_snapshots(snapshots: dict[SnapshotKey, SourceSnapshot]) -> None:
    """Give this process snapshots read elsewhere (a cluster worker cannot reach the instructor's gradebook)."""
    _snapshots.update(snapshots)


def source_snapshot(db_url: str, assignment: str, notebook: str) -> SourceSnapshot:
    """The snapshot of one notebook of an assignment, read once per process (generate_assignment does not run during
    a batch)."""
    key = (db_url, assignment, notebook)
    if key not in _snapshots:
        with Gradebook(db_url) as gradebook:
            stored = gradebook.find_notebook(notebook, assignment)
            kinds = ("source_cells", "grade_cells", "solution_cells", "task_cells")
            parts = {kind: _plain(getattr(stored, kind)) for kind in kinds}
            snapshot_notebook = SimpleNamespace(kernelspec=stored.kernelspec, **parts)
        _snapshots[key] = SourceSnapshot(snapshot_notebook, {cell.name: cell for cell in parts["source_cells"]},
                                         {cell.name: cell for cell in parts["grade_cells"] + parts["task_cells"]})
    return _snapshots[key]
