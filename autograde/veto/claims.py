"""A claim read from a sentence: which stage (or collective) it is about, on what topic, the value it gives, the
stage it relates the value to, and the student's stance. The judge holds each claim against the lesson's facts."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from autograde.veto.stance import Stance

Topic = Literal["shards", "identity", "memory", "volume", "step", "scaling"]
"""What a claim is about:
shards    the states a stage divides over the ranks (value: the states; `sharded` says whether it does)
identity  which stage a stage is ("FSDP is ZeRO-2 in PyTorch"; value: the other stage)
memory    a stage's per-GPU static memory (value: (Ψ kept whole, Ψ divided by N_d))
volume    what a stage or a collective moves per step (value: a multiple of Ψ, a ratio, or "more", "less", "same")
step      a collective a stage runs (value: (collective, what it carries, when, whether it is an extra one))
scaling   per-GPU memory as N_d grows (value: what is said to vanish or fit; scope: all memory or model states)"""

Relation = Literal["same-as", "adds-over", "first-at", "ratio-to", "more-than", "less-than"]
"""How the value relates the subject to another stage: the same set, the states added over it, the stage a state is
first sharded at, a multiple of its volume, more or less volume."""


@dataclass(frozen=True)
class Claim:
    """One claim, with the span of the prepared sentence it was read from."""

    subject: str
    """A stage (ddp, zero1, zero2, zero3, a group such as zero12) or a collective (all-gather, …)."""
    topic: Topic
    value: object
    start: int
    end: int
    relation: Relation | None = None
    other: str | None = None
    """The stage the relation refers to."""
    sharded: bool = True
    """For `shards`: whether the claim says the states are divided (False: kept whole on every rank)."""
    exact: bool = False
    """For `shards`: the value is the whole set ("only shards X")."""
    negated_form: bool = False
    """The words read say the opposite of the claim: it is held where they are denied ("doesn't need recomputation")."""
    marked: bool = False
    """For `volume`: the value is marked as the step's whole total ("总共", "only", "per step")."""
    stance: Stance = "asserted"
    narrow_stance: Stance = "asserted"
    """The stance with negations counted only near the claim: the safe reading when a denial is the mistake."""
    flags: frozenset[str] = field(default=frozenset())
    """How the claim was read, for the judge: "loose" (a noun bound past another noun, too far for a denial),
    "temporary" (said of a layer gathered for compute)."""

    def with_stance(self, wide: Stance, narrow: Stance) -> Claim:
        """This claim with its stances read."""
        return replace(self, stance=wide, narrow_stance=narrow)

    def describe(self) -> str:
        """The claim as a grader reads it: "ZeRO-3 · shards · {parameters, optimizer} (same as ZeRO-2)"."""
        value = self.value
        if isinstance(value, (set, frozenset)):
            value = "{" + ", ".join(sorted(map(str, value))) + "}"
        elif isinstance(value, tuple):
            value = " ".join(str(v) for v in value if v not in (None, False))
        topic = self.topic if self.sharded else "keeps whole"
        text = f"{_stage_name(self.subject)} · {topic} · {value}"
        if self.relation:
            text += f" ({self.relation.replace('-', ' ')} {_stage_name(self.other or '')})"
        return text + ("" if self.stance == "asserted" else f" — {self.stance}")


_NAMES = {"ddp": "DDP", "zero": "ZeRO", "zero12": "ZeRO-1/2", "zero123": "ZeRO-1/2/3"}


def _stage_name(stage: str) -> str:
    """A stage as the lesson writes it ("zero3" → "ZeRO-3")."""
    if stage in _NAMES:
        return _NAMES[stage]
    return f"ZeRO-{stage[4:]}" if stage.startswith("zero") else stage
