"""The sandbox on its own: what a job can see, write, start and print, and what comes back from it."""
from __future__ import annotations

import json
import shutil
import subprocess
import time

import pytest

from autograde.calls import Call
from autograde.grading.sandbox.bwrap import SandboxUnavailable
from autograde.grading.sandbox.job import CellStep, Job, ProbeStep
from autograde.grading.sandbox.settings import Sandbox
from autograde.grading.sandbox.worker import SandboxWorker, shared_worker

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed (make test installs it as root)")


@pytest.fixture(scope="module")
def worker():
    """One warm sandbox for the module, with small limits so the tests are quick."""
    sandbox = SandboxWorker(Sandbox(memory_bytes=1 << 30, max_processes=16, output_bytes=4096, scratch_bytes=8 << 20,
                                    submission_timeout=30))
    yield sandbox
    sandbox.close()


def run_cell(worker: SandboxWorker, source: str, timeout: float = 5, **job) -> list[dict]:
    """The outputs of one cell run alone in a fresh job."""
    outcome = worker.run(Job(steps=(CellStep(source, timeout),), **job))
    assert outcome.ending == "finished", outcome
    return list(outcome.results[0].outputs)


def printed(outputs: list[dict]) -> str:
    """Everything a cell printed on stdout, and its result."""
    return "".join(o.get("text", "") + o.get("data", {}).get("text/plain", "") for o in outputs)


def test_a_job_sees_only_its_own_files(worker):
    """Does a cell see its own notebook in a private folder, an empty /proc, and none of the course?"""
    outputs = run_cell(worker, "import os\nprint(os.getcwd(), sorted(os.listdir('.')), os.listdir('/proc'), "
                               "os.path.exists('/work'), os.environ['HOME'])", files={"lesson05.ipynb": "{}"})
    assert printed(outputs).split() == ["/submission", "['lesson05.ipynb']", "[]", "False", "/home/student"]


def test_no_terminal_and_no_way_to_signal_the_grader(worker):
    """Is /dev/tty only /dev/null, and does killing the job's process group leave the sandbox able to run the next job?"""
    outputs = run_cell(worker, "import os\nprint(os.stat('/dev/tty').st_rdev == os.stat('/dev/null').st_rdev)\n"
                               "import signal\nos.killpg(0, signal.SIGKILL)")
    assert printed(outputs).strip() == "True"
    assert printed(run_cell(worker, "print('still here')")).strip() == "still here"
    assert worker.process is not None and worker.process.poll() is None


def test_what_a_job_writes_is_gone_for_the_next(worker):
    """Are files written to /tmp and HOME by one job absent in the next, and is the rest read-only?"""
    run_cell(worker, "import os\nopen('/tmp/left', 'w').write('x')\nopen(os.path.expanduser('~/left'), 'w').write('x')")
    outputs = run_cell(worker, "import os\nprint(os.listdir('/tmp'), os.listdir(os.path.expanduser('~')))\n"
                               "open('/opt/packages/0/planted.pth', 'w')")
    assert printed(outputs).split()[:2] == ["[]", "[]"]
    assert outputs[-1]["ename"] == "OSError" and "Read-only" in outputs[-1]["evalue"]


def test_processes_a_job_starts_die_with_it(worker):
    """Is a detached process started by a job gone as soon as the job ends?"""
    run_cell(worker, "import subprocess\nsubprocess.Popen(['sleep', '987655'], start_new_session=True)")
    time.sleep(0.2)
    assert subprocess.run(["pgrep", "-f", "sleep 987655"], capture_output=True).stdout == b""


def test_too_many_processes_stop_the_job(worker):
    """Is a job that starts more processes than the limit killed and reported as such?"""
    outcome = worker.run(Job(steps=(CellStep("import subprocess\n_ = [subprocess.Popen(['sleep', '30']) for _ in range(40)]\n"
                                             "import time; time.sleep(10)", 20),)))
    assert (outcome.ending, outcome.running) == ("processes", 0)


def test_memory_and_disk_are_limited(worker):
    """Does allocating past the memory limit raise MemoryError, and writing past the scratch size fail?"""
    outputs = run_cell(worker, "try:\n    x = bytearray(2 << 30)\nexcept MemoryError:\n    print('no memory')\n"
                               "try:\n    open('/tmp/f', 'wb').write(b'x' * (16 << 20))\nexcept OSError as e:\n    print('no space', e.errno)")
    assert printed(outputs).split() == ["no", "memory", "no", "space", "28"]


def test_output_is_cut_at_the_limit(worker):
    """Is a cell's output kept up to the per-cell limit and marked as cut?"""
    outputs = run_cell(worker, "for i in range(10000):\n    print('x' * 100)", output_bytes=4096)
    assert len(json.dumps(outputs)) < 3 * 4096 and outputs[-1]["name"] == "truncated"


def test_no_network(worker):
    """Does a connection attempt fail inside the sandbox?"""
    outputs = run_cell(worker, "import socket\ntry:\n    socket.create_connection(('1.1.1.1', 53), timeout=2)\nexcept OSError:\n    print('offline')")
    assert printed(outputs).strip() == "offline"


def test_a_python_loop_is_interrupted_and_the_next_cell_runs(worker):
    """Is an endless Python loop interrupted with a one-line TimeoutError while later cells still run?"""
    outcome = worker.run(Job(steps=(CellStep("x = 1\nwhile True:\n    pass", 1), CellStep("print(x)", 1))))
    first, second = outcome.results[0].outputs, outcome.results[1].outputs
    assert first[0]["ename"] == "TimeoutError" and printed(list(second)).strip() == "1"


def test_a_loop_in_c_is_killed(worker):
    """Is a loop no interrupt reaches killed by the grader after its time, and reported as a timeout?"""
    outcome = worker.run(Job(steps=(CellStep("import itertools\nsum(itertools.repeat(1))", 1),)))
    assert (outcome.ending, outcome.running) == ("timeout", 0)


def test_probe_answers_are_plain_numbers_or_reasons(worker):
    """Are answers plain ints/floats, with bool, str, NaN, arrays and raising calls turned into reasons?"""
    source = ("class Same(float):\n    def __eq__(self, other): return True\n"
              "def f(kind):\n    print('noise')\n    return {'int': 3, 'same': Same(-1.0), 'bool': True, 'str': '3', 'nan': float('nan'),"
              " 'list': [3]}[kind]")
    kinds = ("int", "same", "bool", "str", "nan", "list", "missing")
    outcome = worker.run(Job(steps=(CellStep(source, 5), ProbeStep(tuple(Call("f", (k,)) for k in kinds), 5))))
    answers = outcome.results[1].answers
    assert [a.number for a in answers[:2]] == [3, -1.0] and type(answers[1].number) is float
    assert [a.why.split(",")[0] for a in answers[2:]] == [
        "returned a bool", "returned str", "returned NaN", "returned list", "raised KeyError: 'missing'"]
    assert outcome.results[1].outputs == ()


def test_a_missing_bwrap_is_refused_in_one_line(monkeypatch):
    """Without bubblewrap, is grading refused with one line naming the fix, unless the instructor opts out?"""
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setattr("autograde.grading.sandbox.worker._shared", {})
    with pytest.raises(SandboxUnavailable) as refused:
        shared_worker(Sandbox())
    assert "\n" not in str(refused.value) and "apt-get install bubblewrap" in str(refused.value)
    unsandboxed = shared_worker(Sandbox(allow_unsandboxed=True))
    try:
        outcome = unsandboxed.run(Job(steps=(CellStep("print(6 * 7)", 5),)))
        assert printed(list(outcome.results[0].outputs)).strip() == "42"
    finally:
        unsandboxed.close()


def test_the_hidden_distribution_is_this_project():
    """Is the distribution the sandbox hides the one pyproject.toml builds (so renaming it cannot expose the course)?"""
    import tomllib
    from pathlib import Path

    from autograde.grading.sandbox.bwrap import COURSE_DISTRIBUTION

    project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == COURSE_DISTRIBUTION
