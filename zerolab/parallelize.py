"""Build the lab's model and wrap it for one stage: DDP, ZeRO-1, ZeRO-2-like or ZeRO-3."""
from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass

import torch
from torch import nn
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard
from torch.distributed.optim import ZeroRedundancyOptimizer
from torch.nn.parallel import DistributedDataParallel

LEARNING_RATE = 1e-3
"""AdamW step size; the value does not change any measured byte."""

FSDP_MIXED_PRECISION = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
"""bf16 compute and all-gather, fp32 gradient reduction; FSDP's fp32 shard doubles as the master copy."""


def build_model(layers: int, hidden: int, device: torch.device) -> nn.Sequential:
    """A stack of `layers` Linear(hidden, hidden), the same on every rank (fixed seed)."""
    torch.manual_seed(0)
    return nn.Sequential(*(nn.Linear(hidden, hidden) for _ in range(layers))).to(device)


@dataclass
class Parallelized:
    """A model wrapped for one stage, its optimizer, and how to enter bf16 mixed precision around forward."""

    model: nn.Module
    """The wrapped model."""
    optimizer: torch.optim.Optimizer
    """AdamW, sharded or not as the stage says."""
    autocast: bool
    """True where bf16 comes from torch.autocast (DDP, ZeRO-1) rather than FSDP's MixedPrecisionPolicy."""

    def mixed_precision(self, device: torch.device) -> AbstractContextManager[object]:
        """The context forward runs in: autocast to bf16, or nothing when FSDP already casts."""
        return torch.autocast(device.type, dtype=torch.bfloat16) if self.autocast else nullcontext()


def _ddp(model: nn.Module, device: torch.device) -> DistributedDataParallel:
    """DDP whose gradients are views into its all-reduce buckets, so no hidden second gradient copy exists."""
    return DistributedDataParallel(
        model, device_ids=[device.index] if device.type == "cuda" else None, gradient_as_bucket_view=True
    )


def _fully_shard(model: nn.Sequential, reshard_after_forward: bool) -> nn.Module:
    """FSDP2 per layer plus the root, so each layer is gathered on its own."""
    for layer in model:
        fully_shard(layer, mp_policy=FSDP_MIXED_PRECISION, reshard_after_forward=reshard_after_forward)
    return fully_shard(model, mp_policy=FSDP_MIXED_PRECISION, reshard_after_forward=reshard_after_forward)


def parallelize(stage: str, model: nn.Sequential, device: torch.device) -> Parallelized:
    """Wrap `model` for `stage` (a key of formulas.STAGES) and create its AdamW."""
    if stage == "ddp":
        wrapped = _ddp(model, device)
        return Parallelized(wrapped, torch.optim.AdamW(wrapped.parameters(), lr=LEARNING_RATE), autocast=True)
    if stage == "zero1":
        wrapped = _ddp(model, device)
        optimizer = ZeroRedundancyOptimizer(wrapped.parameters(), optimizer_class=torch.optim.AdamW, lr=LEARNING_RATE)
        return Parallelized(wrapped, optimizer, autocast=True)
    if stage in ("zero2", "zero3"):
        wrapped = _fully_shard(model, reshard_after_forward=stage == "zero3")
        return Parallelized(wrapped, torch.optim.AdamW(wrapped.parameters(), lr=LEARNING_RATE), autocast=False)
    raise ValueError(f"unknown stage {stage!r}; use one of ddp, zero1, zero2, zero3")
