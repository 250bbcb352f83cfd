"""Lay the graded notebook out for a grader: lesson prose folded, veto candidates beside each checked cell."""
from __future__ import annotations

from nbconvert.exporters.exporter import ResourcesDict
from nbformat.notebooknode import NotebookNode
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Dict, Integer, List, Unicode

from autograde.building.grading_view import (
    bounded_sources,
    fold_lesson_prose,
    submission_notes,
    with_veto_notes,
    without_mark_scheme_lines,
)


class LayOutForGrading(NbGraderPreprocessor):
    """Runs after FindVetoes in each worker; nbgrader's own cells keep their ids and metadata, only prose is folded."""

    lesson_says = Dict(value_trait=List(Unicode()), default_value={}, help=(
        "veto id -> sentences quoted from the lesson that a candidate contradicts, shown beside the evidence")
    ).tag(config=True)
    code_chars = Integer(20_000, help="Longest code cell shown whole on grading and feedback pages; longer ones are cut "
                         "with a note (the lesson's code cell is about 3 000 characters)").tag(config=True)
    markdown_chars = Integer(50_000, help="Longest markdown cell (an answer) shown whole on grading and feedback pages"
                             ).tag(config=True)

    def preprocess(self, nb: NotebookNode, resources: ResourcesDict) -> tuple[NotebookNode, ResourcesDict]:
        """Fold each run of lesson prose, drop mark-scheme marker lines, add a veto note after each checked cell."""
        findings = resources.get("autograde", {}).get("vetoes", {})
        cells = fold_lesson_prose(without_mark_scheme_lines(bounded_sources(nb.cells, self.code_chars, self.markdown_chars)))
        notes = resources.get("autograde", {}).get("notes", [])
        nb.cells = ([submission_notes(notes)] if notes else []) + with_veto_notes(cells, findings, self.lesson_says)
        return nb, resources
