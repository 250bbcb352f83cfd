"""Count the elements each collective moves, per collective type, by watching c10d ops at the dispatcher."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch
from torch.distributed.tensor import DTensor
from torch.utils._python_dispatch import TorchDispatchMode

# Verified on torch 2.13/gloo: a dispatch mode sees every c10d op, including the allreduce_ DDP's C++ reducer issues
# (patching torch.distributed misses it; CommDebugMode counts calls, not sizes). gloo runs a reduce-scatter as an
# all-reduce of a full copy; this counts the collective that was asked for, as NCCL would run it.
COLLECTIVE_OF_OP: dict[str, str] = {
    "allreduce_": "all_reduce",
    "allreduce_coalesced_": "all_reduce",
    "_allgather_base_": "all_gather",
    "allgather_": "all_gather",
    "allgather_coalesced_": "all_gather",
    "allgather_into_tensor_coalesced_": "all_gather",
    "_reduce_scatter_base_": "reduce_scatter",
    "reduce_scatter_": "reduce_scatter",
    "reduce_scatter_tensor_coalesced_": "reduce_scatter",
    "broadcast_": "broadcast",
}
"""c10d op name → collective type; any other c10d op is counted under its own name."""


@dataclass
class CollectiveTally:
    """What one collective type moved during the counted region."""

    calls: int = 0
    """Number of ops issued."""
    elements: int = 0
    """Sum over calls of the numel of the full tensor (all-gather output, reduce-scatter input, all-reduce buffer)."""
    bytes: int = 0
    """The same, in bytes of the dtype actually sent."""

    def to_dict(self) -> dict[str, int]:
        """The JSON form."""
        return {"calls": self.calls, "elements": self.elements, "bytes": self.bytes}


def _numel_and_bytes(arg: Any) -> tuple[int, int]:
    """Total numel and bytes of the tensors in one (possibly nested list) argument."""
    if isinstance(arg, torch.Tensor):
        return arg.numel(), arg.numel() * arg.element_size()
    if isinstance(arg, (list, tuple)):
        parts = [_numel_and_bytes(a) for a in arg]
        return sum(p[0] for p in parts), sum(p[1] for p in parts)
    return 0, 0


class CollectiveCounter(TorchDispatchMode):
    """Records calls, elements and bytes per collective type for every c10d op run inside the context."""

    def __init__(self) -> None:
        super().__init__()
        self.tallies: dict[str, CollectiveTally] = {}

    def __torch_dispatch__(self, func: Any, types: Any, args: tuple = (), kwargs: dict | None = None) -> Any:
        if any(issubclass(t, DTensor) for t in types):
            return NotImplemented  # let DTensor desugar to local ops first, so their collectives pass through here
        if func.namespace == "c10d":
            op = func.overloadpacket.__name__
            # The full tensor is the largest tensor argument: all-gather's output, reduce-scatter's input.
            numel, nbytes = max((_numel_and_bytes(a) for a in args), default=(0, 0))
            tally = self.tallies.setdefault(COLLECTIVE_OF_OP.get(op, op), CollectiveTally())
            tally.calls += 1
            tally.elements += numel
            tally.bytes += nbytes
        return func(*args, **(kwargs or {}))

    def to_dict(self) -> dict[str, dict[str, int]]:
        """The JSON form: {collective: {calls, elements, bytes}}."""
        return {name: tally.to_dict() for name, tally in sorted(self.tallies.items())}
