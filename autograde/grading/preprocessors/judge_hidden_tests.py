"""Decide each hidden test outside the student's process and show its verdict as the cell's one output."""
from __future__ import annotations

import nbformat
from nbconvert.exporters.exporter import ResourcesDict
from nbformat.notebooknode import NotebookNode
from nbgrader.preprocessors import NbGraderPreprocessor

from autograde.grading.hidden_tests import load_hidden_tests


class JudgeHiddenTests(NbGraderPreprocessor):
    """A passed test shows one ✓ line; a failed one an AssertionError with its first failing check (nbgrader scores it 0)."""

    def preprocess(self, nb: NotebookNode, resources: ResourcesDict) -> tuple[NotebookNode, ResourcesDict]:
        """Judge the answers SandboxedExecute collected for each hidden test cell."""
        answers = resources.get("autograde", {}).get("answers", {})
        if not answers:
            return nb, resources
        tests = load_hidden_tests(resources["nbgrader"]["assignment"])
        for cell in nb.cells:
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
            if grade_id in answers:
                verdict = tests[grade_id].judge(answers[grade_id])
                cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=f"✓ {verdict.line}\n")] if verdict.passed else [
                    nbformat.v4.new_output("error", ename="AssertionError", evalue=verdict.line,
                                           traceback=[f"AssertionError: {verdict.line}"])]
        return nb, resources
