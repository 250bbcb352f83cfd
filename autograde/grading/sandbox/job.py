"""A job for the sandbox (the steps to run in one submission's process) and what came back from it."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from autograde.calls import Answer, Call


@dataclass(frozen=True)
class CellStep:
    """Run code as a notebook cell in the student's namespace."""

    source: str
    timeout: float
    name: str = "__main__"
    """The `__name__` the cell sees: "__main__" as in Jupyter, something else to skip a demo block."""
    keep_outputs: bool = True

    def to_json(self) -> dict[str, Any]:
        """The step as the sandbox reads it."""
        return {"kind": "cell", "source": self.source, "timeout": self.timeout, "name": self.name, "keep": self.keep_outputs}


@dataclass(frozen=True)
class ProbeStep:
    """Call the student's functions and report the plain numbers they return; what they print is dropped."""

    calls: tuple[Call, ...]
    timeout: float
    call_timeout: float | None = None
    """Seconds one call may take; the first call that does not return ends the step (a test is decided by its first
    failing check, so the calls after it need not wait). None: only the step's own limit."""

    def to_json(self) -> dict[str, Any]:
        """The step as the sandbox reads it."""
        return {"kind": "probe", "calls": _calls_json(self.calls), "timeout": self.timeout, "keep": False,
                "call_timeout": self.call_timeout}


@cache
def _calls_json(calls: tuple[Call, ...]) -> list[list[Any]]:
    """The calls as the sandbox reads them, built once per set (a hidden test makes the same calls for everyone)."""
    return [call.to_json() for call in calls]


Step = CellStep | ProbeStep


@dataclass(frozen=True)
class Job:
    """Everything one sandboxed process runs, in order, with the files it may see."""

    steps: tuple[Step, ...]
    files: dict[str, str] = field(default_factory=dict)
    """File name → text, written into the private submission folder before the first step."""
    env: dict[str, str] = field(default_factory=dict)
    output_bytes: int = 65536
    time_limit: float = float("inf")
    """Seconds all the steps may take together (what is left of the submission's time)."""

    def to_bytes(self) -> bytes:
        """The job as the sandbox reads it from its stdin."""
        limit = None if self.time_limit == float("inf") else self.time_limit
        return json.dumps({"steps": [step.to_json() for step in self.steps], "files": self.files, "env": self.env,
                           "output_bytes": self.output_bytes, "time_limit": limit}).encode("utf-8")


@dataclass(frozen=True)
class StepResult:
    """What one step produced: notebook outputs (cells) or answers (probes), and how it ended."""

    status: str
    """"ok", "timeout" (interrupted after its time), or why the process running it was stopped."""
    outputs: tuple[dict[str, Any], ...] = ()
    execution_count: int | None = None
    answers: tuple[Answer, ...] = ()


Ending = Literal["finished", "died", "timeout", "processes", "output", "killed", "forged"]


@dataclass(frozen=True)
class JobOutcome:
    """The results of the steps that finished, and how the process ended."""

    results: dict[int, StepResult]
    ending: Ending
    running: int | None
    """Index of the step that had started but not finished when the process ended, if any."""
    reason: str = ""
