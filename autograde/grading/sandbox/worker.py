"""The trusted end of one sandbox: start the zygote, hand it jobs, read their records under deadlines."""
from __future__ import annotations

import ctypes
import json
import os
import select
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from typing import Any

from autograde.grading.sandbox.bwrap import SandboxUnavailable, sandbox_command
from autograde.grading.sandbox.job import Ending, Job, JobOutcome, StepResult
from autograde.grading.sandbox.records import (
    ESCAPE_FACTOR,
    Done,
    ForgedRecord,
    RecordReader,
    Started,
)
from autograde.grading.sandbox.settings import Sandbox

GRACE_S = 2.0
"""Extra seconds past a step's own limit before its process is killed (the in-process alarm comes first)."""
START_S = 30.0
"""Seconds a fresh sandbox may take to import IPython and start the first job."""
SUPERVISOR_CODES = {0: "finished", 1: "died", 2: "processes", 3: "killed"}
"""kernel.py's supervisor exit codes."""
UNSANDBOXED_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
                   "MPLBACKEND": "module://matplotlib_inline.backend_inline"}


def _die_with_parent() -> None:
    """In the child before exec: SIGKILL when the grader process dies, so a killed batch leaves no sandbox behind."""
    ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG


class SandboxWorker:
    """One warm zygote in its own bubblewrap sandbox; runs one job at a time; restarts itself when broken."""

    def __init__(self, settings: Sandbox, isolate: bool = True) -> None:
        self.settings, self.isolate = settings, isolate
        self.process: subprocess.Popen[bytes] | None = None
        self.control: socket.socket | None = None
        self.log = tempfile.TemporaryFile()
        self.lock = threading.Lock()
        """One job at a time: the zygote runs jobs one after another."""

    def start(self) -> None:
        """Start bubblewrap and the zygote; it imports IPython while the first job is being prepared."""
        command, packages = sandbox_command(self.isolate)
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        mode = "isolate" if self.isolate else "no-isolation"
        self.log.seek(0)
        self.log.truncate()
        self.process = subprocess.Popen(
            [*command, str(theirs.fileno()), mode, *packages], pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL,
            stdout=self.log, stderr=self.log, preexec_fn=_die_with_parent,
            env=None if self.isolate else UNSANDBOXED_ENV,
        )
        theirs.close()
        self.control = ours

    def close(self) -> None:
        """Stop the sandbox and everything in it."""
        if self.control is not None:
            self.control.close()
            self.control = None
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def startup_error(self) -> str:
        """The first line the sandbox printed before dying, for a one-line error."""
        self.log.seek(0)
        lines = [line.strip() for line in self.log.read().decode("utf-8", "replace").splitlines() if line.strip()]
        return lines[-1] if lines else "the sandbox exited without a message"

    def check(self) -> None:
        """Run an empty job; SandboxUnavailable with bubblewrap's own words when the sandbox cannot start."""
        outcome = self.run(Job(steps=()))
        if outcome.ending != "finished":
            gone = self.process is None or self.process.poll() is not None
            raise SandboxUnavailable(self.startup_error() if gone else outcome.reason or outcome.ending)

    def run(self, job: Job) -> JobOutcome:
        """Run a job (callers in several threads wait their turn); the outcome says which steps finished and how."""
        with self.lock:
            return self._run(job)

    def _run(self, job: Job) -> JobOutcome:
        """Run a job on this sandbox, starting it first if needed."""
        if self.process is None or self.process.poll() is not None:
            self.close()
            self.start()
        assert self.control is not None
        job_in, job_in_writer = os.pipe()
        results_reader, results = os.pipe()
        request = {"op": "job", "processes": self.settings.max_processes, "scratch_bytes": self.settings.scratch_bytes,
                   "memory_bytes": self.settings.memory_bytes, "cpu_seconds": self.settings.cpu_seconds,
                   "file_bytes": self.settings.file_bytes, "steps": len(job.steps)}
        try:
            socket.send_fds(self.control, [json.dumps(request).encode()], [job_in, results])
        except OSError:
            for fd in (job_in, job_in_writer, results_reader, results):
                os.close(fd)
            self.close()
            return JobOutcome({}, "died", None, f"sandbox could not start: {self.startup_error()}")
        os.close(job_in)
        os.close(results)
        feeder = threading.Thread(target=_feed, args=(job_in_writer, job.to_bytes()), daemon=True)
        feeder.start()
        try:
            return self._collect(job, results_reader)
        except BaseException:
            self.close()  # whatever went wrong, the next job must not meet this one's leftovers
            raise
        finally:
            os.close(results_reader)
            feeder.join(timeout=1)

    def _collect(self, job: Job, reader: int) -> JobOutcome:
        """Read records until the job's process is gone, killing it when a deadline passes or it breaks the protocol.

        After a job that broke the protocol the sandbox is thrown away, so the next job starts in a fresh one.
        """
        results: dict[int, StepResult] = {}
        running: int | None = None
        stopped: tuple[Ending, str] | None = None
        started = time.monotonic()
        job_deadline = float("inf")  # set when the first step starts: starting a cold sandbox is not the student's time
        deadline = started + START_S
        records = RecordReader(job.steps, job.output_bytes)
        received = 0
        budget = job.output_bytes * ESCAPE_FACTOR * (len(job.steps) + 1) + (1 << 20)
        while True:
            timeout = min(deadline, job_deadline) - time.monotonic()
            if timeout <= 0 and stopped is None:
                late = "sandbox did not start" if running is None and not results else "timeout"
                stopped = ("timeout", late)
                self._kill_job()
                deadline = job_deadline = time.monotonic() + GRACE_S
                continue
            if timeout <= 0:
                self.close()  # the zygote did not stop the job: throw the whole sandbox away
                break
            ready, _, _ = select.select([reader], [], [], timeout)
            if not ready:
                continue
            chunk = os.read(reader, 1 << 16)
            if not chunk:
                break
            received += len(chunk)
            if stopped is not None:
                continue  # the job is being killed: what it still writes is not read
            try:
                if received > budget:
                    raise ForgedRecord("printed more output than the limit allows")
                events = records.feed(chunk)
            except ForgedRecord as forged:
                stopped = ("output" if received > budget else "forged", str(forged))
                self._kill_job()
                deadline = job_deadline = time.monotonic() + GRACE_S
                events = forged.events  # what came before the bad line counts, however the bytes were cut
            for event in events:
                if isinstance(event, Started):
                    running = event.step
                elif isinstance(event, Done):
                    results[event.step], running = event.result, None
                if stopped is not None:
                    continue  # the job is being killed: its deadlines stay as they are
                deadline = time.monotonic() + (job.steps[event.step].timeout if isinstance(event, Started) else 0) + GRACE_S
                if isinstance(event, Started) and job_deadline == float("inf"):
                    job_deadline = time.monotonic() + min(job.time_limit, self.settings.submission_timeout) + GRACE_S
        ending = self._ended()
        if stopped is not None and stopped[0] == "forged":
            self.close()  # a fresh sandbox for the next job: nothing of this one is trusted
        if stopped is not None:
            return JobOutcome(results, stopped[0], running, stopped[1])
        if len(results) == len(job.steps):
            return JobOutcome(results, "finished", None)
        reasons = {"processes": f"started more than {self.settings.max_processes} processes",
                   "died": "the process running it died"}
        return JobOutcome(results, ending if ending in reasons else "died", running, reasons.get(ending, reasons["died"]))

    def _kill_job(self) -> None:
        """Ask the zygote to kill the running job."""
        try:
            assert self.control is not None
            self.control.send(b'{"op": "kill"}')
        except (OSError, AssertionError):
            self.close()

    def _ended(self) -> str:
        """The zygote's word on how the job's process ended; "died" when it says nothing in time."""
        if self.control is None:
            return "died"
        ready, _, _ = select.select([self.control], [], [], GRACE_S)
        message = self.control.recv(4096) if ready else b""
        if not message:
            self.close()
            return "died"
        try:
            return SUPERVISOR_CODES.get(json.loads(message).get("status"), "died")
        except ValueError:
            return "died"


def _feed(fd: int, payload: bytes) -> None:
    """Write the job to the sandbox's stdin and close it; a sandbox that died early just stops the writing."""
    try:
        with os.fdopen(fd, "wb") as pipe:
            pipe.write(payload)
    except OSError:
        pass


NO_SANDBOX = ("grading refused: student code would run without a sandbox ({why}); install bubblewrap "
              "(apt-get install bubblewrap) or, on a machine you can throw away, set "
              "c.Sandbox.allow_unsandboxed = True in grader_config.py")
UNSANDBOXED = "grading WITHOUT a sandbox ({why}): c.Sandbox.allow_unsandboxed is set, student code runs with your rights"
_shared: dict[int, SandboxWorker] = {}


def shared_worker(settings: Sandbox, log: Any = None, meanwhile: Callable[[], Any] | None = None) -> SandboxWorker:
    """This process's sandbox, started and checked on first use; SandboxUnavailable with a one-line reason if refused.

    `meanwhile` runs while a new sandbox starts (it imports IPython in its own process), before the check waits on it.
    """
    pid = os.getpid()
    if pid not in _shared:
        worker = SandboxWorker(settings)
        try:
            worker.start()
            if meanwhile is not None:
                meanwhile()
            worker.check()
        except SandboxUnavailable as unavailable:
            worker.close()
            if not settings.allow_unsandboxed:
                raise SandboxUnavailable(NO_SANDBOX.format(why=unavailable)) from None
            if log is not None:
                log.warning(UNSANDBOXED.format(why=unavailable))
            worker = SandboxWorker(settings, isolate=False)
            worker.check()
        _shared[pid] = worker
    _shared[pid].settings = settings  # limits are sent with each job, so the latest settings apply
    return _shared[pid]
