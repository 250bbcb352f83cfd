"""The notebook as SandboxedExecute runs it: cells and hidden tests in order, outputs kept only in inert forms."""
from __future__ import annotations

import json
import shutil

import nbformat
import pytest

from autograde.grading.hidden_tests import load_hidden_tests
from autograde.grading.preprocessors.sandboxed_execute import SandboxedExecute
from autograde.veto.code import PROBE_CALLS

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed (make test installs it as root)")

SHOWS_EVERYTHING = """\
from IPython.display import HTML, Javascript, Markdown, SVG, display
display(HTML("<table><tr><td onclick=x>1</td></tr></table><script>alert(1)</script>"))
display(Javascript("alert(2)"))
display(Markdown("<img src=x onerror=alert(3)>"))
display(SVG('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(4)"></svg>'))

class Page:
    def _repr_html_(self):
        return "<b onmouseover=alert(5)>page</b>"

Page()
"""


def graded_cell(source: str, grade_id: str, grade: bool) -> nbformat.NotebookNode:
    """A code cell with the nbgrader metadata of a solution (grade False) or a hidden test (grade True) cell."""
    cell = nbformat.v4.new_code_cell(source)
    cell.metadata["nbgrader"] = {"grade_id": grade_id, "grade": grade, "solution": not grade, "locked": grade,
                                 "schema_version": 3, **({"points": 1} if grade else {})}
    return cell


@pytest.fixture(scope="module")
def executed() -> tuple[nbformat.NotebookNode, dict]:
    """A notebook that displays every kind of active output, then a hidden test, run by the course's executor."""
    nb = nbformat.v4.new_notebook(cells=[graded_cell(SHOWS_EVERYTHING, "zero_code", False),
                                         graded_cell("# hidden test", "test_communication", True)])
    resources = {"nbgrader": {"assignment": "lesson05", "notebook": "lesson05"}, "unique_key": "lesson05"}
    return SandboxedExecute().preprocess(nb, resources)


def test_outputs_keep_only_inert_types(executed) -> None:
    """Do HTML, JavaScript, markdown, SVG and _repr_html_ outputs reach the notebook only as text or a cleaned table?"""
    nb, _ = executed
    outputs = nb.cells[0].outputs
    assert [sorted(output.data) for output in outputs] == [["text/html", "text/plain"]] + [["text/plain"]] * 4
    assert outputs[0].data["text/html"] == "<table><tbody><tr><td>1</td></tr></tbody></table>"
    shown = json.dumps(outputs)
    assert "alert" not in shown and "onload" not in shown and "onmouseover" not in shown


def test_hidden_tests_are_answered_as_calls(executed) -> None:
    """Does the hidden test get one answer per call (here: none is a number, the function is missing)?"""
    _, resources = executed
    answers = resources["autograde"]["answers"]["test_communication"]
    assert answers and all(answer.number is None and "not defined" in answer.why for answer in answers.values())


def test_the_vetoes_read_the_answers_that_score_points() -> None:
    """Is every call the code vetoes need also a call of some hidden test, so a probe cannot be told apart?"""
    called = {call for test in load_hidden_tests("lesson05").values() for call in test.calls}
    assert set(PROBE_CALLS) <= called
