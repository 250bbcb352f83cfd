"""Read the sandbox's stream of grading records as hostile data: bounded, in order, in the form each step sends.

Student code runs in the process that writes the records, so it can write its own. Every line is checked before
it is parsed (length, nesting) and after (the event expected next, exactly the fields that step's record has);
anything else raises ForgedRecord, which ends the job: never the reader, never a classmate's job.
"""
from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from autograde.calls import Answer
from autograde.grading.sandbox.job import ProbeStep, Step, StepResult

MAX_DEPTH = 8
"""Deepest nesting a real record has (record → outputs → output → data → lines) plus a margin."""
ESCAPE_FACTOR = 6
"""JSON may spell one character of output in up to six bytes (\\u0000)."""
RECORD_OVERHEAD = 16 << 10
"""Bytes of a record beyond its outputs or answers (keys, status, counts)."""
ANSWER_BYTES = 400
"""Longest answer a probe record holds per call (a number, or a reason cut to 300 characters)."""
OUTPUT_OVERHEAD = 96
"""Slack per output over what the sandbox counts against c.Sandbox.output_bytes (its note that output was cut)."""
_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"')
_NOT_BRACKETS = re.compile(rb"[^\[\]{}]+")
CELL_DONE_FIELDS = {"event", "step", "status", "outputs", "execution_count"}
PROBE_DONE_FIELDS = {"event", "step", "status", "answers"}


def _counted_size(output: Any) -> int:
    """An output's size as the sandbox counts it against its budget: a stream's characters, else its JSON."""
    if isinstance(output, dict) and output.get("output_type") == "stream" and isinstance(output.get("text"), str):
        return len(output["text"])
    return len(json.dumps(output))


class ForgedRecord(ValueError):
    """The stream broke the record protocol; the message says how, for the grader's log."""

    events: list[Event]
    """The events read before the bad line in the same chunk, so the outcome never depends on how bytes were cut."""

    def __init__(self, message: str, events: list[Event] | None = None) -> None:
        super().__init__(message)
        self.events = events or []


@dataclass(frozen=True)
class Started:
    """A step began."""

    step: int


@dataclass(frozen=True)
class Done:
    """A step ended, with its result."""

    step: int
    result: StepResult


@dataclass(frozen=True)
class Finished:
    """Every step ran."""


Event = Started | Done | Finished


def nesting_depth(line: bytes, limit: int) -> int:
    """How deeply the JSON text nests arrays and objects, counting no further than `limit` + 1."""
    depth = deepest = 0
    for bracket in _NOT_BRACKETS.sub(b"", _STRINGS.sub(b"", line)):
        depth += 1 if bracket in b"[{" else -1
        if depth > deepest:
            deepest = depth
            if deepest > limit:
                break
    return deepest


def bounded_json(line: bytes, max_bytes: int, max_depth: int = MAX_DEPTH) -> Any:
    """One JSON value, refused (ForgedRecord) when longer than `max_bytes`, nested deeper than `max_depth` or not JSON."""
    if len(line) > max_bytes:
        raise ForgedRecord(f"wrote a record of {len(line)} bytes, over the {max_bytes} a step may send")
    if nesting_depth(line, max_depth) > max_depth:
        raise ForgedRecord(f"wrote a record nested deeper than {max_depth} levels")
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        raise ForgedRecord("wrote something that is not a grading record") from None


class RecordReader:
    """Turns the bytes of one job's stream into events, checking each record against the step it must belong to."""

    def __init__(self, steps: Sequence[Step], output_bytes: int) -> None:
        self.steps, self.output_bytes = steps, output_bytes
        self.next_step, self.running, self.finished = 0, None, False
        self.pending = b""

    def record_limit(self) -> int:
        """Bytes the next record may take: a step's outputs or answers, and its fields."""
        step = self.steps[self.running] if self.running is not None else None
        if isinstance(step, ProbeStep):
            return ANSWER_BYTES * len(step.calls) + RECORD_OVERHEAD
        return ESCAPE_FACTOR * self.output_bytes + RECORD_OVERHEAD

    def feed(self, chunk: bytes) -> list[Event]:
        """The events in what has arrived; ForgedRecord at the first line that breaks the protocol."""
        *lines, self.pending = (self.pending + chunk).split(b"\n")
        events: list[Event] = []
        try:
            for line in lines:
                events.append(self._event(bounded_json(line, self.record_limit())))
            if len(self.pending) > self.record_limit():
                bounded_json(self.pending, self.record_limit())  # raises: a line too long even before it ends
        except ForgedRecord as forged:
            raise ForgedRecord(str(forged), events) from None
        return events

    def _event(self, record: Any) -> Event:
        """The event a parsed record stands for, if it is the one expected now."""
        if self.finished or not isinstance(record, dict):
            raise ForgedRecord("wrote a record after the job had finished" if self.finished else "wrote a record that is not an object")
        event, step = record.get("event"), record.get("step")
        if event == "start" and self.running is None and type(step) is int and step == self.next_step < len(self.steps):
            if set(record) != {"event", "step"}:
                raise ForgedRecord(f"wrote a malformed start record for step {step}")
            self.running = step
            return Started(step)
        if event == "done" and self.running is not None and type(step) is int and step == self.running:
            result = self._result(record, self.steps[step])
            self.running, self.next_step = None, step + 1
            return Done(step, result)
        if event == "finished" and self.running is None and self.next_step == len(self.steps) and set(record) == {"event"}:
            self.finished = True
            return Finished()
        raise ForgedRecord(f"wrote a {str(event)[:20]!r} record out of turn (step {self.running if self.running is not None else self.next_step})")

    def _result(self, record: dict[str, Any], step: Step) -> StepResult:
        """The step's result, when the record has exactly the fields and types that step's record has."""
        status = record.get("status")
        if not isinstance(status, str) or len(status) > 80:
            raise ForgedRecord("wrote a result record without a readable status")
        if isinstance(step, ProbeStep):
            answers = record.get("answers")
            if set(record) != PROBE_DONE_FIELDS or not isinstance(answers, list) or len(answers) > len(step.calls):
                raise ForgedRecord("wrote a malformed answer record")
            read = tuple(Answer.from_json(item) for item in answers)
            return StepResult(status, answers=read + (Answer(None, "gave no answer"),) * (len(step.calls) - len(read)))
        outputs, count = record.get("outputs"), record.get("execution_count")
        if set(record) != CELL_DONE_FIELDS or not isinstance(outputs, list) or not (count is None or type(count) is int):
            raise ForgedRecord("wrote a malformed cell record")
        size = sum(map(_counted_size, outputs))
        if size > self.output_bytes + OUTPUT_OVERHEAD * (len(outputs) + 1):
            raise ForgedRecord(f"reported {size} bytes of output for one cell, over c.Sandbox.output_bytes = {self.output_bytes}")
        return StepResult(status, outputs=tuple(outputs), execution_count=count)
