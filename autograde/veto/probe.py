"""Answers for the code checks: a submission's functions called in the sandbox, never in this process."""
from __future__ import annotations

from collections.abc import Sequence

from autograde.grading.calls import Call
from autograde.grading.isolated_calls import call_isolated
from autograde.grading.sandbox.settings import Sandbox


def call_submission(source: str, calls: Sequence[Call], timeout_s: float) -> list[float | int | None]:
    """Run `source` alone in a fresh sandboxed process and make `calls`; None where a call gave no number."""
    return call_isolated(source, calls, Sandbox(cell_timeout=timeout_s))
