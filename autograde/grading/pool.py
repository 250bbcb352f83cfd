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
_prepare: Callable[[], str | None] | None = None
"""Run by each worker before its first task (start its sandbox, warm the checks); returns why it cannot grade, or None."""


class WorkerRefused(RuntimeError):
    """A worker could not prepare (no sandbox); the message is its one-line reason."""


@dataclass(frozen=True)
class Lost:
    """A task whose worker process died under it."""

    reason: str


def _serve(connection: Connection) -> None:
    """Worker loop: run each task sent, send back its result; stop at None."""
    ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG: a killed batch leaves nothing running
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    assert _job is not None
    connection.send(_prepare() if _prepare is not None else None)  # first message: ready (None) or why not
    while (task := connection.recv()) is not None:
        connection.send(_job(task))


class GradingPool(Generic[Task]):
    """Worker processes forked from this one, each given one task at a time over its own pipe."""

    def __init__(self, job: Callable[[Task], Any], workers: int, prepare: Callable[[], str | None] | None = None) -> None:
        global _job, _prepare
        _job, _prepare = job, prepare
        self.size = max(1, workers)
        self.workers: dict[Connection, Any] = {}
        self.unready: set[Connection] = set()
        """Workers still preparing: they get a task once they say they are ready."""

    def _spawn(self) -> Connection:
        """Start one worker; returns the parent's end of its pipe."""
        ours, theirs = _context.Pipe()
        process = _context.Process(target=_serve, args=(theirs,), daemon=True)
        process.start()
        theirs.close()
        self.workers[ours] = process
        self.unready.add(ours)
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
        while (busy or self.unready) and not stop.is_set():
            for connection in wait(list(busy) + list(self.unready), timeout=0.2):
                if connection in self.unready:
                    self._ready(connection)
                    if pending:
                        hand_out(connection)
                    continue
                number, _ = busy.pop(connection)
                try:
                    result = connection.recv()
                except (EOFError, OSError):
                    process = self.workers.pop(connection)
                    process.join()
                    connection.close()
                    self._spawn()  # gets a task once it has prepared
                    yield tasks[number], Lost(f"the grading process died (exit code {process.exitcode})")
                    continue
                if pending and not stop.is_set():
                    hand_out(connection)  # before the caller records this result, so the worker never waits for it
                yield tasks[number], result
            slow = sum(1 for _, started in busy.values() if time.monotonic() - started > SLOW_TASK_S)
            while len(pending) > len(self.unready) and not stop.is_set() and len(busy) + len(self.unready) < self.size + min(
                    slow, MAX_EXTRA_PER_WORKER * self.size):
                self._spawn()
            if not pending and not busy:
                break

    def _ready(self, connection: Connection) -> None:
        """Read a preparing worker's first message; WorkerRefused with its reason if it cannot grade."""
        self.unready.discard(connection)
        try:
            refused = connection.recv()
        except (EOFError, OSError):
            refused = "a grading process died while preparing"
        if refused is not None:
            raise WorkerRefused(str(refused))

    def close(self) -> None:
        """Stop every worker now; each takes its sandbox with it."""
        for process in self.workers.values():
            if process.is_alive():
                process.kill()
        for connection, process in self.workers.items():
            process.join()
            connection.close()
        self.workers.clear()
