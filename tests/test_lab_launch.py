"""The launcher under faults: a crashing, dying or hanging rank fails the run with one line, never a hang."""
from __future__ import annotations

import os
import time

import pytest

pytest.importorskip("torch", reason="the lab's launcher spawns torch.distributed ranks; pip install -e '.[lab]'")

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402

from zerolab import launch as launch_module  # noqa: E402
from zerolab.errors import RankFailed  # noqa: E402
from zerolab.launch import launch  # noqa: E402


def _rank_sum(rank: int, world_size: int) -> float:
    """All-reduce each rank's number; every rank returns the total."""
    t = torch.tensor([float(rank + 1)])
    dist.all_reduce(t)
    return t.item()


def _rank1_raises(rank: int, world_size: int) -> None:
    """Rank 1 raises while rank 0 waits for it in a collective."""
    if rank == 1:
        raise ValueError("injected fault")
    dist.all_reduce(torch.ones(1))


def _rank1_dies(rank: int, world_size: int) -> None:
    """Rank 1's process ends abruptly, without any Python cleanup."""
    if rank == 1:
        os._exit(3)
    dist.all_reduce(torch.ones(1))


def _rank1_hangs(rank: int, world_size: int) -> None:
    """Rank 1 never reaches the collective rank 0 waits in."""
    if rank == 1:
        time.sleep(600)
    dist.all_reduce(torch.ones(1))


def test_results_come_back_in_rank_order() -> None:
    """Does every rank's result come back, in rank order, after a real collective?"""
    assert launch(_rank_sum, 2) == [3.0, 3.0]


def test_crashing_rank_is_named_with_its_cause() -> None:
    """Is a rank that raises reported by number and cause, quickly, while its peer is stuck in a collective?"""
    start = time.monotonic()
    with pytest.raises(RankFailed) as failure:
        launch(_rank1_raises, 2, deadline_s=60)
    assert time.monotonic() - start < 30
    message = str(failure.value)
    assert message.startswith("rank 1 failed: ValueError: injected fault")
    assert "test_lab_launch.py" in message and "\n" not in message


def test_dying_rank_is_reported_not_its_peers_echo() -> None:
    """Is a rank whose process dies reported (exit code), rather than the peer that lost its connection?"""
    with pytest.raises(RankFailed, match=r"^rank 1 exited with code 3 before reporting a result"):
        launch(_rank1_dies, 2, deadline_s=60)


def test_hanging_rank_hits_the_deadline() -> None:
    """Does a rank that never answers stop the run at the parent's deadline instead of hanging it?"""
    start = time.monotonic()
    with pytest.raises(RankFailed, match=r"still running after the 5 s deadline"):
        launch(_rank1_hangs, 2, timeout_s=300, deadline_s=5)
    assert time.monotonic() - start < 20


@pytest.mark.parametrize(
    ("at_startup", "message", "attempts_made"),
    [
        (True, "while joining the process group", 2),
        (False, "^rank 1 failed: ValueError: boom$", 1),
    ],
    ids=["startup-failure-retried-once", "later-failure-not-retried"],
)
def test_only_startup_failures_are_retried(monkeypatch: pytest.MonkeyPatch, at_startup: bool, message: str,
                                           attempts_made: int) -> None:
    """Is a failure while joining the group retried exactly once, and one mid-run reported at once?"""
    attempts = []

    def fails(*args: object) -> list[object]:
        attempts.append(args)
        cause = "RuntimeError: Connection reset by peer" if at_startup else "ValueError: boom"
        raise RankFailed.raised(0 if at_startup else 1, cause, at_startup=at_startup)

    monkeypatch.setattr(launch_module, "_launch_once", fails)
    with pytest.raises(RankFailed, match=message):
        launch(_rank_sum, 2)
    assert len(attempts) == attempts_made
