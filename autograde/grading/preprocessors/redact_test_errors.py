"""Cut hidden-test tracebacks in feedback to their last line, so no test code reaches students."""
from __future__ import annotations

from nbconvert.exporters.exporter import ResourcesDict
from nbformat.notebooknode import NotebookNode
from nbgrader import utils
from nbgrader.preprocessors import NbGraderPreprocessor

REDACTED = "（隐藏测试的代码与调用栈不在反馈中显示）"


class RedactTestErrors(NbGraderPreprocessor):
    """Replace each error traceback in a graded test cell with `Error: message`."""

    def preprocess_cell(self, cell: NotebookNode, resources: ResourcesDict, cell_index: int) -> tuple[NotebookNode, ResourcesDict]:
        """Keep the error name and message of test cells; drop the frames that quote test code."""
        if cell.cell_type == "code" and utils.is_grade(cell):
            for output in cell.outputs:
                if output.output_type == "error":
                    output.traceback = [f"{output.ename}: {output.evalue}", REDACTED]
        return cell, resources
