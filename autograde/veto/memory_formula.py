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
class Term:
    """One term of a formula: where it is, its Ψ, and whether it is divided by N_d."""

    start: int
    end: int
    psi: float
    sliced: bool


@dataclass(frozen=True)
class Formula:
    """A static-memory formula in a tagged sentence: where it is, its terms and its split."""

    start: int
    end: int
    split: tuple[float, float]
    """(full, sliced): the Ψ every rank keeps whole and the Ψ divided by N_d."""
    terms: tuple[Term, ...] = ()


@dataclass(frozen=True)
class FormulaReader:
    """The memory-formula cues of the pattern book, with each stage's split as the lesson derives it."""

    joiner: re.Pattern[str]
    """What may stand between two terms of one formula: a plus or a list separator, with state labels around it."""
    not_own: re.Pattern[str]
    """Around a formula: not the stage's own value, but the old one of a change or a list divided as a whole after it."""

    @classmethod
    def from_cues(cls, cues: Mapping[str, str]) -> FormulaReader:
        """Compile the `memory_formula` section of the cue book (macros already expanded)."""
        return cls(
            joiner=re.compile(f"^(?:{cues['joiner']})$", re.IGNORECASE),
            not_own=re.compile(cues["not_own"], re.IGNORECASE),
        )

    def formulas(self, text: str, total: float) -> list[Formula]:
        """The formulas of `text` that add up to `total` Ψ (all model states) with at least two terms or a sliced one."""
        text = _GROUPED.sub(lambda m: " + ".join(f"{term.strip()}/n_d" for term in m.group(1).split("+")), text)
        return [f for f in self.chains(text) if self._whole(text, f, len(f.terms), total)]

    def chains(self, text: str) -> list[Formula]:
        """Every run of Ψ terms joined as one formula in `text` (a lone term too)."""
        found: list[Formula] = []
        chain: list[re.Match[str]] = []
        for term in [*_TERM.finditer(text), None]:
            if term is not None and chain and self.joiner.match(text[chain[-1].end() : term.start()]):
                chain.append(term)
                continue
            if chain:
                found.append(_formula(chain))
            chain = [term] if term is not None else []
        return found

    def _whole(self, text: str, formula: Formula, terms: int, total: float) -> bool:
        """Whether `formula` is one stage's whole static memory, stated as its own value."""
        full, sliced = formula.split
        if full + sliced != total or (terms < 2 and not sliced):
            return False
        around = text[max(0, formula.start - 16) : formula.start] + "|" + text[formula.end : formula.end + 20]
        return not self.not_own.search(around)


def _formula(matches: list[re.Match[str]]) -> Formula:
    """The formula the consecutive term matches add up to."""
    terms = tuple(Term(m.start(), m.end(), float(m.group(1) or 1), bool(m.group(2))) for m in matches)
    full = sum(t.psi for t in terms if not t.sliced)
    sliced = sum(t.psi for t in terms if t.sliced)
    return Formula(terms[0].start, terms[-1].end, (full, sliced), terms)
