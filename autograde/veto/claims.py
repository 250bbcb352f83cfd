"""A claim read from a sentence: which stage (or collective) it is about, on what topic, the value it gives, the
stage it relates the value to, and the student's stance. The judge holds each claim against the lesson's facts."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from autograde.veto.stance import Stance

Topic = Literal["shards", "axis", "identity", "memory", "volume", "step", "scaling"]
"""What a claim is about:
shards    the states a stage divides over the ranks (value: the states; `sharded` says whether it does)
axis      the parallelism axis whose ranks a stage divides its states over (value: the axis, tp or pp)
identity  which stage a stage is ("FSDP is ZeRO-2 in PyTorch"; value: the other stage)
memory    a stage's per-GPU static memory (value: (Ψ kept whole, Ψ divided by N_d))
volume    what a stage or a collective moves per step (value: a multiple of Ψ, a ratio, or "more", "less", "same")
step      a collective a stage runs (value: (collective, what it carries, when, whether it is an extra one))
scaling   per-GPU memory as N_d grows (value: what is said to vanish or fit; scope: all memory or model states)"""

Relation = Literal["same-as", "adds-over", "first-at", "ratio-to", "more-than", "less-than"]
"""How the value relates the subject to another stage: the same set, the states added over it, the stage a state is
first sharded at, a multiple of its volume, more or less volume."""


VALUES_AS_BYTES = "BF16 values counted as bytes"
"""The value of a volume claim that gives a count of values as a size in GB ("7B in BF16: 2Ψ = 14 GB")."""
PER_RANK_VOLUMES = {
    "per_shard_volume": "Ψ/N_d", "per_shard_total": "Ψ/N_d", "whole_plus_shard_volume": "Ψ + Ψ/N_d",
    "rank_scaled_volume": "N_d·Ψ", "volume_grows": "growing with N_d", "volume_shrinks": "shrinking with N_d",
    "layer_scaled_volume": "L·Ψ (per layer)",
}
"""Word classes of the cue book that give a volume no collective moves per rank (each moves a constant multiple of Ψ
whatever N_d and however many layers), and the value of the volume claim each gives."""


@dataclass(frozen=True)
class TrafficInGB:
    """The value of a volume claim given in GB for a model of `billions` parameters in BF16 ("ZeRO-3 costs ~21 GB")."""

    gigabytes: float
    billions: float
    whole: bool = False
    """Whether the figure is the stage's whole step (its clause names no collective, part or extra): another stage's
    volume in two bytes a value is then wrong too."""

    def __str__(self) -> str:
        return f"{self.gigabytes:g} GB for a {self.billions:g}B model in BF16"


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
    "temporary" (said of a layer gathered for compute), "universal" (one of the states "everything" stands for), "asked"
    (its stage is only the question's), "earlier:<collectives>" (for a ledger: those the sentence before names, which
    its total may also count), "named-other" (a comparison whose other stage the clause names)."""
    guesses: frozenset[str] = field(default=frozenset())
    """When the sentence names no stage for the claim and its subject is the topic of the sentences before: every stage
    the answer has named so far (and the question's), any of which the student may mean."""

    def with_stance(self, wide: Stance, narrow: Stance) -> Claim:
        """This claim with its stances read."""
        return replace(self, stance=wide, narrow_stance=narrow)

    def guessed(self, stages: frozenset[str], asked: bool) -> Claim:
        """This claim with its subject only guessed, among `stages`; `asked`: neither the answer so far nor this sentence
        names a stage, so the guess is the question's ("asked")."""
        return replace(self, guesses=stages | {self.subject}, flags=self.flags | {"asked"} if asked else self.flags)

    def with_other(self, other: str | None) -> Claim:
        """This claim related to `other`."""
        return replace(self, other=other)

    def with_value(self, value: object) -> Claim:
        """This claim with its value resolved ("the same as ZeRO-2" → ZeRO-2's set)."""
        return replace(self, value=value)

    def describe(self) -> str:
        """The claim as a grader reads it: "ZeRO-3 · shards · {optimizer, gradients} (same as ZeRO-2)"."""
        subject = _stage_name(self.subject)
        if self.topic == "step":
            collective, carries, when, extra, count = self.value  # type: ignore[misc]
            what = " ".join(
                part for part in (
                    "only" if self.exact else "an extra" if extra else f"{count}×" if count else "",
                    collective or "communication", f"of the {carries}" if carries else "", f"({when})" if when else "",
                ) if part
            )
            return self._with_stance(f"{subject} · runs · {what}")
        topic = {"shards": "shards" if self.sharded else "keeps whole", "axis": "shards along", "identity": "is", "scaling": "per-GPU memory", "activations-alone": "by itself"}.get(self.topic, self.topic)
        if self.topic == "shards" and self.exact:
            topic += " only"
        value = f"{self.value:g}×" if self.relation == "ratio-to" and isinstance(self.value, float) else _value(self.value, self.topic)
        if self.subject == "ledger" and isinstance(self.value, tuple):
            total, parts = self.value
            subject, value = " + ".join(f"{n}×{c}" if n > 1 else c for c, n in parts), f"{total:g}Ψ"
        text = f"{subject} · {topic} · {value}"
        if self.relation:
            text += f" ({_RELATIONS[self.relation]} {_stage_name(self.other or '')})"
        return self._with_stance(text)

    def _with_stance(self, text: str) -> str:
        """`text` followed by the stance unless the claim is asserted."""
        return text if self.stance == "asserted" else f"{text} — {self.stance}"


_RELATIONS = {"same-as": "same as", "adds-over": "on top of", "first-at": "first at", "ratio-to": "of", "more-than": "than", "less-than": "than"}
"""How each relation reads after the value ("2× of DDP", "more than ZeRO-1")."""


def _value(value: object, topic: str) -> str:
    """A claim's value as a grader reads it: a set in braces, a multiple of Ψ, a memory split, a ratio."""
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(sorted(map(str, value))) + "}"
    if topic == "memory" and isinstance(value, tuple):
        whole, sliced = value
        return " + ".join(term for term in (f"{whole:g}Ψ" if whole else "", f"{sliced:g}Ψ/N_d" if sliced else "") if term)
    if topic == "volume" and isinstance(value, float):
        return f"{value:g}Ψ"
    if value in ("more-than", "less-than"):
        return str(value).split("-")[0]
    return str(value)


_NAMES = {"ddp": "DDP", "zero": "ZeRO", "zero12": "ZeRO-1/2", "zero123": "ZeRO-1/2/3"}


def _stage_name(stage: str) -> str:
    """A stage as the lesson writes it ("zero3" → "ZeRO-3")."""
    if stage in _NAMES:
        return _NAMES[stage]
    return f"ZeRO-{stage[4:]}" if stage.startswith("zero") else stage
