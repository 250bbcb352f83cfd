"""Score the text veto checker against labelled answers: precision and recall per veto id."""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autograde.veto.finding import VETO_IDS
from autograde.veto.text import find_vetoes

LABELLED_DIR = Path(__file__).resolve().parents[2] / "tests" / "data" / "veto"
"""Labelled answers (JSONL rows: id, question, lang, text, vetoes, why)."""


@dataclass
class Tally:
    """True positives, false positives and false negatives for one veto id."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        """tp / (tp + fp); 1.0 when nothing was predicted."""
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        """tp / (tp + fn); 1.0 when nothing was expected."""
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0


@dataclass
class Score:
    """Per-id tallies over a labelled set, the rows it got wrong, and the time it took."""

    tallies: dict[str, Tally] = field(default_factory=lambda: {v: Tally() for v in VETO_IDS})
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0
    rows: int = 0

    @property
    def overall(self) -> Tally:
        """The tallies summed over all ids."""
        return Tally(*(sum(getattr(t, k) for t in self.tallies.values()) for k in ("tp", "fp", "fn")))


def load_labelled(path: Path) -> list[dict[str, Any]]:
    """The labelled rows of a JSONL file."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def score(rows: list[dict[str, Any]]) -> Score:
    """Run the checker on every row and tally the result against its labels."""
    result = Score(rows=len(rows))
    for row in rows:
        began = time.perf_counter()
        got = {v.id for v in find_vetoes(row["text"], question=row["question"])}
        result.seconds += time.perf_counter() - began
        want = set(row["vetoes"])
        for veto_id, tally in result.tallies.items():
            tally.tp += veto_id in got and veto_id in want
            tally.fp += veto_id in got and veto_id not in want
            tally.fn += veto_id in want and veto_id not in got
        if got != want:
            result.failures.append(f"{row['id']}: want {sorted(want)} got {sorted(got)}: {row['text'][:150]}")
    return result
