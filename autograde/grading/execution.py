"""Run a notebook's steps in the sandbox so that a step that kills or wedges its process costs only that step."""
from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from autograde.calls import Answer
from autograde.grading.sandbox.job import (
    CellStep,
    Job,
    JobOutcome,
    ProbeStep,
    Step,
    StepResult,
)
from autograde.grading.sandbox.worker import SandboxWorker

LOST_STEP = {
    "died": ("DeadKernelError", "the process running this cell died (the rest of the notebook was run in a fresh one)"),
    "timeout": ("TimeoutError", "this cell did not stop when interrupted and its process was killed"),
    "processes": ("ResourceLimitError", "this cell started too many processes and its process was killed"),
    "output": ("ResourceLimitError", "this cell printed more than the output limit and its process was killed"),
    "killed": ("DeadKernelError", "the process running this cell was stopped"),
    "forged": ("ProtocolError", "this cell wrote over the grader's records and its process was stopped"),
    "out of time": ("TimeoutError", "not run: the submission used up all of c.Sandbox.submission_timeout"),
}
"""ename and message shown in a cell whose process had to go, by how it ended."""
REPLAY_NAME = "__replay__"
"""`__name__` while earlier cells are replayed, so an `if __name__ == "__main__":` block that killed the process stays idle."""


def lost_step(step: Step, ending: str) -> StepResult:
    """The result of a step whose process ended under it: an error output, or no answers."""
    ename, message = LOST_STEP.get(ending, LOST_STEP["died"])
    if isinstance(step, ProbeStep):
        return StepResult(ending, answers=(Answer(None, message),) * len(step.calls))
    error = {"output_type": "error", "ename": ename, "evalue": message, "traceback": [f"{ename}: {message}"]}
    return StepResult(ending, outputs=(error,))


def run_steps(worker: SandboxWorker, steps: Sequence[Step], files: dict[str, str], env: dict[str, str],
              output_bytes: int, time_limit: float = float("inf")) -> list[StepResult]:
    """Every step's result, in order; a step that ends its process is recorded as lost and the rest go on.

    All the jobs together stay within `time_limit` seconds of running steps: what is left when it is used up is
    recorded as not run.

    After a loss the next process first replays every earlier cell, the lost one included, silently
    and with `__name__` set to "__replay__" (so the `if __name__ == "__main__":` demo that may have
    killed it stays idle while its definitions come back); if the replay itself breaks the process,
    later steps run without it, which costs them only their own points.
    """
    results: dict[int, StepResult] = {}
    replay = True
    time_left = time_limit
    while len(results) < len(steps):
        todo = [index for index in range(len(steps)) if index not in results]
        if time_left <= 0:
            results.update({index: lost_step(steps[index], "out of time") for index in todo})
            break
        prefix = _replay_prefix(steps, todo[0]) if replay else []
        started = time.monotonic()
        outcome = worker.run(Job(tuple(prefix) + tuple(steps[i] for i in todo), files, env, output_bytes, time_left))
        time_left -= time.monotonic() - started
        for position, result in outcome.results.items():
            if position >= len(prefix):
                results[todo[position - len(prefix)]] = result
        if len(results) == len(steps):
            break
        if outcome.running is None and time_left <= 0:
            continue  # stopped between steps because the time was up: the rest are recorded as not run
        failed = _failed_step(outcome, prefix, todo, results)
        if failed is None:
            replay = False
            continue
        results[failed] = lost_step(steps[failed], outcome.ending)
    return [results[index] for index in range(len(steps))]


def _replay_prefix(steps: Sequence[Step], first: int) -> list[Step]:
    """The cells before `first`, to be run again without showing output."""
    return [replace(step, name=REPLAY_NAME, keep_outputs=False) for step in steps[:first] if isinstance(step, CellStep)]


def _failed_step(outcome: JobOutcome, prefix: Sequence[Any], todo: Sequence[int], results: dict[int, StepResult]) -> int | None:
    """The step to record as lost; None when the replay prefix broke (retry without it)."""
    if outcome.running is not None and outcome.running < len(prefix):
        return None
    if outcome.running is not None:
        return todo[outcome.running - len(prefix)]
    return next(index for index in todo if index not in results)
