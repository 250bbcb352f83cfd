"""Find the Ψ quantities a sentence states as a total (not an addend, a per-collective share, a delta or a memory size)."""
from __future__ import annotations

import re
from dataclasses import dataclass

PSI_MULTIPLE = r"(?<![a-z0-9_.])(\d+(?:\.\d+)?)?ψ"
"""A multiple of Ψ ("3ψ", "ψ", "0.5ψ"), its coefficient captured when written."""
QUANTITY = re.compile(rf"{PSI_MULTIPLE}(?![a-z0-9_]|\s*/)")


@dataclass(frozen=True)
class Quantity:
    """A stated multiple of Ψ in a tagged, lower-cased sentence."""

    start: int
    end: int
    coefficient: float


@dataclass(frozen=True)
class QuantityCues:
    """Context that shows a quantity is not a total, compiled from the pattern book."""

    skip_before: re.Pattern[str]
    """Right before: a delta, an old value or a negated one ("多 Ψ", "从 2Ψ", "not 2Ψ", "其中 2Ψ")."""
    skip_after: re.Pattern[str]
    """Right after: a memory size or a per-collective share ("2Ψ 显存", "Ψ (RS)")."""
    compared_after: re.Pattern[str]
    """Right after: another value it is set against ("Ψ vs 2Ψ"), whose order need not follow the stages'."""
    owned_before: re.Pattern[str]
    """Right before: a stage said to be the value ("ZeRO-2 ends up at"), which owns it even when another is set against it."""
    component_before: re.Pattern[str]
    """Right before: a collective it belongs to ("RS Ψ", "all-gather 参数 Ψ")."""
    total_before: re.Pattern[str]
    """Right before: a mark that it is the sum ("所以总共 4Ψ", "so 4Ψ")."""
    total_after: re.Pattern[str]
    """Right after: a mark that it is the sum ("4Ψ in total")."""
    sum_named_before: re.Pattern[str]
    """Right before: a reduce-scatter and an all-gather, then their sum named as such ("RS and AG …, the total is"),
    which makes even a bare Ψ the step's total."""

    @classmethod
    def from_cues(cls, cues: dict[str, str]) -> QuantityCues:
        """Compile the `quantities` section of the pattern book (macros already expanded)."""
        return cls(
            skip_before=re.compile(f"(?:{cues['skip_before']})\\s*$"),
            skip_after=re.compile(f"^\\s*(?:{cues['skip_after']})"),
            compared_after=re.compile(f"^\\s*(?:{cues['compared_after']})"),
            owned_before=re.compile(f"(?:{cues['owned_before']})\\s*$", re.IGNORECASE),
            component_before=re.compile(f"(?:{cues['component_before']})$"),
            total_before=re.compile(f"(?:{cues['total_before']})\\s*$", re.IGNORECASE),
            total_after=re.compile(f"^\\s*(?:{cues['total_after']})", re.IGNORECASE),
            sum_named_before=re.compile(f"(?:{cues['sum_named_before']})$", re.IGNORECASE),
        )

    def marked_total(self, sentence: str, start: int, end: int) -> bool:
        """Whether the quantity at `start:end` is marked as the sum of the step ("so 4Ψ in total"), not one part of it."""
        before, after = sentence[max(0, start - 32) : start], sentence[end : end + 16]
        return bool(self.total_before.search(before) or self.total_after.search(after))

    def sum_named(self, sentence: str, start: int) -> bool:
        """Whether the quantity at `start` follows the sum of a reduce-scatter and an all-gather named as such ("RS and AG
        are Ψ/2 each, the total is Ψ") or a sum of values ("Ψ/2 + Ψ/2 = Ψ"), bare as it may be."""
        return bool(self.sum_named_before.search(sentence, max(0, start - 128), start))

    def totals(self, sentence: str) -> list[Quantity]:
        """The quantities of `sentence` that read as a whole-step total."""
        found = []
        for m in QUANTITY.finditer(sentence):
            before, after = sentence[max(0, m.start() - 32) : m.start()], sentence[m.end() : m.end() + 16]
            if re.search(r"\+\s*$", before) or re.match(r"\s*\+", after):
                continue
            compared = self.compared_after.search(after) and not self.owned_before.search(before)  # "ZeRO-2 is 3Ψ vs 2Ψ": ZeRO-2's
            if self.skip_before.search(before) or self.skip_after.search(after) or compared or self.component_before.search(before):
                continue
            found.append(Quantity(m.start(), m.end(), float(m.group(1) or 1)))
        return found
