"""Run trusted code over student content in a forked child with a memory and time limit, so a bomb costs only that call.

Parsing a student's code or text happens in the grading process itself; a 5 MB cell of `a;` made it grow to 4.4 GiB
for a minute. Here the work runs in a child of the calling process (inputs pass by fork, the result comes back
pickled through a pipe), under RLIMIT_AS and a wall-clock limit; the caller gets the result or BoundExceeded.
"""
from __future__ import annotations

import ctypes
import os
import pickle
import resource
import select
import signal
import time
from collections.abc import Callable
from typing import TypeVar

Result = TypeVar("Result")
RESULT_BYTES = 16 << 20
"""Largest pickled result read back."""


class BoundExceeded(RuntimeError):
    """The child ran out of memory or time, or died; the message says which, for the grader."""


def call_bounded(function: Callable[[], Result], *, memory_bytes: int, seconds: float) -> Result:
    """`function()` computed in a forked child under `memory_bytes` of address space and `seconds` of wall time."""
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child
        os.close(reader)
        ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG: it dies with the process that asked
        code = 0
        try:
            resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
            resource.setrlimit(resource.RLIMIT_CPU, (int(seconds) + 1, int(seconds) + 1))
            payload = pickle.dumps((True, function()))
        except MemoryError:
            payload, code = pickle.dumps((False, "ran out of memory")), 1
        except BaseException as error:  # noqa: BLE001 - any failure goes back to the parent as data
            payload, code = pickle.dumps((False, f"failed ({type(error).__name__})")), 1
        with os.fdopen(writer, "wb") as pipe:
            pipe.write(payload[:RESULT_BYTES])
        os._exit(code)
    os.close(writer)
    try:
        return _collect(child, reader, seconds, memory_bytes)
    finally:
        os.close(reader)


def _collect(child: int, reader: int, seconds: float, memory_bytes: int) -> Result:
    """Read the child's pickled answer before the deadline, then reap it; BoundExceeded otherwise."""
    deadline = time.monotonic() + seconds
    chunks: list[bytes] = []
    size = 0
    while (left := deadline - time.monotonic()) > 0:
        ready, _, _ = select.select([reader], [], [], left)
        if not ready:
            break
        chunk = os.read(reader, 1 << 16)
        if not chunk:
            os.waitpid(child, 0)
            return _unpickled(b"".join(chunks), memory_bytes)
        size += len(chunk)
        if size > RESULT_BYTES:
            break
        chunks.append(chunk)
    os.kill(child, signal.SIGKILL)
    os.waitpid(child, 0)
    raise BoundExceeded(f"took longer than {seconds:g} s")


def _unpickled(payload: bytes, memory_bytes: int) -> Result:
    """The child's result, or BoundExceeded with its reason (a child killed by the kernel sends nothing)."""
    if not payload:
        raise BoundExceeded(f"died (memory limit {memory_bytes >> 20} MiB)")
    ok, value = pickle.loads(payload)  # noqa: S301 - written by our own forked child, never by student code
    if not ok:
        raise BoundExceeded(f"{value} (limits {memory_bytes >> 20} MiB)")
    return value
