"""Grade submissions on a Dask distributed cluster: one task per submission, results taken as they finish.

Each Dask worker process prepares once (a worker plugin: its own bubblewrap sandbox, the checks warmed) and refuses,
as the local pool does, without a sandbox. The nbgrader process reads each notebook itself (a worker on another
machine cannot reach the instructor's disk), keeps a bounded number of submissions in flight, and records every
result it gets back: it alone writes the gradebook and autograded/. The scheduler reruns the task of a worker lost
mid-batch elsewhere, and each task's result is taken exactly once, so nothing is lost or recorded twice.
"""
from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator, Sequence
from typing import Any

from distributed import Client, WorkerPlugin, as_completed, get_worker

from autograde.grading.cluster import ClusterUnavailable
from autograde.grading.pool import Lost
from autograde.grading.submission_grader import (
    GradedSubmission,
    GraderSetup,
    SubmissionGrader,
    SubmissionTask,
)
from autograde.grading.submitted_folders import UnreadableNotebook

PLUGIN = "autograde-sandbox"
CONNECT_S = 5
"""Seconds to reach the scheduler before giving up with one line."""
IN_FLIGHT_PER_THREAD = 3
"""Submissions handed to the cluster per worker thread at once (their notebooks are held in memory until graded)."""
RETRIES = 2
"""Times the scheduler may rerun a submission whose worker was lost or could not grade it."""
UNREACHABLE = ("cannot reach the Dask scheduler at {address} ({why}); start it (`dask scheduler`) or fix "
               "c.Sandbox.cluster in grader_config.py")
NO_WORKERS = ("the Dask scheduler at {address} has no workers; start some with `dask worker {address} --nthreads 1` "
              "(c.Sandbox.cluster in grader_config.py)")


class SandboxPlugin(WorkerPlugin):
    """Set-up of each Dask worker process: a grader for this batch, its sandbox started and its checks warmed."""

    def __init__(self, grader_setup: GraderSetup) -> None:
        self.grader_setup = grader_setup
        self.grader: SubmissionGrader | None = None

    def setup(self, worker: Any) -> None:
        """Prepare, or refuse in one line (the batch stops) when this worker has no sandbox."""
        self.grader = SubmissionGrader(self.grader_setup)
        refused = self.grader.prepare()
        if refused is not None:
            raise ClusterUnavailable(f"Dask worker {worker.address}: {refused}")


def grade_on_worker(task: SubmissionTask) -> GradedSubmission:
    """The task run on a Dask worker: grade with the worker's prepared grader."""
    plugin = get_worker().plugins[PLUGIN]
    if plugin.grader is None:
        raise ClusterUnavailable("this Dask worker did not prepare a sandbox")
    return plugin.grader.grade(task)


class DaskPool:
    """The cluster counterpart of GradingPool: start, results as they finish, close."""

    def __init__(self, address: str, grader_setup: GraderSetup, notebook_bytes: int) -> None:
        self.address, self.grader_setup, self.notebook_bytes = address, grader_setup, notebook_bytes
        self.client: Client | None = None
        self.in_flight: dict[Any, SubmissionTask] = {}

    def start(self, tasks: int) -> None:
        """Connect, and have every worker prepare (ClusterUnavailable with one line when that is not possible)."""
        try:
            self.client = Client(self.address, timeout=f"{CONNECT_S}s", set_as_default=False)
        except (OSError, TimeoutError, ValueError) as error:
            raise ClusterUnavailable(UNREACHABLE.format(address=self.address, why=str(error).splitlines()[0][:200])) from None
        if not self.client.scheduler_info()["workers"]:
            raise ClusterUnavailable(NO_WORKERS.format(address=self.address))
        try:
            self.client.register_plugin(SandboxPlugin(self.grader_setup), name=PLUGIN)
        except ClusterUnavailable:
            raise
        except Exception as error:  # the plugin's own refusal comes back wrapped by some versions of distributed
            raise ClusterUnavailable(str(error).splitlines()[0][:300]) from None

    def results(self, tasks: Sequence[SubmissionTask], stop: threading.Event) -> Iterator[tuple[SubmissionTask, Any]]:
        """Each task with its result as soon as it is done (a task the cluster could not grade as Lost)."""
        assert self.client is not None
        threads = sum(worker["nthreads"] for worker in self.client.scheduler_info()["workers"].values())
        waiting = list(reversed(tasks))
        finished = as_completed(loop=self.client.loop)
        ready: list[tuple[SubmissionTask, Any]] = []

        def hand_out() -> None:
            while waiting and len(self.in_flight) < max(1, threads) * IN_FLIGHT_PER_THREAD and not stop.is_set():
                task = waiting.pop()
                try:
                    task = task.read(self.notebook_bytes)
                except UnreadableNotebook as unreadable:
                    ready.append((task, GradedSubmission(task.assignment, task.student, ungradable=str(unreadable))))
                    continue
                future = self.client.submit(grade_on_worker, task, key=f"autograde-{uuid.uuid4().hex}", pure=False,
                                            retries=RETRIES)
                self.in_flight[future] = task
                finished.add(future)

        hand_out()
        while ready or self.in_flight:
            while ready:
                yield ready.pop()
            if stop.is_set() or not self.in_flight:
                break
            future = next(finished)
            task = self.in_flight.pop(future)
            hand_out()  # before the caller records this result, so the cluster never waits for it
            yield task, self._result(future)

    @staticmethod
    def _result(future: Any) -> Any:
        """The task's GradedSubmission, or Lost with the reason the cluster gave."""
        try:
            return future.result()
        except Exception as error:  # a worker that kept dying, or refused: the submission is not graded this run
            return Lost(f"the cluster could not grade it ({type(error).__name__}: {str(error).splitlines()[0][:200]})")

    def close(self) -> None:
        """Cancel what is still in flight and disconnect."""
        if self.client is not None:
            if self.in_flight:
                self.client.cancel(list(self.in_flight))
            self.client.close()
            self.client = None
