"""Run one cell's source alone in a fresh sandboxed process and call its functions: how the code vetoes see behaviour."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from autograde.calls import Call
from autograde.grading.execution import run_steps
from autograde.grading.sandbox.job import CellStep, ProbeStep
from autograde.grading.sandbox.settings import Sandbox
from autograde.grading.sandbox.worker import shared_worker

SUBMISSION_NAME = "submission"
"""The `__name__` the source runs under, so its `if __name__ == "__main__":` block stays idle."""


def call_isolated(source: str, calls: Sequence[Call], settings: Sandbox, log: Any = None) -> list[float | int | None]:
    """The number each call returned, or None where it raised, returned no plain number, or never ran."""
    steps = (CellStep(source, settings.cell_timeout, name=SUBMISSION_NAME, keep_outputs=False),
             ProbeStep(tuple(calls), settings.cell_timeout))
    _, probe = run_steps(shared_worker(settings, log), steps, {}, {}, settings.output_bytes)
    return [answer.number for answer in probe.answers]
