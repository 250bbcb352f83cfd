"""A step that ends its process costs only that step: the rest of the notebook runs in a fresh one."""
from __future__ import annotations

import shutil

import pytest

from autograde.calls import Call
from autograde.grading.execution import run_steps
from autograde.grading.sandbox.job import CellStep, ProbeStep
from autograde.grading.sandbox.settings import Sandbox
from autograde.grading.sandbox.worker import SandboxWorker

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed (make test installs it as root)")

DEFINES = "def f(x):\n    return 2 * x\n"


@pytest.fixture(scope="module")
def worker():
    """One warm sandbox for the module."""
    sandbox = SandboxWorker(Sandbox(submission_timeout=30))
    yield sandbox
    sandbox.close()


def run(worker: SandboxWorker, *steps):
    """Every step's result."""
    return run_steps(worker, steps, {}, {}, 4096)


def error_names(result) -> list[str]:
    """The ename of each error output of a cell."""
    return [output["ename"] for output in result.outputs if output["output_type"] == "error"]


def test_a_killed_main_block_still_leaves_its_definitions(worker):
    """Does a cell whose `__main__` demo kills the process cost only that cell, its functions coming back by replay?"""
    cell = CellStep(DEFINES + "if __name__ == '__main__':\n    import os; os._exit(1)", 5)
    killed, probe, later = run(worker, cell, ProbeStep((Call("f", (21,)),), 5), CellStep("print(f(1))", 5))
    assert error_names(killed) == ["DeadKernelError"]
    assert probe.answers[0].number == 42
    assert later.outputs[0]["text"] == "2\n"


def test_a_test_that_kills_its_process_costs_only_that_test(worker):
    """Does a probe whose call exits the process lose its answers while the next probe still gets them?"""
    source = DEFINES + "def g():\n    import os; os._exit(3)\n"
    _, dying, next_probe = run(worker, CellStep(source, 5), ProbeStep((Call("g", ()),), 5), ProbeStep((Call("f", (1,)),), 5))
    assert dying.answers[0].number is None and "died" in dying.answers[0].why
    assert next_probe.answers[0].number == 2


def test_a_replay_that_kills_again_is_given_up(worker):
    """When replaying earlier cells kills the process again, do later cells still run (without those definitions)?"""
    always = CellStep("import os\nos._exit(1)", 5)
    first, second = run(worker, always, CellStep("print('after')", 5))
    assert error_names(first) == ["DeadKernelError"] and second.outputs[0]["text"] == "after\n"


def test_an_unstoppable_cell_is_killed_and_the_rest_runs(worker):
    """Is a cell that ignores the interrupt recorded as a timeout while the following cells keep their state?"""
    stubborn = CellStep(DEFINES + "import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\nwhile True:\n    pass", 1)
    stuck, probe = run(worker, stubborn, ProbeStep((Call("f", (5,)),), 5))
    assert error_names(stuck) == ["TimeoutError"]
    assert probe.answers[0].number is None  # the replay loops again and is given up


def test_the_submission_time_bounds_every_cell_together(worker):
    """Do cells that each sleep just under their own limit stop at the submission's limit, the rest recorded as not run?"""
    import time

    started = time.monotonic()
    results = run_steps(worker, [CellStep("import time; time.sleep(0.9)", 1)] * 8, {}, {}, 4096, time_limit=2.5)
    assert time.monotonic() - started < 2.5 + 2
    assert error_names(results[-1]) == ["TimeoutError"] and "submission_timeout" in results[-1].outputs[0]["evalue"]
    assert error_names(results[0]) == []


def test_forged_records_cost_their_step_and_the_next_job_runs_in_a_fresh_sandbox(worker):
    """Does a cell that writes its own deep or oversized records lose only its own step, in a sandbox then replaced?"""
    zygote = worker.process.pid if worker.process else None
    deep = CellStep("import os\nif __name__ == '__main__':\n    os.write(3, b'[' * 5000 + b']' * 5000 + b'\\n')", 5)
    results = run(worker, CellStep(DEFINES, 5), deep, ProbeStep((Call("f", (4,)),), 5))
    assert error_names(results[1]) == ["ProtocolError"]
    assert results[2].answers[0].number == 8
    assert worker.process is not None and worker.process.pid != zygote


def test_a_hidden_test_stops_at_its_first_call_that_does_not_return(worker):
    """Does a test whose second call hangs end after its per-call limit, not its whole time, with the rest not called?"""
    import time

    source = "def f(x):\n    while x == 2:\n        pass\n    return x\n"
    calls = tuple(Call("f", (x,)) for x in (1, 2, 3, 4))
    started = time.monotonic()
    _, probe = run(worker, CellStep(source, 5), ProbeStep(calls, 8, call_timeout=0.5))
    assert time.monotonic() - started < 3
    assert [answer.number for answer in probe.answers] == [1, None, None, None]
    assert "did not return within 0.5 s" in probe.answers[1].why and "not called" in probe.answers[2].why
