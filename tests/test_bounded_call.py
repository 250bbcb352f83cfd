"""Trusted reading of student content in a bounded child: a bomb costs only that call, and the caller learns why."""
from __future__ import annotations

import time

import pytest

from autograde.untrusted.bounded_call import BoundExceeded, call_bounded
from autograde.veto.cell_source import parse_cell

MiB = 1 << 20


def test_the_result_comes_back():
    """Does a call within its limits return its value (built in the child) to the caller?"""
    assert call_bounded(lambda: {"answer": [42]}, memory_bytes=512 * MiB, seconds=5) == {"answer": [42]}


def test_a_memory_bomb_is_stopped_by_the_limit():
    """Is a call that asks for far more memory than allowed refused with a reason, the caller untouched?"""
    with pytest.raises(BoundExceeded, match="memory"):
        call_bounded(lambda: bytearray(2 << 30), memory_bytes=256 * MiB, seconds=5)


def test_a_call_that_never_ends_is_killed_at_its_time():
    """Is a call that loops forever stopped near its time limit?"""
    started = time.monotonic()
    with pytest.raises(BoundExceeded, match="longer than 1 s"):
        call_bounded(lambda: next(x for x in iter(int, 1) if x), memory_bytes=512 * MiB, seconds=1)
    assert time.monotonic() - started < 3


def test_a_failure_in_the_child_is_reported_not_raised_as_itself():
    """Does an exception in the child come back as BoundExceeded naming its type?"""
    with pytest.raises(BoundExceeded, match="ZeroDivisionError"):
        call_bounded(lambda: 1 / 0, memory_bytes=512 * MiB, seconds=5)


def test_five_megabytes_of_statements_cost_one_bounded_parse():
    """Is a 5 MB cell of `a;` (which grew the grader to 4.4 GiB) parsed, or refused, within the child's limits?"""
    started = time.monotonic()
    try:
        tree = call_bounded(lambda: parse_cell("a;" * 2_500_000), memory_bytes=1 << 30, seconds=10)
    except BoundExceeded:
        tree = None
    assert tree is None and time.monotonic() - started < 12
