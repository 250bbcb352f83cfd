"""The Veto record every check returns, and the catalogue of veto ids."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from autograde.yaml_data import read_yaml

CATALOGUE_PATH = Path(__file__).with_name("catalogue.yaml")
CATALOGUE: dict[str, dict[str, str]] = read_yaml(CATALOGUE_PATH)
VETO_IDS: tuple[str, ...] = tuple(CATALOGUE)


@dataclass(frozen=True)
class Veto:
    """One finding: a veto id with the evidence a grader reads."""

    id: str
    """One of VETO_IDS."""
    evidence: str
    """The sentence (text checks) or the observed behaviour (code checks) that asserts the misconception."""
    origin: Literal["text", "code"] = "text"
    """Which check found it."""
    detail: dict[str, Any] = field(default_factory=dict, compare=False)
    """Structured evidence: inputs, expected, got and misconception (code checks); the matching frame (text checks)."""

    def __post_init__(self) -> None:
        if self.id not in CATALOGUE:
            raise ValueError(f"unknown veto id {self.id!r}; known: {', '.join(VETO_IDS)}")

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: {"id", "evidence"} plus origin and detail where present."""
        out: dict[str, Any] = {"id": self.id, "evidence": self.evidence, "origin": self.origin}
        if self.detail:
            out["detail"] = self.detail
        return out
