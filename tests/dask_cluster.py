"""A real Dask cluster on 127.0.0.1 for tests: `dask scheduler` and two `dask worker` processes, each in its own
folder as if on other machines; everything listens on loopback and stops by itself when the tests are gone."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

BIN = Path(sys.executable).parent
IDLE_S = 600
"""The scheduler shuts itself down after this long with no client; workers follow it."""


def free_port() -> int:
    """A TCP port on the loopback address that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class DaskCluster:
    """The running processes and the scheduler's address."""

    folder: Path
    address: str = ""
    scheduler: subprocess.Popen | None = None
    workers: dict[str, subprocess.Popen] = field(default_factory=dict)

    def start(self, workers: int = 2) -> DaskCluster:
        """Start the scheduler, then `workers` workers, and wait until all have joined."""
        port = free_port()
        self.address = f"tcp://127.0.0.1:{port}"
        self.scheduler = self._spawn("scheduler", "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                     "--no-dashboard", "--idle-timeout", str(IDLE_S))
        for number in range(workers):
            self.add_worker(f"w{number}")
        self.wait_for(workers)
        return self

    def add_worker(self, name: str) -> None:
        """One more worker (no nanny: killing it is losing the machine), with one thread and its own folder."""
        (self.folder / name).mkdir(parents=True, exist_ok=True)
        self.workers[name] = self._spawn(name, "worker", self.address, "--nthreads", "1", "--no-nanny", "--name", name,
                                         "--no-dashboard", "--host", "127.0.0.1", "--death-timeout", "30",
                                         "--local-directory", str(self.folder / name))

    def _spawn(self, name: str, *command: str) -> subprocess.Popen:
        """A dask command in its own folder, its output in a log there."""
        (self.folder / name).mkdir(parents=True, exist_ok=True)
        log = (self.folder / name / "log.txt").open("w")
        return subprocess.Popen([str(BIN / "dask"), *command], cwd=self.folder / name, stdout=log, stderr=subprocess.STDOUT,
                                env=dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}"), start_new_session=True)

    def wait_for(self, workers: int, timeout_s: float = 90) -> None:
        """Wait until the scheduler counts `workers` workers."""
        from distributed import Client

        deadline = time.monotonic() + timeout_s
        with Client(self.address, timeout="30s", set_as_default=False) as client:
            while len(client.scheduler_info()["workers"]) < workers:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"dask workers did not join: {self.log('w0')[-1500:]}")
                time.sleep(0.2)

    def kill_worker(self, name: str) -> None:
        """SIGKILL one worker and everything it started (its sandbox): a machine lost mid-batch."""
        os.killpg(self.workers[name].pid, signal.SIGKILL)
        self.workers[name].wait()

    def log(self, name: str) -> str:
        """What one process printed."""
        return (self.folder / name / "log.txt").read_text(encoding="utf-8", errors="replace")

    def stop(self) -> None:
        """Stop every process of the cluster."""
        for process in [*self.workers.values(), self.scheduler]:
            if process is not None and process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
