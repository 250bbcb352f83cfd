"""Call a submission's functions in an isolated Python process and return the numbers they give back.

Run as a script (`python -I probe.py REQUEST`) this file is the child side, so it imports the standard library only.
"""
from __future__ import annotations

import contextlib
import json
import numbers
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the child side imports nothing outside the standard library
    from autograde.grading.calls import Call

SUBMISSION_NAME = "submission"
"""The `__name__` the submission runs under, so its `if __name__ == "__main__":` block stays idle."""


def call_submission(source: str, calls: Sequence[Call], timeout_s: float) -> list[float | None]:
    """Run `source` once in a fresh interpreter and make `calls` in order; None where a call raised, gave no number, or never ran."""
    with tempfile.TemporaryDirectory(prefix="veto-probe-", ignore_cleanup_errors=True) as workdir:
        request = Path(workdir, "request.json")
        request.write_text(json.dumps({"source": source, "calls": [call.to_json() for call in calls]}), encoding="utf-8")
        child = subprocess.Popen(
            [sys.executable, "-I", str(Path(__file__).resolve()), str(request)],
            cwd=workdir,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            stdout, _ = child.communicate(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            stdout = None
        # The whole session goes, so nothing the submission started outlives the check or holds the pipe open.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)
        if stdout is None:
            stdout, _ = child.communicate()
    values = _read_values(stdout)
    return values + [None] * (len(calls) - len(values))


def _read_values(stdout: bytes) -> list[float | None]:
    """The child's one-JSON-value-per-line answers, up to the first line that is cut off or garbled."""
    values: list[float | None] = []
    for line in stdout.decode("utf-8", "replace").splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            break
        values.append(float(value) if isinstance(value, (int, float)) else None)
    return values


def _number(namespace: dict[str, Any], call: list[Any]) -> float | None:
    """Make one call inside the child; a real number comes back as float, anything else as None."""
    try:
        function, args, kwargs = call
        value = namespace[function](*args, **kwargs)
        return float(value) if isinstance(value, numbers.Real) and not isinstance(value, bool) else None
    except BaseException:  # the submission may raise anything, SystemExit included
        return None


def _child(request_path: str) -> None:
    """Child side: exec the submission with output silenced, then write one JSON value per call to the real stdout."""
    request = json.loads(Path(request_path).read_text(encoding="utf-8"))
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    silent = os.open(os.devnull, os.O_WRONLY)
    os.dup2(silent, 1)
    os.dup2(silent, 2)
    sys.stdout = sys.stderr = open(os.devnull, "w", encoding="utf-8")
    namespace: dict[str, Any] = {"__name__": SUBMISSION_NAME}
    try:
        exec(compile(request["source"], "<submission>", "exec"), namespace)
    except BaseException:  # functions defined before a top-level error or exit can still be called
        pass
    for call in request["calls"]:
        # One flushed line per call keeps the answers so far if a later call hangs or kills the process.
        answers.write(json.dumps(_number(namespace, call)) + "\n")
        answers.flush()


if __name__ == "__main__":
    _child(sys.argv[1])
