"""Read per-GPU static-memory formulas ("2Ψ + 14Ψ/N_d", "2Ψ/N_d of params, the full 2Ψ of grads") as (full, sliced) Ψ."""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from autograde.veto.quantities import PSI_MULTIPLE

_PER_RANK = r"\s*/\s*(?:n_d\b|\(\s*n_d\s*\))"
_TERM = re.compile(rf"{PSI_MULTIPLE}({_PER_RANK})?(?!\s*/)")
_GROUPED = re.compile(rf"\(\s*((?:\d+(?:\.\d+)?)?ψ(?:\s*\+\s*(?:\d+(?:\.\d+)?)?ψ)+)\s*\){_PER_RANK}")
"""A sum of full terms divided as a whole ("(2Ψ + 12Ψ)/N_d"), rewritten term by term before reading."""


@dataclass(frozen=True)
class Formula:
    """A static-memory formula in a tagged sentence: where it is, and its split."""

    start: int
    end: int
    split: tuple[float, float]
    """(full, sliced): the Ψ every rank keeps whole and the Ψ divided by N_d."""


@dataclass(frozen=True)
class FormulaReader:
    """The memory-formula cues of the pattern book, with each stage's split as the lesson derives it."""

    splits: Mapping[str, tuple[float, float]]
    """Stage: (full, sliced) Ψ of its per-GPU model states (DDP 16Ψ + 0, ZeRO-1 4Ψ + 12Ψ/N_d, …)."""
    joiner: re.Pattern[str]
    """What may stand between two terms of one formula: a plus or a list separator, with state labels around it."""
    not_own: re.Pattern[str]
    """Around a formula: not the stage's own value, but the old one of a change or a list divided as a whole after it."""

    @classmethod
    def from_cues(cls, cues: Mapping[str, str], splits: Mapping[str, list[float]]) -> FormulaReader:
        """Compile the `memory_formula` section of the pattern book (macros already expanded)."""
        return cls(
            splits={stage: (float(full), float(sliced)) for stage, (full, sliced) in splits.items()},
            joiner=re.compile(f"^(?:{cues['joiner']})$", re.IGNORECASE),
            not_own=re.compile(cues["not_own"], re.IGNORECASE),
        )

    @property
    def total(self) -> float:
        """The Ψ of all model states, which every stage's formula adds up to."""
        return sum(next(iter(self.splits.values())))

    def formulas(self, text: str) -> list[Formula]:
        """The formulas of `text` that add up to all model states with at least two terms or a sliced one."""
        text = _GROUPED.sub(lambda m: " + ".join(f"{term.strip()}/n_d" for term in m.group(1).split("+")), text)
        found: list[Formula] = []
        chain: list[re.Match[str]] = []
        for term in [*_TERM.finditer(text), None]:
            if term is not None and chain and self.joiner.match(text[chain[-1].end() : term.start()]):
                chain.append(term)
                continue
            if chain:
                formula = _formula(chain)
                if self._whole(text, formula, len(chain)):
                    found.append(formula)
            chain = [term] if term is not None else []
        return found

    def _whole(self, text: str, formula: Formula, terms: int) -> bool:
        """Whether `formula` is one stage's whole static memory, stated as its own value."""
        full, sliced = formula.split
        if full + sliced != self.total or (terms < 2 and not sliced):
            return False
        around = text[max(0, formula.start - 16) : formula.start] + "|" + text[formula.end : formula.end + 20]
        return not self.not_own.search(around)


def _formula(terms: list[re.Match[str]]) -> Formula:
    """The formula the consecutive `terms` add up to."""
    full = sum(float(t.group(1) or 1) for t in terms if not t.group(2))
    sliced = sum(float(t.group(1) or 1) for t in terms if t.group(2))
    return Formula(terms[0].start(), terms[-1].end(), (full, sliced))
