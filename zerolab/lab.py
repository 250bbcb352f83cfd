"""Run the lab for each world size and gather the ranks' measurements into one JSON-ready result."""
from __future__ import annotations

import platform
from collections.abc import Callable
from typing import Any

import torch

from zerolab.config import COLLECTIVE_TIMEOUT_S, SCHEMA_VERSION, LabConfig
from zerolab.formulas import STAGES
from zerolab.launch import launch
from zerolab.worker import BATCH_SIZE, WARMUP_STEPS, measure_rank


def combine_ranks(world_size: int, per_rank: list[dict[str, Any]]) -> dict[str, Any]:
    """One world size's result: held and peak bytes per rank, the peak rank's breakdown, rank 0's traffic."""
    stages = {}
    for stage in STAGES:
        measured = [r["stages"][stage] for r in per_rank]
        peak_rank = max(range(world_size), key=lambda r: measured[r]["peak_bytes"])
        stages[stage] = {
            "held_bytes": [m["held_bytes"] for m in measured],
            "peak_bytes": [m["peak_bytes"] for m in measured],
            "peak_breakdown": measured[peak_rank]["peak_breakdown"],
            "traffic": measured[0]["traffic"],  # every rank issues the same collectives
        }
    return {"world_size": world_size, "stages": stages}


def run_lab(config: LabConfig, progress: Callable[[str], None] = lambda _: None) -> dict[str, Any]:
    """Spawn one run per world size in `config` and return the result the report reads."""
    runs, params = [], 0
    for world_size in config.world_sizes:
        progress(f"N = {world_size}: {world_size} ranks on {config.backend}/{config.device} …")
        per_rank = launch(
            measure_rank, world_size, (config.layers, config.hidden, config.device),
            backend=config.backend, timeout_s=COLLECTIVE_TIMEOUT_S, deadline_s=config.deadline_s,
        )
        params = per_rank[0]["params"]
        runs.append(combine_ranks(world_size, per_rank))
    return {
        "schema": SCHEMA_VERSION,
        "created_with": {"torch": torch.__version__, "python": platform.python_version()},
        "config": {
            "backend": config.backend, "device": config.device, "layers": config.layers, "hidden": config.hidden,
            "params": params, "batch_size": BATCH_SIZE, "warmup_steps": WARMUP_STEPS, "optimizer": "AdamW",
            "mixed_precision": "bf16 compute; DDP/ZeRO-1 via torch.autocast, FSDP2 via MixedPrecisionPolicy"
            "(param_dtype=bf16, reduce_dtype=fp32)",
        },
        "runs": runs,
    }
