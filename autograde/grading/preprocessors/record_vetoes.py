"""Run the veto checks on a submission; show findings as auto-comments and write vetoes.json beside it."""
from __future__ import annotations

import json

from nbconvert.exporters.exporter import ResourcesDict
from nbformat.notebooknode import NotebookNode
from nbgrader.api import Gradebook
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Float, List, Unicode

from autograde.veto.finding import CATALOGUE, Veto


VETOES_FILE = "vetoes.json"
"""Default name of the findings file written beside each autograded notebook."""


def comment_text(vetoes: list[Veto]) -> str:
    """The auto-comment a grader reads in formgrader: one line per veto, with its evidence."""
    return "\n".join(f"⚠ 一票否决候选 [{v.id}] {CATALOGUE[v.id]['zh']} — 证据：{v.evidence}" for v in vetoes)


class RecordVetoes(NbGraderPreprocessor):
    """Check the code cell's behaviour and each free-text answer for the lesson's veto misconceptions."""

    code_cell = Unicode("zero_code", help="grade_id of the cell whose functions the code checks run").tag(config=True)
    answer_cells = List(Unicode(), default_value=["q1", "q2", "q3"],
                        help="grade_ids of free-text answers checked for veto claims").tag(config=True)
    code_timeout = Float(10.0, help="seconds the isolated run of the student's functions may take").tag(config=True)
    output_name = Unicode(VETOES_FILE, help="file written beside the autograded notebook").tag(config=True)

    def preprocess(self, nb: NotebookNode, resources: ResourcesDict) -> tuple[NotebookNode, ResourcesDict]:
        """Collect findings per cell, store them as auto-comments and as a JSON file."""
        from autograde.veto.code import PROBE_CALLS, find_code_vetoes  # imported here: generate_assignment need not load the checkers
        from autograde.veto.probe import call_submission
        from autograde.veto.text import find_vetoes

        info = resources["nbgrader"]
        findings: dict[str, list[Veto]] = {}
        for cell in nb.cells:
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
            if grade_id == self.code_cell:
                answers = dict(zip(PROBE_CALLS, call_submission(cell.source, PROBE_CALLS, self.code_timeout)))
                findings[grade_id] = find_code_vetoes(cell.source, answers)
            elif grade_id in self.answer_cells:
                findings[grade_id] = find_vetoes(cell.source, question=grade_id)
        with Gradebook(info["db_url"]) as gradebook:
            for grade_id, vetoes in findings.items():
                comment = gradebook.find_comment(grade_id, info["notebook"], info["assignment"], info["student"])
                kept = [line for line in (comment.auto_comment or "").splitlines() if not line.startswith("⚠ 一票否决候选")]
                comment.auto_comment = "\n".join(kept + [comment_text(vetoes)]).strip() or None
            gradebook.db.commit()
        record = {
            "student": info["student"],
            "assignment": info["assignment"],
            "vetoes": [dict(v.to_dict(), cell=grade_id) for grade_id, vetoes in findings.items() for v in vetoes],
        }
        for grade_id, vetoes in findings.items():
            for veto in vetoes:
                self.log.warning("veto %s in %s for %s: %s", veto.id, grade_id, info["student"], veto.evidence)
        resources.setdefault("outputs", {})[self.output_name] = (
            json.dumps(record, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
        return nb, resources
