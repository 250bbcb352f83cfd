"""The model size and data-parallel degree an answer's worked figures are for, as the answer names them so far."""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class WorkedSetting:
    """The model size (billions of parameters) and data-parallel degree named last: "7B", "Ψ = 7×10^9", "70 亿"; "8 GPUs",
    "N_d = 64"."""

    billions: float | None = None
    ranks: int | None = None

    def updated(self, model_size: re.Pattern[str], rank_count: re.Pattern[str], text: str) -> WorkedSetting:
        """This setting with the last model size and rank count `text` names."""
        billions, ranks = self.billions, self.ranks
        for m in model_size.finditer(text):
            billions = float(m.group("yi")) / 10 if m.group("yi") else float(m.group("billions") or m.group("power"))
        for m in rank_count.finditer(text):
            ranks = int(m.group("cards") or m.group("nd"))
        return WorkedSetting(billions, ranks)
