"""Write the veto findings down: auto-comments a grader sees in formgrader, and vetoes.json beside the notebook."""
from __future__ import annotations

import json

from nbconvert.exporters.exporter import ResourcesDict
from nbformat.notebooknode import NotebookNode
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Unicode

from autograde.grading.batch_gradebook import gradebook_in
from autograde.veto.finding import CATALOGUE, Veto

VETOES_FILE = "vetoes.json"
"""Default name of the findings file written beside each autograded notebook."""
COMMENT_MARK = "⚠ 一票否决候选"


def comment_text(vetoes: list[Veto]) -> str:
    """The auto-comment a grader reads in formgrader: one line per veto, with its evidence."""
    return "\n".join(f"{COMMENT_MARK} [{v.id}] {CATALOGUE[v.id]['zh']} — 证据：{v.evidence}" for v in vetoes)


class RecordVetoes(NbGraderPreprocessor):
    """Store what FindVetoes found as auto-comments and as a JSON file; run by the trusted parent only."""

    output_name = Unicode(VETOES_FILE, help="file written beside the autograded notebook").tag(config=True)

    def preprocess(self, nb: NotebookNode, resources: ResourcesDict) -> tuple[NotebookNode, ResourcesDict]:
        """Replace earlier veto lines in each checked cell's auto-comment; add vetoes.json to the outputs."""
        info = resources["nbgrader"]
        findings: dict[str, list[Veto]] = resources.get("autograde", {}).get("vetoes", {})
        with gradebook_in(resources) as gradebook:
            for grade_id, vetoes in findings.items():
                comment = gradebook.find_comment(grade_id, info["notebook"], info["assignment"], info["student"])
                kept = [line for line in (comment.auto_comment or "").splitlines() if not line.startswith(COMMENT_MARK)]
                comment.auto_comment = "\n".join(kept + [comment_text(vetoes)]).strip() or None
            gradebook.db.commit()
        record = {
            "student": info["student"],
            "assignment": info["assignment"],
            "vetoes": [dict(v.to_dict(), cell=grade_id) for grade_id, vetoes in findings.items() for v in vetoes],
            "notes": list(resources.get("autograde", {}).get("notes", [])),
        }
        resources.setdefault("outputs", {})[self.output_name] = (
            json.dumps(record, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
        return nb, resources
