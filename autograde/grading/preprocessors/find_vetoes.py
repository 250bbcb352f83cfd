"""Run the veto checks on a submission: the code's behaviour (answered in the sandbox) and source, each free-text answer.

The checks read student content in this trusted process, so they run in a forked child under a memory and time
limit (autograde.untrusted.bounded_call); a submission that exceeds them gets a note for the grader instead.
"""
from __future__ import annotations

import threading

from nbconvert.exporters.exporter import ResourcesDict
from nbformat.notebooknode import NotebookNode
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Float, Integer, List, Unicode

from autograde.calls import Call
from autograde.grading.isolated_calls import call_isolated
from autograde.grading.sandbox.settings import Sandbox
from autograde.untrusted.bounded_call import BoundExceeded, call_bounded
from autograde.veto.finding import Veto

NOT_CHECKED = "the veto checks could not read this submission: they {why}; check its code and answers by hand"


class FindVetoes(NbGraderPreprocessor):
    """Collect veto findings per cell into resources["autograde"]["vetoes"]; RecordVetoes writes them down."""

    code_cell = Unicode("zero_code", help="grade_id of the cell whose functions the code checks call").tag(config=True)
    answer_cells = List(Unicode(), default_value=["q1", "q2", "q3"],
                        help="grade_ids of free-text answers checked for veto claims").tag(config=True)
    memory_bytes = Integer(1 << 30, help="Address space the checks may use for one submission.").tag(config=True)
    seconds = Float(20.0, help="Wall-clock seconds the checks may take for one submission.").tag(config=True)

    _warming: threading.Thread | None = None
    """Loads the checkers in the background while the sandbox starts and runs the first submission."""

    def prepare(self) -> None:
        """Start loading the checkers and compiling their rules, once per worker, so each forked check starts warm;
        `preprocess` waits for it (a fork must not meet a thread halfway through an import)."""
        self._warming = threading.Thread(target=self._warm, name="veto checks warm-up", daemon=True)
        self._warming.start()

    def _warm(self) -> None:
        """Run each checker once."""
        from autograde.veto.code import find_code_vetoes
        from autograde.veto.text import find_vetoes

        for grade_id in self.answer_cells:
            find_vetoes("ZeRO-3 把参数、梯度和优化器状态都切分，通信量 3Ψ。", question=grade_id)
        find_code_vetoes("%time x = 1\ndef zero_memory_per_gpu(num_params, dp, stage):\n    return 0\n", {})

    def preprocess(self, nb: NotebookNode, resources: ResourcesDict) -> tuple[NotebookNode, ResourcesDict]:
        """Check the code cell (with the answers its functions gave in the sandbox) and every answer cell's text."""
        if self._warming is not None:
            self._warming.join()
            self._warming = None
        cells = {cell.metadata.get("nbgrader", {}).get("grade_id"): cell.source for cell in nb.cells}
        answers = self._answers(cells.get(self.code_cell), resources)
        found = resources.setdefault("autograde", {}).setdefault("vetoes", {})
        try:
            found.update(call_bounded(lambda: self._check(cells, answers), memory_bytes=self.memory_bytes,
                                      seconds=self.seconds))
        except BoundExceeded as exceeded:
            resources["autograde"].setdefault("notes", []).append(NOT_CHECKED.format(why=exceeded))
        return nb, resources

    def _check(self, cells: dict[str | None, str], answers: dict[Call, float | int | None]) -> dict[str, list[Veto]]:
        """Every checked cell's findings (runs in the bounded child)."""
        from autograde.veto.code import (
            find_code_vetoes,  # imported here: generate_assignment need not load the checkers
        )
        from autograde.veto.text import find_vetoes

        findings = {}
        if self.code_cell in cells:
            findings[self.code_cell] = find_code_vetoes(cells[self.code_cell], answers)
        for grade_id in self.answer_cells:
            if grade_id in cells:
                findings[grade_id] = find_vetoes(cells[grade_id], question=grade_id)
        return findings

    def _answers(self, source: str | None, resources: ResourcesDict) -> dict[Call, float | int | None]:
        """Every answer the hidden tests got in the sandbox; run alone (no hidden tests ran), the probes in a fresh one."""
        from autograde.veto.code import PROBE_CALLS

        tests = resources.get("autograde", {}).get("answers", {})
        if tests:
            return {call: answer.number for answered in tests.values() for call, answer in answered.items()}
        if source is None:
            return {}
        return dict(zip(PROBE_CALLS, call_isolated(source, PROBE_CALLS, Sandbox(parent=self), self.log)))
