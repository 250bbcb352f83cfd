"""Worker processes for a batch: results as they finish, a dead worker costs only its own task."""
from __future__ import annotations

import os
import threading

import pytest

from autograde.grading.pool import GradingPool, Lost, WorkerRefused


def square_or_die(number: int) -> int:
    """The task's square; the process dies on 3."""
    if number == 3:
        os._exit(9)
    return number * number


def test_every_task_comes_back_once_and_a_dead_worker_costs_only_its_task():
    """Does each task return once, with the one whose worker died reported as Lost and the rest computed?"""
    pool = GradingPool(square_or_die, workers=2)
    try:
        results = dict(pool.results(list(range(8)), threading.Event()))
    finally:
        pool.close()
    assert isinstance(results.pop(3), Lost)
    assert results == {n: n * n for n in range(8) if n != 3}


def test_a_set_stop_ends_the_results_early():
    """Once `stop` is set, do no further tasks start?"""
    stop = threading.Event()
    pool = GradingPool(square_or_die, workers=1)
    seen = []
    try:
        for task, _ in pool.results([0, 1, 2, 4, 5, 6], stop):
            seen.append(task)
            stop.set()
    finally:
        pool.close()
    assert seen == [0]


def test_workers_prepare_before_their_first_task():
    """Does each worker run the preparation once before any task, in its own process?"""
    def prepare() -> None:
        global PREPARED_IN
        PREPARED_IN = os.getpid()

    def where(_: int) -> bool:
        return PREPARED_IN == os.getpid()

    pool = GradingPool(where, workers=2, prepare=prepare)
    try:
        assert all(result for _, result in pool.results(list(range(6)), threading.Event()))
    finally:
        pool.close()


def test_a_worker_that_cannot_prepare_stops_the_batch_with_its_reason():
    """When a worker cannot prepare (no sandbox), does the batch stop with that one-line reason?"""
    pool = GradingPool(square_or_die, workers=2, prepare=lambda: "bubblewrap is not installed")
    try:
        with pytest.raises(WorkerRefused, match="bubblewrap is not installed"):
            list(pool.results([1, 2], threading.Event()))
    finally:
        pool.close()


PREPARED_IN = 0
