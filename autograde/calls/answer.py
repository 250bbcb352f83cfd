"""What one call of a submission's function gave back, read from the sandbox's plain JSON."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Answer:
    """What one call gave back: a plain number, or why there is none."""

    number: float | int | None
    why: str = ""

    @classmethod
    def from_json(cls, raw: Any) -> Answer:
        """Read the sandbox's `[1, number]` or `[0, reason]`; anything else is a malformed answer."""
        if isinstance(raw, list) and len(raw) == 2 and raw[0] == 1 and type(raw[1]) in (int, float):
            return cls(raw[1])
        if isinstance(raw, list) and len(raw) == 2 and raw[0] == 0 and isinstance(raw[1], str):
            return cls(None, raw[1][:300])
        return cls(None, "gave no readable answer")
