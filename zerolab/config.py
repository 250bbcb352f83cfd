"""The lab's settings in one place, and their validation into one-line errors."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from zerolab.errors import LabError

BACKENDS: tuple[str, ...] = ("gloo", "nccl")
"""torch.distributed backends the lab knows how to run."""
DEVICES: tuple[str, ...] = ("cpu", "cuda")
"""Where the ranks put the model."""
SCHEMA_VERSION = 1
"""Layout version of the JSON result; bumped when it changes, checked when it is read."""
RESULT_NAME = "zero_lab_result.json"
"""File name of the JSON result inside the output folder."""
CHART_NAME = "zero_lab_chart.png"
"""File name of the chart inside the output folder."""
DEEPSPEED_NAME = "deepspeed_estimate.json"
"""File name of DeepSpeed's saved estimates inside the output folder."""
DEFAULT_OUT = Path("lessons/assets/lab")
"""Where the lesson reads the committed result from (relative to the repository root)."""
COLLECTIVE_TIMEOUT_S = 120.0
"""Bound on joining the process group and on each collective inside a rank."""


@dataclass(frozen=True)
class LabConfig:
    """What one `python -m zerolab run` measures and where it writes."""

    world_sizes: tuple[int, ...] = (2, 4)
    """One run per world size N."""
    backend: str = "gloo"
    """torch.distributed backend: gloo or nccl."""
    device: str = "cpu"
    """cpu or cuda (one GPU per rank)."""
    layers: int = 8
    """Number of Linear(hidden, hidden) layers."""
    hidden: int = 512
    """Width of each layer; 8 × Linear(512, 512) ≈ 2.1M parameters."""
    out: Path = DEFAULT_OUT
    """Folder for the JSON result and the chart."""
    deadline_s: float = 600.0
    """Wall-clock bound on one world size's run, enforced by the parent."""

    def validate(self) -> None:
        """Raise LabError with a one-line fix for any setting the lab cannot run."""
        if not self.world_sizes:
            raise LabError("no world size given; pass --world-size 2 (or 2,4)")
        if min(self.world_sizes) < 1:
            raise LabError(f"--world-size must be at least 1 (got {min(self.world_sizes)})")
        if self.backend not in BACKENDS:
            raise LabError(f"unknown backend {self.backend!r}; use --backend gloo or --backend nccl")
        if self.device not in DEVICES:
            raise LabError(f"unknown device {self.device!r}; use --device cpu or --device cuda")
        if self.layers < 1 or self.hidden < 1:
            raise LabError(f"--layers and --hidden must be at least 1 (got {self.layers} and {self.hidden})")
        if self.deadline_s <= 0:
            raise LabError(f"--timeout must be positive (got {self.deadline_s:g})")
        if self.backend == "nccl" and self.device != "cuda":
            raise LabError("--backend nccl runs on GPUs; add --device cuda, or use --backend gloo on CPU")
        try:
            import torch
        except ImportError:
            raise LabError("torch is not installed; run: pip install -e '.[lab]'") from None
        if self.device == "cuda" and not torch.cuda.is_available():
            raise LabError("--device cuda but no CUDA GPU is visible; use --device cpu")
        if self.backend == "nccl" and max(self.world_sizes) > torch.cuda.device_count():
            raise LabError(
                f"nccl needs one GPU per rank: --world-size {max(self.world_sizes)} but "
                f"{torch.cuda.device_count()} GPU(s) visible; lower --world-size or use --backend gloo"
            )
