"""The notebook as SandboxedExecute runs it: cells and hidden tests in order, extra probes under their own time limit."""
from __future__ import annotations

import shutil

import nbformat
import pytest

from autograde.grading.preprocessors.sandboxed_execute import SandboxedExecute
from autograde.veto.code import PROBE_CALLS

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed (make test installs it as root)")

SLOW_ONCE = """\
import time
_called = []

def zero_communication_volume(num_params, stage):
    if not _called:  # the first call (the code vetoes' probe) takes 3 s, every later one is instant
        _called.append(stage)
        time.sleep(3)
    return 3 * num_params if stage == 3 else 2 * num_params
"""


def graded_cell(source: str, grade_id: str, grade: bool) -> nbformat.NotebookNode:
    """A code cell with the nbgrader metadata of a solution (grade False) or a hidden test (grade True) cell."""
    cell = nbformat.v4.new_code_cell(source)
    cell.metadata["nbgrader"] = {"grade_id": grade_id, "grade": grade, "solution": not grade, "locked": grade,
                                 "schema_version": 3, **({"points": 1} if grade else {})}
    return cell


@pytest.fixture(scope="module")
def executed() -> tuple[nbformat.NotebookNode, dict]:
    """A notebook whose communication function takes 3 s on its first call, run with the course's probes after its code cell."""
    nb = nbformat.v4.new_notebook(cells=[graded_cell(SLOW_ONCE, "zero_code", False),
                                         graded_cell("# hidden test", "test_communication", True)])
    resources = {"nbgrader": {"assignment": "lesson05", "notebook": "lesson05"}, "unique_key": "lesson05"}
    execute = SandboxedExecute(probes_after={"zero_code": "autograde.veto.code:PROBE_CALLS"}, probe_timeout=1.0)
    return execute.preprocess(nb, resources)


def test_a_slow_function_still_answers_its_hidden_test(executed) -> None:
    """Does the hidden test, run after the probes gave up, still get the function's numbers?"""
    _, resources = executed
    answers = resources["autograde"]["answers"]["test_communication"]
    assert answers and all(answer.number is not None for answer in answers.values())


def test_extra_probes_stop_at_their_own_limit(executed) -> None:
    """Do the code vetoes' probes give up after probe_timeout, with no number, instead of a whole cell timeout?"""
    _, resources = executed
    probes = resources["autograde"]["probes"]["zero_code"]
    assert set(probes) == set(PROBE_CALLS)
    communication = [answer for call, answer in probes.items() if call.function == "zero_communication_volume"]
    assert communication and all(answer.number is None for answer in communication)
