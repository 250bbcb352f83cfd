"""The lesson's facts about each ZeRO stage (facts.yaml): what it shards, what it communicates, what it keeps per GPU."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from autograde.yaml_data import read_yaml

FACTS_PATH = Path(__file__).with_name("facts.yaml")


class FactsError(ValueError):
    """facts.yaml is inconsistent; the message names the entry."""


@dataclass(frozen=True)
class Named:
    """Something the lesson names, in both languages."""

    zh: str
    en: str

    def name(self, lang: str) -> str:
        """The name in `lang` ("zh" or "en")."""
        return self.zh if lang == "zh" else self.en


@dataclass(frozen=True)
class Step:
    """One collective a stage runs per training step."""

    collective: str
    carries: str
    when: str


@dataclass(frozen=True)
class Facts:
    """The table every veto is judged against."""

    state_bytes: Mapping[str, float]
    """Bytes per parameter of each model state."""
    names: Mapping[str, Named]
    """Every state's and phase's name."""
    never_sharded: frozenset[str]
    shard_axis: str
    """The parallelism axis whose ranks every stage divides its states over (dp)."""
    units: Mapping[str, float]
    """Ψ one run of each collective moves."""
    sharded: Mapping[str, frozenset[str]]
    steps: Mapping[str, tuple[Step, ...]]
    order: tuple[str, ...]
    groups: Mapping[str, tuple[str, ...]]
    each: frozenset[str]
    """Groups a claim about is a claim about each member ("ZeRO-1/2 move 2Ψ"), not about what they share."""

    @classmethod
    def from_file(cls, path: Path = FACTS_PATH) -> Facts:
        """Load and check `path`."""
        data: dict[str, Any] = read_yaml(path)
        states = {name: float(entry["bytes"]) for name, entry in data["states"].items() if "bytes" in entry}
        stages = data["stages"]
        names = {name: Named(entry["zh"], entry["en"]) for section in ("states", "phases") for name, entry in data[section].items()}
        facts = cls(
            state_bytes=states,
            names=names,
            never_sharded=frozenset(data["never_sharded"]),
            shard_axis=data["shard_axis"],
            units={name: float(psi) for name, psi in data["collectives"].items()},
            sharded={stage: frozenset(row["shards"]) for stage, row in stages.items()},
            steps={stage: tuple(Step(**step) for step in row["steps"]) for stage, row in stages.items()},
            order=tuple(data["order"]),
            groups={group: tuple(entry["members"]) for group, entry in data["groups"].items()},
            each=frozenset(group for group, entry in data["groups"].items() if entry["each"]),
        )
        facts._check(path.name)
        return facts

    def _check(self, file_name: str) -> None:
        """Reject a stage that shards an unknown state or runs an unknown collective, and an order that misses a stage."""
        for stage, shards in self.sharded.items():
            steps = self.steps[stage]
            unknown = (
                shards - self.state_bytes.keys()
                | {s.collective for s in steps} - self.units.keys()
                | {n for s in steps for n in (s.carries, s.when)} - self.names.keys()
            )
            if unknown:
                raise FactsError(f"{file_name}: stages.{stage} names unknown states, collectives or phases {sorted(unknown)}")
        if set(self.order) != set(self.sharded) or any(set(m) - set(self.sharded) for m in self.groups.values()):
            raise FactsError(f"{file_name}: `order` and `groups` must name the stages of `stages` ({', '.join(self.sharded)})")

    def members(self, stage: str) -> tuple[str, ...]:
        """The stages a name stands for: itself, or a group's members."""
        return self.groups.get(stage, (stage,) if stage in self.sharded else ())

    def extra_steps(self, stage: str, over: str) -> list[Step]:
        """The steps `stage` runs beyond those of `over` (the same collective carrying the same state counted once each)."""
        left = list(self.steps[over])
        extra = []
        for step in self.steps[stage]:
            match = next((s for s in left if (s.collective, s.carries) == (step.collective, step.carries)), None)
            if match is None:
                extra.append(step)
            else:
                left.remove(match)
        return extra

    def volume(self, stage: str) -> float:
        """Ψ per rank one training step of `stage` moves."""
        return sum(self.units[step.collective] for step in self.steps[stage])

    def memory_split(self, stage: str) -> tuple[float, float]:
        """(Ψ kept whole, Ψ divided by N_d) of the stage's per-GPU model states."""
        whole = sum(b for state, b in self.state_bytes.items() if state not in self.sharded[stage])
        return whole, sum(self.state_bytes.values()) - whole

    def first_sharding(self, state: str) -> str | None:
        """The first stage, in order, that shards `state`."""
        return next((stage for stage in self.order if state in self.sharded[stage]), None)

    def count(self, stage: str, collective: str | None, carries: str | None = None) -> int:
        """How many of the stage's steps run `collective` (any, if None) carrying `carries` (anything, if None)."""
        return sum((collective is None or s.collective == collective) and (carries is None or s.carries == carries) for s in self.steps[stage])

    def previous(self, stage: str) -> str | None:
        """The stage before `stage` in order."""
        index = self.order.index(stage)
        return self.order[index - 1] if index > 0 else None


@cache
def lesson_facts() -> Facts:
    """The facts shipped with the package, loaded once."""
    return Facts.from_file()
