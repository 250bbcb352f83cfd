"""Per-rank memory: bytes held for parameters, gradients and optimizer state, and the peak of one step."""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import torch
from torch import nn
from torch.distributed._tools.fsdp2_mem_tracker import FSDPMemTracker
from torch.distributed._tools.mem_tracker import MemTracker
from torch.distributed.fsdp import FSDPModule
from torch.distributed.optim import ZeroRedundancyOptimizer
from torch.distributed.tensor import DTensor


def _local(t: torch.Tensor) -> torch.Tensor:
    """The rank-local tensor: a DTensor's shard, or the tensor itself."""
    return t.to_local() if isinstance(t, DTensor) else t


def storage_bytes(tensors: Iterable[torch.Tensor]) -> int:
    """Bytes of the distinct storages behind the tensors' local parts, so views and padding count exactly once."""
    storages: dict[int, int] = {}
    for t in tensors:
        st = _local(t).untyped_storage()
        storages[st.data_ptr()] = st.nbytes()
    return sum(storages.values())


def local_optimizer(optimizer: torch.optim.Optimizer) -> torch.optim.Optimizer:
    """The optimizer that holds this rank's state: ZeroRedundancyOptimizer keeps its shard's in `.optim`."""
    return optimizer.optim if isinstance(optimizer, ZeroRedundancyOptimizer) else optimizer


def _optimizer_states(optimizer: torch.optim.Optimizer) -> Iterator[torch.Tensor]:
    """Every tensor this rank's optimizer holds."""
    for state in local_optimizer(optimizer).state.values():
        yield from (v for v in state.values() if isinstance(v, torch.Tensor))


def held_bytes(model: nn.Module, optimizer: torch.optim.Optimizer) -> dict[str, int]:
    """Bytes this rank holds right now for each model state: {"param", "grad", "optimizer"}."""
    params = list(model.parameters())
    return {
        "param": storage_bytes(params),
        "grad": storage_bytes(p.grad for p in params if p.grad is not None),
        "optimizer": storage_bytes(_optimizer_states(optimizer)),
    }


@dataclass
class PeakMemory:
    """The peak of one tracked region: total bytes and, on CPU, bytes per tracker category at that moment."""

    total: int = 0
    """Peak bytes."""
    breakdown: dict[str, int] = field(default_factory=dict)
    """Tracker category (Parameter, Gradient, Unsharded Param, Activation, …) → bytes at the peak."""


@contextmanager
def track_peak(
    model: nn.Module, optimizer: torch.optim.Optimizer, batch: torch.Tensor, device: torch.device
) -> Iterator[PeakMemory]:
    """Measure the peak memory of the enclosed step: allocator high-water mark on CUDA, torch's trackers on CPU."""
    peak = PeakMemory()
    if device.type == "cuda":
        torch.cuda.synchronize(device)
        torch.cuda.reset_peak_memory_stats(device)
        yield peak
        torch.cuda.synchronize(device)
        peak.total = torch.cuda.max_memory_allocated(device)
        return
    # The trackers only see tensors they are told about or that are created inside; all model state is registered.
    if isinstance(model, FSDPModule):
        tracker: MemTracker = FSDPMemTracker(model, optimizer)
        tracker.track_inputs((batch,))
    else:
        tracker = MemTracker()
        tracker.track_external(model, local_optimizer(optimizer), batch)
    with tracker:
        yield peak
    snapshot = tracker.get_tracker_snapshot("peak").get(device, {})
    peak.breakdown = {str(getattr(k, "value", k)): v for k, v in snapshot.items() if v}
    peak.total = peak.breakdown.pop("Total", 0)
