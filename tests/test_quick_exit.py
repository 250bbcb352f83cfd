"""Does `nbgrader autograde` still end with its own exit status, its output flushed and its exit handlers run, now that
it skips the interpreter's teardown; and does an app run inside a server return instead of exiting?"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = '''
import atexit, sys
from pathlib import Path
from nbgrader.apps.nbgraderapp import NbGraderApp
from traitlets.config import LoggingConfigurable
from autograde.grading.quick_exit import exit_when_done

class App(LoggingConfigurable):
    def start(self):
        atexit.register(lambda: Path(sys.argv[2]).write_text("handlers ran"))
        sys.stdout.write("the last result line")  # no newline: only a flush writes it to a pipe
        if sys.argv[1] == "fails":
            sys.exit(1)

App.start = exit_when_done(exit_when_done(App.start))  # wrapping twice wraps once
parent = NbGraderApp() if sys.argv[1] != "in a server" else LoggingConfigurable()
App(parent=parent).start()
print(" -- returned")
sys.exit(7)
'''


@pytest.mark.parametrize(("case", "status", "output"), [
    ("succeeds", 0, "the last result line"),
    ("fails", 1, "the last result line"),
    ("in a server", 7, "the last result line -- returned"),
])
def test_the_command_exits_with_its_status_and_its_output(tmp_path: Path, case: str, status: int, output: str) -> None:
    """Succeeding, failing (sys.exit(1), as nbgrader's fail does) and inside a server: the status, the whole output,
    the exit handlers."""
    marker = tmp_path / "atexit"
    done = subprocess.run([sys.executable, "-c", SCRIPT, case, str(marker)], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout.strip()) == (status, output), done.stderr
    assert marker.read_text() == "handlers ran"
