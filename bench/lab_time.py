"""Print the wall time of the lab (spawn, all four stages, collect) at N = 2, 4 and 8 on gloo/CPU."""
from __future__ import annotations

import sys
import time

from zerolab.config import LabConfig
from zerolab.lab import run_lab

WORLD_SIZES = (2, 4, 8)
"""World sizes timed, one run each."""


def main() -> int:
    """Time one lab run per world size and print one line each."""
    for world_size in WORLD_SIZES:
        config = LabConfig(world_sizes=(world_size,))
        config.validate()
        start = time.perf_counter()
        run_lab(config)
        print(f"N = {world_size}: {time.perf_counter() - start:6.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
