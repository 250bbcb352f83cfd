"""The grader reading the sandbox's records: whatever student code writes there, the reader stays standing."""
from __future__ import annotations

import json

import pytest

from autograde.calls import Call
from autograde.grading.sandbox.job import CellStep, ProbeStep
from autograde.grading.sandbox.records import (
    Done,
    Finished,
    ForgedRecord,
    RecordReader,
    Started,
    nesting_depth,
)

STEPS = (CellStep("x = 1", 5), ProbeStep((Call("f", (1,)), Call("f", (2,))), 5))


def line(record: object) -> bytes:
    """One record as the sandbox writes it."""
    return json.dumps(record).encode() + b"\n"


def honest_stream() -> list[bytes]:
    """The records a job of STEPS writes when nobody interferes."""
    return [line({"event": "start", "step": 0}),
            line({"event": "done", "step": 0, "status": "ok", "outputs": [{"output_type": "stream", "name": "stdout",
                                                                          "text": "hi\n"}], "execution_count": 1}),
            line({"event": "start", "step": 1}),
            line({"event": "done", "step": 1, "status": "ok", "answers": [[1, 2.0], [0, "raised ValueError: no"]]}),
            line({"event": "finished"})]


def test_an_honest_stream_reads_as_its_events():
    """Does the honest stream, even cut at odd places, read as start/done per step, then finished?"""
    data = b"".join(honest_stream())
    reader = RecordReader(STEPS, output_bytes=4096)
    events = [event for start in range(0, len(data), 7) for event in reader.feed(data[start:start + 7])]
    assert [type(event) for event in events] == [Started, Done, Started, Done, Finished]
    assert events[3].result.answers[0].number == 2.0 and events[3].result.answers[1].number is None


@pytest.mark.parametrize("forged, why", [
    (b"[" * 5_000 + b"]" * 5_000 + b"\n", "nested deeper"),
    (b"[" * 100_000 + b"]" * 100_000 + b"\n", "bytes"),
    (line({"event": "done", "step": 0, "status": "ok", "outputs": [{"a": [[[[[[[[[1]]]]]]]]]}], "execution_count": 1}), "nested deeper"),
    (line({"event": "done", "step": 0, "status": "ok", "outputs": [], "execution_count": 1}), "out of turn"),
    (line({"event": "start", "step": 1}), "out of turn"),
    (line({"event": "start", "step": 0, "extra": 1}), "malformed"),
    (b"not json\n", "not a grading record"),
    (line([1, 2]), "not an object"),
])
def test_a_forged_first_record_ends_the_job(forged, why):
    """Is a record that is too deep, out of turn, malformed or not JSON refused with a reason, never a crash?"""
    with pytest.raises(ForgedRecord, match=why):
        RecordReader(STEPS, output_bytes=4096).feed(forged)


def test_a_record_for_a_step_in_the_wrong_form_is_refused():
    """Are answers sent for a cell step, or more answers than the probe asked for, refused?"""
    reader = RecordReader(STEPS, output_bytes=4096)
    reader.feed(line({"event": "start", "step": 0}))
    with pytest.raises(ForgedRecord, match="malformed cell record"):
        reader.feed(line({"event": "done", "step": 0, "status": "ok", "answers": []}))
    reader = RecordReader(STEPS, output_bytes=4096)
    reader.feed(b"".join(honest_stream()[:3]))
    with pytest.raises(ForgedRecord, match="malformed answer record"):
        reader.feed(line({"event": "done", "step": 1, "status": "ok", "answers": [[1, 1]] * 3}))


def test_output_past_the_limit_is_refused_even_when_the_record_is_well_formed():
    """Is a forged "done" record carrying far more output than c.Sandbox.output_bytes refused?"""
    reader = RecordReader(STEPS, output_bytes=4096)
    reader.feed(line({"event": "start", "step": 0}))
    big = {"output_type": "stream", "name": "stdout", "text": "x" * 20_000}
    with pytest.raises(ForgedRecord, match="over c.Sandbox.output_bytes"):
        reader.feed(line({"event": "done", "step": 0, "status": "ok", "outputs": [big], "execution_count": 1}))


def test_a_line_that_never_ends_is_refused_before_it_fills_memory():
    """Is an unterminated line longer than any record refused as it arrives?"""
    reader = RecordReader(STEPS, output_bytes=4096)
    with pytest.raises(ForgedRecord, match="bytes"):
        for _ in range(100):
            reader.feed(b"x" * 65536)


def test_records_after_finished_are_refused():
    """Is anything written after the job's last record refused?"""
    reader = RecordReader(STEPS, output_bytes=4096)
    reader.feed(b"".join(honest_stream()))
    with pytest.raises(ForgedRecord, match="after the job had finished"):
        reader.feed(line({"event": "finished"}))


def test_nesting_depth_ignores_brackets_inside_strings():
    """Are brackets inside JSON strings (and escaped quotes) not counted as nesting?"""
    assert nesting_depth(json.dumps({"a": "[[[[{{{{\\\"]]"}).encode(), 8) == 1
    assert nesting_depth(b"[[[]]]", 8) == 3


def test_records_before_a_bad_line_count_however_the_bytes_were_cut():
    """Are the events before a bad line in the same chunk still given (with the refusal), so chunking never decides?"""
    good = b"".join(honest_stream()[:2])
    with pytest.raises(ForgedRecord) as refused:
        RecordReader(STEPS, output_bytes=4096).feed(good + line({"event": "start", "step": 5}))
    assert [type(event) for event in refused.value.events] == [Started, Done]
