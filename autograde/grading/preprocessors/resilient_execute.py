"""nbgrader's Execute, but a cell that kills or wedges the kernel costs only that cell: restart, replay, go on."""
from __future__ import annotations

import copy

from jupyter_core.utils import run_sync
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbconvert.exporters.exporter import ResourcesDict
from nbformat.notebooknode import NotebookNode
from nbformat.v4 import new_code_cell, new_output
from nbgrader import utils
from nbgrader.preprocessors import Execute

REPLAY_NAME = '__name__ = "__replay__"'
MAIN_NAME = '__name__ = "__main__"'
KERNEL_DIED = "the kernel died or stopped answering while running this cell (it was restarted and grading went on)"


class ResilientExecute(Execute):
    """On a dead or unresponsive kernel: record an error in the cell, restart, re-run earlier non-test cells.

    A kernel whose own machinery the student broke (e.g. by patching builtins.float) stops sending
    output, which nbclient reports as CellTimeoutError even with interrupt_on_timeout.
    """

    def preprocess_cell(self, cell: NotebookNode, resources: ResourcesDict, index: int) -> tuple[NotebookNode, ResourcesDict]:
        """Execute one cell; survive the kernel dying under it."""
        try:
            return super().preprocess_cell(cell, resources, index)
        except (DeadKernelError, CellTimeoutError):
            self.log.warning("Kernel died or hung in cell %s; restarting and replaying earlier cells", index)
            cell.outputs = [new_output("error", ename="DeadKernelError", evalue=KERNEL_DIED, traceback=[KERNEL_DIED])]
            replay_to = index if utils.is_grade(cell) else index + 1
            self._restart_and_replay(replay_to)
            return cell, self.resources

    def _restart_and_replay(self, stop: int) -> None:
        """Start a fresh kernel and re-run, silently, the non-test code cells before `stop`.

        The replay runs with `__name__` set to something other than "__main__", so a cell's
        `if __name__ == "__main__":` demo (which may be what killed the kernel) is skipped while its
        definitions come back. If replaying breaks the kernel again, restart once more and stop:
        later cells then fail on their own, which costs them only their own points.
        """
        self._restart()
        replay = [(i, c) for i, c in enumerate(self.nb.cells[:stop]) if c.cell_type == "code" and not utils.is_grade(c)]
        graded_cells = list(self.nb.cells)  # nbclient stores each executed cell back by index; keep ours
        try:
            self._run_quietly(REPLAY_NAME)
            for earlier_index, earlier in replay:
                self.execute_cell(copy.deepcopy(earlier), earlier_index, store_history=False)
            self._run_quietly(MAIN_NAME)
        except (DeadKernelError, CellTimeoutError):
            self.log.warning("Replaying earlier cells broke the kernel again; later cells run without them")
            self._restart()
        finally:
            self.nb.cells[:] = graded_cells

    def _run_quietly(self, source: str) -> None:
        """Execute a line of bookkeeping code whose output nobody sees."""
        self.execute_cell(new_code_cell(source), 0, store_history=False)

    def _restart(self) -> None:
        """Restart the kernel and connect a new client to it."""
        run_sync(self.km.restart_kernel)(now=True)
        self.kc.stop_channels()
        run_sync(self.async_start_new_kernel_client)()
