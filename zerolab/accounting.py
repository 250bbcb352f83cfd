"""Model-state bytes per GPU, term by term, as the lesson's formulas and DeepSpeed's estimators count them."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from zerolab.formulas import GRAD_BYTES, PARAM_BYTES, STAGES

TERMS_FILE = Path(__file__).with_name("memory_terms.yaml")
"""The terms, DeepSpeed's source lines and the compared cases, as data."""
COVERS: dict[str, str] = {"whole": "Ψ", "shard": "Ψ/N_d", "largest_layer": "L"}
"""What a term's bytes are multiplied by, as the tables write it (L: the largest layer's parameters)."""
COMPARED_STAGES: tuple[str, ...] = ("zero2", "zero3")
"""The stages DeepSpeed ships estimators for."""


@cache
def memory_terms() -> dict[str, Any]:
    """memory_terms.yaml, read once."""
    return yaml.safe_load(TERMS_FILE.read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Model:
    """What the estimators need to know of a model."""

    name: str
    """How the tables name it."""
    params: int
    """Ψ, its parameters (DeepSpeed's total_params)."""
    largest_layer: int
    """L, the parameters of its largest module (DeepSpeed's largest_layer_params)."""


@dataclass(frozen=True)
class SourceLine:
    """A line of the installed DeepSpeed, and the text it must hold there."""

    at: str
    """'runtime/zero/stage3.py:4046', relative to the deepspeed package."""
    text: str
    """A piece of that line, checked by the tests against the installed package."""

    @property
    def path(self) -> str:
        """The file, relative to the deepspeed package."""
        return self.at.rsplit(":", 1)[0]

    @property
    def line(self) -> int:
        """The 1-based line number."""
        return int(self.at.rsplit(":", 1)[1])

    @property
    def cited(self) -> str:
        """How the tables cite it: 'stage3.py:4046'."""
        return self.at.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class Term:
    """One kind of buffer an accounting keeps on each GPU."""

    key: str
    """A key of memory_terms.yaml's `terms`."""
    bytes: float
    """Bytes per parameter it covers."""
    per: str
    """Which parameters it covers: a key of COVERS."""
    counted: SourceLine | None = None
    """Where DeepSpeed's estimator counts it."""
    kept: SourceLine | None = None
    """Where DeepSpeed's ZeRO keeps it."""

    def gpu_bytes(self, model: Model, world_size: int) -> float:
        """Bytes on one GPU of `world_size`."""
        covered = {"whole": model.params, "shard": model.params / world_size, "largest_layer": model.largest_layer}
        return self.bytes * covered[self.per]

    @property
    def symbol(self) -> str:
        """'4Ψ/N_d', '2Ψ', '4L'."""
        return f"{self.bytes}{COVERS[self.per]}"

    def name(self, language: str) -> str:
        """The term's name in 'en' or 'zh'."""
        return memory_terms()["terms"][self.key][language]


def lesson_terms(stage: str) -> list[Term]:
    """The lesson's formula for `stage` as terms: 2 + 2 + 12 (= 4 master + 8 Adam), sharded as the lesson says."""
    formula = STAGES[stage]
    parts = [("param", "param16", PARAM_BYTES), ("grad", "grad16", GRAD_BYTES)]
    parts += [("optimizer", key, size) for key, size in memory_terms()["lesson_optimizer"].items()]
    return [Term(key, size, "shard" if state in formula.sharded else "whole") for state, key, size in parts]


def deepspeed_terms(stage: str) -> list[Term]:
    """What DeepSpeed's estimator for `stage` adds up, each term with its source lines."""
    terms = memory_terms()["deepspeed"]["stages"][stage]["terms"]
    return [
        Term(key, term["bytes"], term["per"],
             counted=SourceLine(**term["counted"]), kept=SourceLine(**term["kept"]) if "kept" in term else None)
        for key, term in terms.items()
    ]


def deepspeed_sum(stage: str) -> SourceLine:
    """The line where DeepSpeed's estimator for `stage` adds up the GPU bytes."""
    return SourceLine(**memory_terms()["deepspeed"]["stages"][stage]["sum"])


def not_counted() -> list[tuple[SourceLine, dict[str, str]]]:
    """What DeepSpeed's ZeRO-3 keeps that its estimator leaves out: the line, and its description by language."""
    return [(SourceLine(item["at"], item["text"]), {lang: item[lang] for lang in ("en", "zh")})
            for item in memory_terms()["deepspeed"]["not_counted"]]


def total_bytes(terms: list[Term], model: Model, world_size: int) -> float:
    """Bytes on one GPU: the sum of the terms."""
    return sum(term.gpu_bytes(model, world_size) for term in terms)


def difference(more: list[Term], less: list[Term]) -> list[tuple[Term, float]]:
    """The terms where `more` and `less` differ, each with its signed bytes per covered parameter (more − less)."""
    def by_cover(terms: list[Term]) -> dict[tuple[str, str], Term]:
        return {(term.key, term.per): term for term in terms}

    ours, theirs = by_cover(more), by_cover(less)
    deltas = []
    for key in dict.fromkeys([*ours, *theirs]):
        term = ours.get(key) or theirs[key]
        delta = (ours[key].bytes if key in ours else 0) - (theirs[key].bytes if key in theirs else 0)
        if delta:
            deltas.append((term, delta))
    return deltas
