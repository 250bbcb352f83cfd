"""What each rank runs: every stage on the same model, measured on a steady step."""
from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any

import torch

from zerolab.comm_counter import CollectiveCounter
from zerolab.formulas import STAGES
from zerolab.memory import held_bytes, track_peak
from zerolab.parallelize import Parallelized, build_model, parallelize

WARMUP_STEPS = 2
"""Steps before measuring: the first builds DDP's buckets, construction broadcasts, Adam creates its state."""
BATCH_SIZE = 8
"""Rows per rank per step; small, so activations stay far below model state."""


def train_step(run: Parallelized, batch: torch.Tensor, after_backward: Callable[[], None] = lambda: None) -> None:
    """One forward, backward and AdamW step; `after_backward` sees every model state alive at once."""
    with run.mixed_precision(batch.device):
        output = run.model(batch)
    output.float().square().mean().backward()
    after_backward()
    run.optimizer.step()
    run.optimizer.zero_grad(set_to_none=True)


def measure_stage(stage: str, layers: int, hidden: int, device: torch.device, rank: int) -> dict[str, Any]:
    """Held bytes and traffic of one steady step, then the peak memory of the next one."""
    run = parallelize(stage, build_model(layers, hidden, device), device)
    batch = torch.randn(BATCH_SIZE, hidden, device=device, generator=torch.Generator(device).manual_seed(rank))
    for _ in range(WARMUP_STEPS):
        train_step(run, batch)
    held: dict[str, int] = {}
    with CollectiveCounter() as counter:
        train_step(run, batch, after_backward=lambda: held.update(held_bytes(run.model, run.optimizer)))
    with track_peak(run.model, run.optimizer, batch, device) as peak:
        train_step(run, batch)
    return {
        "held_bytes": held, "peak_bytes": peak.total, "peak_breakdown": peak.breakdown, "traffic": counter.to_dict()
    }


def measure_rank(rank: int, world_size: int, layers: int, hidden: int, device_type: str) -> dict[str, Any]:
    """Run every stage on this rank; the launcher's target."""
    device = torch.device("cpu")
    if device_type == "cuda":
        device = torch.device("cuda", rank % torch.cuda.device_count())
        torch.cuda.set_device(device)
    params = sum(p.numel() for p in build_model(layers, hidden, device).parameters())
    stages = {}
    for stage in STAGES:
        try:
            stages[stage] = measure_stage(stage, layers, hidden, device, rank)
        except Exception as exc:
            exc.add_note(f"stage {STAGES[stage].label}")
            raise
        gc.collect()  # DDP and FSDP hooks form reference cycles; free this stage before the next is built
    return {"rank": rank, "params": params, "stages": stages}
