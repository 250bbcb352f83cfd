"""`nbgrader autograde` ends as soon as its work is written: the exit handlers run and the output is flushed, but the
interpreter does not take apart the ~1,300 modules nbgrader imports one by one (half a second here, on every run)."""
from __future__ import annotations

import atexit
import functools
import logging
import os
import sys
from collections.abc import Callable
from typing import Any, NoReturn

from nbgrader.apps.nbgraderapp import NbGraderApp


def exit_when_done(start: Callable[[Any], None]) -> Callable[[Any], None]:
    """`start` of a command-line app, ending the process with the app's status once it returns or exits."""
    if getattr(start, "exits_when_done", False):
        return start

    @functools.wraps(start)
    def start_then_exit(app: Any) -> None:
        try:
            start(app)
        except SystemExit as stop:
            if not isinstance(app.parent, NbGraderApp) or not isinstance(stop.code, int | None):
                raise
            exit_now(stop.code or 0)
        if isinstance(app.parent, NbGraderApp):  # `nbgrader autograde`, not an app running inside a server
            exit_now(0)

    start_then_exit.exits_when_done = True  # type: ignore[attr-defined]
    return start_then_exit


def exit_now(status: int) -> NoReturn:
    """Run the exit handlers (temporary files, logging), flush stdout and stderr, and end the process with `status`."""
    atexit._run_exitfuncs()
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    os._exit(status)
