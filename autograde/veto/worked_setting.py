"""The model size, data-parallel degree and precision an answer's worked figures are for, as the answer names them so far."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from autograde.veto.cues import CueBook


@dataclass(frozen=True)
class WorkedSetting:
    """The model size (billions of parameters) and data-parallel degree named last: "7B", "Ψ = 7×10^9", "70 亿"; "8 GPUs",
    "N_d = 64"; and whether half precision has been named ("BF16", "半精度")."""

    billions: float | None = None
    ranks: int | None = None
    half: bool = False

    def updated(self, book: CueBook, text: str) -> WorkedSetting:
        """This setting with the last model size and rank count `text` names (the cue book's `model_size`, `rank_count`)
        and half precision when it names it (`half_precision`)."""
        billions, ranks = self.billions, self.ranks
        for m in book.word("model_size").finditer(text):
            billions = float(m.group("yi")) / 10 if m.group("yi") else float(m.group("billions") or m.group("power"))
        for m in book.word("rank_count").finditer(text):
            ranks = int(m.group("cards") or m.group("nd"))
        return WorkedSetting(billions, ranks, self.half or bool(book.word("half_precision").search(text)))
