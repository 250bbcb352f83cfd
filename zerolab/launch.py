"""Spawn N ranks joined by torch.distributed, collect one result from each, and never hang on a failed rank."""
from __future__ import annotations

import multiprocessing
import os
import socket
import time
import traceback
from collections.abc import Callable
from datetime import timedelta
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

from zerolab.errors import RankFailed

STOP_GRACE_S = 3.0
"""How long a rank gets to exit after SIGTERM before it is killed."""
FAILURE_GRACE_S = 1.0
"""After a first failure, how long to listen for the others, so the root cause is reported, not its echo."""


def _free_port() -> int:
    """A TCP port on localhost that was free a moment ago (a race the start-up retry covers)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def describe_exception(exc: BaseException) -> str:
    """One line: type, first line of the message, the innermost frame outside torch, and any notes."""
    lines = [line for line in str(exc).splitlines() if line.strip()]
    text = f"{type(exc).__name__}: {lines[0][:300] if lines else '(no message)'}"
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f"{os.sep}torch{os.sep}" not in f.filename]
    where = f" at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno}" if frames else ""
    notes = "; ".join(getattr(exc, "__notes__", []))
    return f"{text}{where}" + (f" ({notes})" if notes else "")


def _rank_main(
    rank: int, world_size: int, port: int, backend: str, timeout_s: float,
    target: Callable[..., Any], args: tuple[Any, ...], conn: Connection,
) -> None:
    """Child process: join the group with a timeout, run the target; report ("ready"), then "done" or "failed"."""
    import torch
    import torch.distributed as dist

    try:
        torch.set_num_threads(max(1, (os.cpu_count() or 1) // world_size))  # ranks share the cores
        dist.init_process_group(
            backend, init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world_size,
            timeout=timedelta(seconds=timeout_s),
        )
        conn.send(("ready", None))
        conn.send(("done", target(rank, world_size, *args)))
    except BaseException as exc:  # noqa: BLE001 - every failure must reach the parent as one line
        conn.send(("failed", (time.time(), describe_exception(exc))))
    finally:
        if dist.is_initialized():
            dist.destroy_process_group()
        conn.close()


class _Ranks:
    """The parent's view of the spawned ranks: who joined the group, who reported a result, who failed."""

    def __init__(self, processes: list[BaseProcess], conns: list[Connection]) -> None:
        self.processes = processes
        self.conns = conns
        self.ready: set[int] = set()
        self.results: dict[int, Any] = {}
        self.failures: list[tuple[tuple[int, float], RankFailed]] = []
        """(sort key, error): a death sorts before any exception, exceptions by when they were raised."""
        self.failed: set[int] = set()

    def pending(self) -> list[int]:
        """Ranks that have neither reported a result nor failed."""
        return [r for r in range(len(self.processes)) if r not in self.results and r not in self.failed]

    def handles(self) -> dict[Any, int]:
        """Pipe and process sentinel of every pending rank → its rank."""
        pending = self.pending()
        return {self.conns[r]: r for r in pending} | {self.processes[r].sentinel: r for r in pending}

    def _read(self, rank: int) -> None:
        """Take every message `rank` has sent so far."""
        while rank not in self.failed and self.conns[rank].poll():
            try:
                kind, payload = self.conns[rank].recv()
            except EOFError:
                return
            if kind == "ready":
                self.ready.add(rank)
            elif kind == "done":
                self.results[rank] = payload
            else:
                raised_at, cause = payload
                self._fail(rank, (1, raised_at), RankFailed.raised(rank, cause, at_startup=rank not in self.ready))

    def _fail(self, rank: int, key: tuple[int, float], error: RankFailed) -> None:
        self.failed.add(rank)
        self.failures.append((key, error))

    def update(self, rank: int) -> None:
        """Read `rank`'s messages and notice if its process ended without a result."""
        self._read(rank)
        process = self.processes[rank]
        if rank in self.results or rank in self.failed or process.is_alive():
            return
        process.join()
        self._read(rank)  # a result may have arrived just before the exit
        if rank not in self.results and rank not in self.failed:
            died = RankFailed.exited(rank, process.exitcode, at_startup=rank not in self.ready)
            self._fail(rank, (0, time.time()), died)

    def root_failure(self) -> RankFailed | None:
        """The failure most likely to be the cause: a rank that died, else the earliest exception."""
        return min(self.failures, key=lambda f: f[0])[1] if self.failures else None


def _stop(processes: list[BaseProcess]) -> None:
    """Terminate what is still running, then kill what ignores it."""
    for p in processes:
        if p.is_alive():
            p.terminate()
    end = time.monotonic() + STOP_GRACE_S
    for p in processes:
        p.join(max(0.0, end - time.monotonic()))
        if p.is_alive():
            p.kill()
            p.join()


def _launch_once(
    target: Callable[..., Any], world_size: int, args: tuple[Any, ...],
    backend: str, timeout_s: float, deadline_s: float,
) -> list[Any]:
    """One attempt: spawn, then wait on every rank's pipe and process until all report, one fails, or time runs out."""
    ctx = multiprocessing.get_context("spawn")
    port = _free_port()
    processes, conns = [], []
    for rank in range(world_size):
        receiver, sender = ctx.Pipe(duplex=False)
        process = ctx.Process(
            target=_rank_main, args=(rank, world_size, port, backend, timeout_s, target, args, sender),
            name=f"zerolab-rank{rank}", daemon=True,
        )
        process.start()
        sender.close()
        processes.append(process)
        conns.append(receiver)

    ranks = _Ranks(processes, conns)
    deadline = time.monotonic() + deadline_s
    listening_for_echoes = False
    try:
        while ranks.pending():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            handles = ranks.handles()
            for handle in wait(list(handles), timeout=remaining):
                ranks.update(handles[handle])
            if ranks.failures and not listening_for_echoes:
                deadline = min(deadline, time.monotonic() + FAILURE_GRACE_S)
                listening_for_echoes = True
        failure = ranks.root_failure()
        if failure is not None:
            raise failure
        if ranks.pending():
            raise RankFailed.timed_out(ranks.pending(), deadline_s, at_startup=len(ranks.ready) < world_size)
        return [ranks.results[r] for r in range(world_size)]
    finally:
        _stop(processes)
        for conn in conns:
            conn.close()


def launch(
    target: Callable[..., Any], world_size: int, args: tuple[Any, ...] = (), *,
    backend: str = "gloo", timeout_s: float = 60.0, deadline_s: float = 600.0,
) -> list[Any]:
    """Run `target(rank, world_size, *args)` on `world_size` spawned ranks and return their results by rank.

    `timeout_s` bounds joining the group and every collective inside the ranks; `deadline_s` bounds the whole run
    from the parent, which stops all ranks soon after one fails. A failure before every rank joined the group
    (gloo occasionally aborts at start-up, or the port was taken) is retried once on a fresh port.
    """
    try:
        return _launch_once(target, world_size, args, backend, timeout_s, deadline_s)
    except RankFailed as failure:
        if not failure.at_startup:
            raise
        return _launch_once(target, world_size, args, backend, timeout_s, deadline_s)
