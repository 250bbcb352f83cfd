"""The lesson's formulas per stage, as data: which model states are sharded and what each step communicates."""
from __future__ import annotations

from dataclasses import dataclass, field

PARAM_BYTES = 2
"""bf16 parameter the lesson counts per parameter."""
GRAD_BYTES = 2
"""bf16 gradient the lesson counts per parameter."""
OPTIMIZER_BYTES = 12
"""k = 12: fp32 master copy + Adam m + Adam v, per parameter."""

STATES: tuple[str, ...] = ("param", "grad", "optimizer")
"""The three model states, in the order the lesson writes them (2 + 2 + 12)."""

RING_COST: dict[str, float] = {"all_reduce": 2.0, "all_gather": 1.0, "reduce_scatter": 1.0, "broadcast": 1.0}
"""Lesson-unit cost of moving 1Ψ elements: a ring all-reduce is a reduce-scatter plus an all-gather, hence 2."""


@dataclass(frozen=True)
class StageFormula:
    """One stage of the lesson: its label, which states it shards, and its per-step traffic in Ψ."""

    key: str
    """Identifier used in the JSON result."""
    label: str
    """Name shown in tables and charts."""
    implementation: str
    """What the lab actually runs for this stage."""
    sharded: frozenset[str]
    """Which of STATES are split 1/N across ranks."""
    traffic: dict[str, float] = field(default_factory=dict)
    """Lesson traffic per collective, in Ψ, counted the lesson's way (all-reduce = 2Ψ)."""

    def bytes_per_param(self, world_size: int) -> dict[str, float]:
        """Per-rank bytes per parameter for each state: 2 + 2 + 12, with the sharded ones divided by N."""
        full = {"param": PARAM_BYTES, "grad": GRAD_BYTES, "optimizer": OPTIMIZER_BYTES}
        return {s: full[s] / world_size if s in self.sharded else float(full[s]) for s in STATES}

    def total_bytes_per_param(self, world_size: int) -> float:
        """Per-rank model-state bytes per parameter: 16, 4+12/N, 2+14/N or 16/N."""
        return sum(self.bytes_per_param(world_size).values())

    def total_traffic(self) -> float:
        """Per-step traffic in Ψ as the lesson counts it: 2, 2, 2 or 3."""
        return sum(self.traffic.values())


STAGES: dict[str, StageFormula] = {
    s.key: s
    for s in (
        StageFormula("ddp", "DDP", "DistributedDataParallel", frozenset(), {"all_reduce": 2.0}),
        StageFormula(
            "zero1", "ZeRO-1", "DDP + ZeroRedundancyOptimizer", frozenset({"optimizer"}),
            {"reduce_scatter": 1.0, "all_gather": 1.0},
        ),
        StageFormula(
            "zero2", "ZeRO-2-like", "FSDP2, reshard_after_forward=False", frozenset({"grad", "optimizer"}),
            {"reduce_scatter": 1.0, "all_gather": 1.0},
        ),
        StageFormula(
            "zero3", "ZeRO-3", "FSDP2, reshard_after_forward=True", frozenset(STATES),
            {"all_gather": 2.0, "reduce_scatter": 1.0},
        ),
    )
}
"""The four stages in the order the lesson teaches them."""


def lesson_unit_traffic(elements_per_collective: dict[str, float]) -> float:
    """Convert measured elements per collective (in Ψ) to the lesson's unit, where an all-reduce of Ψ costs 2Ψ."""
    return sum(RING_COST.get(name, 1.0) * psi for name, psi in elements_per_collective.items())
