"""Trusted worker processes that grade submissions in parallel and hand each result back to the parent."""
from __future__ import annotations

import ctypes
import multiprocessing
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, Generic, TypeVar

Task = TypeVar("Task")
SLOW_TASK_S = 2.0
MAX_EXTRA_PER_WORKER = 2
"""A task slower than SLOW_TASK_S lets one more worker start, up to this many extra per regular worker."""

_context = multiprocessing.get_context("fork")
_job: Callable[[Any], Any] | None = None
"""The function workers apply; set in the parent before forking, so it need not be picklable."""


@dataclass(frozen=True)
class Lost:
    """A task whose worker process died under it."""

    reason: str


def _serve(connection: Connection) -> None:
    """Worker loop: run each task sent, send back its result; stop at None."""
    ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG: a killed batch leaves nothing running
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    assert _job is not None
    while (task := connection.recv()) is not None:
        connection.send(_job(task))


class GradingPool(Generic[Task]):
    """Worker processes forked from this one, each given one task at a time over its own pipe."""

    def __init__(self, job: Callable[[Task], Any], workers: int) -> None:
        global _job
        _job = job
        self.size = max(1, workers)
        self.workers: dict[Connection, Any] = {}

    def _spawn(self) -> Connection:
        """Start one worker; returns the parent's end of its pipe."""
        ours, theirs = _context.Pipe()
        process = _context.Process(target=_serve, args=(theirs,), daemon=True)
        process.start()
        theirs.close()
        self.workers[ours] = process
        return ours

    def start(self, tasks: int) -> None:
        """Fork the workers (before this process opens anything they must not inherit, such as a database)."""
        while len(self.workers) < min(self.size, tasks):
            self._spawn()

    def results(self, tasks: Sequence[Task], stop: threading.Event) -> Iterator[tuple[Task, Any]]:
        """Each task with its result as soon as it is done (a task whose worker died as Lost), until `stop` is set.

        A task running longer than SLOW_TASK_S (a submission looping until its timeout) lends its place: one more
        worker starts beside it, up to MAX_EXTRA_PER_WORKER per worker, so the rest of the batch goes on.
        """
        pending = deque(range(len(tasks)))
        busy: dict[Connection, tuple[int, float]] = {}

        def hand_out(connection: Connection) -> None:
            busy[connection] = (pending[0], time.monotonic())
            connection.send(tasks[pending.popleft()])

        self.start(len(tasks))
        for connection in list(self.workers):
            if pending:
                hand_out(connection)
        while busy and not stop.is_set():
            for connection in wait(list(busy), timeout=0.2):
                number, _ = busy.pop(connection)
                try:
                    result = connection.recv()
                except (EOFError, OSError):
                    process = self.workers.pop(connection)
                    process.join()
                    result = Lost(f"the grading process died (exit code {process.exitcode})")
                    connection.close()
                    connection = self._spawn()
                if pending and not stop.is_set():
                    hand_out(connection)  # before the caller records this result, so the worker never waits for it
                yield tasks[number], result
            slow = sum(1 for _, started in busy.values() if time.monotonic() - started > SLOW_TASK_S)
            while pending and not stop.is_set() and len(busy) < self.size + min(slow, MAX_EXTRA_PER_WORKER * self.size):
                hand_out(self._spawn())

    def close(self) -> None:
        """Stop every worker now; each takes its sandbox with it."""
        for process in self.workers.values():
            if process.is_alive():
                process.kill()
        for connection, process in self.workers.items():
            process.join()
            connection.close()
        self.workers.clear()
