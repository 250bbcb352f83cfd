"""Code vetoes: run the submitted ZeRO functions, infer what each stage shards and sends, match declared misconceptions."""
from __future__ import annotations

import ast
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any, Literal

import yaml

from autograde.veto.finding import CATALOGUE, Veto
from autograde.grading.calls import Call
from autograde.veto.stage_formulas import StageFormula, read_stage_formulas

MISCONCEPTIONS_PATH = Path(__file__).with_name("code_misconceptions.yaml")

MEMORY_FUNCTION = "zero_memory_per_gpu"
COMM_FUNCTION = "zero_communication_volume"
STAGES = (1, 2, 3)
"""The stages whose formulas are blanks."""
SELECTABLE_STAGES = (0, 1, 2, 3)
"""Every stage the exercise's if-chain selects between, so its final else can be named."""
MEMORY_PROBES: tuple[tuple[int, int, int], ...] = ((1_000, 4, 12), (7_000, 8, 6), (123_456, 16, 20))
"""(num_params, dp, k): dp and k vary so the 2Ψ terms and the kΨ term separate; Ψ is a multiple of dp so `//` still reads."""
COMM_PROBES: tuple[int, ...] = (1_000, 7_000, 123_456)
"""num_params values for the communication volume."""


@dataclass(frozen=True)
class Misconception:
    """One declared wrong answer: the veto it earns, where it applies and how it behaves."""

    name: str
    veto: str
    stages: tuple[int, ...]
    signature: str
    """Which behaviour it is told by: a key of SIGNATURES."""
    value: Any
    """The signature's value: terms divided by dp, a multiple of Ψ, or a stage to compare with."""
    zh: str
    en: str

    @classmethod
    def from_entry(cls, entry: dict[str, Any], file_name: str) -> Misconception:
        """One entry of the rules file, checked against the veto catalogue, the stages and the known signatures."""
        name = entry.get("name", "?")
        signatures = [key for key in SIGNATURES if key in entry]
        if entry.get("veto") not in CATALOGUE or len(signatures) != 1 or not set(entry.get("stages", ())) <= set(STAGES):
            raise ValueError(
                f"{file_name}: misconception {name!r} needs a veto id from catalogue.yaml, stages among {STAGES} and "
                f"exactly one of {', '.join(SIGNATURES)}; it has veto {entry.get('veto')!r}, "
                f"stages {entry.get('stages')} and {signatures or 'no signature'}"
            )
        return cls(
            name=name,
            veto=entry["veto"],
            stages=tuple(entry["stages"]),
            signature=signatures[0],
            value=entry[signatures[0]],
            zh=entry["zh"],
            en=entry["en"],
        )


@dataclass(frozen=True)
class Rules:
    """The contents of code_misconceptions.yaml."""

    terms: dict[str, int | str]
    """Bytes per parameter of each memory term; "k" stands for the optimizer multiplier."""
    expected_sharded: dict[int, frozenset[str]]
    expected_comm_psi: dict[int, float]
    misconceptions: tuple[Misconception, ...]

    @classmethod
    def from_file(cls, path: Path) -> Rules:
        """Load and check the rules; a wrong entry is reported by name."""
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        misconceptions = tuple(Misconception.from_entry(entry, path.name) for entry in data["misconceptions"])
        return cls(
            terms=dict(data["terms"]),
            expected_sharded={stage: frozenset(terms) for stage, terms in data["expected"]["sharded"].items()},
            expected_comm_psi={stage: float(m) for stage, m in data["expected"]["comm_psi"].items()},
            misconceptions=misconceptions,
        )


@dataclass(frozen=True)
class StageBehaviour:
    """What the submission does for one stage, as far as the probes and the source tell."""

    memory: tuple[float, ...] | None
    """zero_memory_per_gpu at MEMORY_PROBES with FP32 accumulation off; None unless every probe gave a number."""
    sharded: tuple[frozenset[str], ...]
    """Sets of terms divided by dp that reproduce `memory`; empty when none does."""
    decided_by: Literal["numbers", "source"]
    """Whether the source picked `sharded` among sets the numbers cannot tell apart."""
    formula: StageFormula | None
    fp32_extra: str | None
    """What FP32 gradient accumulation adds, as "4Ψ" or "4Ψ/dp"; None when it is neither."""
    comm_psi: float | None
    """zero_communication_volume as a multiple of Ψ; None when it is not one."""


def find_code_vetoes(source: str, answers: Mapping[Call, float | None]) -> list[Veto]:
    """The vetoes a submitted cell earns: declared misconceptions its functions behave like, at most one per veto and stage.

    `answers` holds what the submission's functions returned for PROBE_CALLS (run in the sandbox, not here).
    """
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    behaviours = observe(tree, answers)
    vetoes: list[Veto] = []
    explained: set[tuple[str, int]] = set()
    for misconception in RULES.misconceptions:
        for stage in misconception.stages:
            if (misconception.veto, stage) in explained:
                continue
            veto = SIGNATURES[misconception.signature](misconception, stage, behaviours)
            if veto is not None:
                vetoes.append(veto)
                explained.add((misconception.veto, stage))
    return vetoes


def observe(tree: ast.Module, answers: Mapping[Call, float | None]) -> dict[int, StageBehaviour]:
    """Read each stage's behaviour from the probe answers and its formula from the source."""
    got = {call: answers.get(call) for call in PROBE_CALLS}
    formulas = read_stage_formulas(
        tree, function=MEMORY_FUNCTION, selector="stage", target="per_gpu", divisor="dp", cases=SELECTABLE_STAGES
    )
    behaviours = {}
    for stage in STAGES:
        memory = _numbers([got[_memory_call(stage, False, probe)] for probe in MEMORY_PROBES])
        with_fp32 = _numbers([got[_memory_call(stage, True, probe)] for probe in MEMORY_PROBES])
        sharded = _explaining_sets(memory)
        formula = formulas.get(stage)
        written = frozenset(formula.divided & RULES.terms.keys()) if formula else None
        decided_by: Literal["numbers", "source"] = "numbers"
        if len(sharded) > 1 and written in sharded:
            sharded, decided_by = (written,), "source"
        comm = _numbers([got[_comm_call(stage, psi)] for psi in COMM_PROBES])
        behaviours[stage] = StageBehaviour(
            memory, sharded, decided_by, formula, _fp32_extra(memory, with_fp32), _psi_multiple(comm, COMM_PROBES)
        )
    return behaviours


def _memory_call(stage: int, fp32_grad_accum: bool, probe: tuple[int, int, int]) -> Call:
    """zero_memory_per_gpu(num_params, dp, stage, k, fp32_grad_accum) at one probe."""
    num_params, dp, k = probe
    return Call(MEMORY_FUNCTION, (num_params, dp, stage, k, fp32_grad_accum))


def _comm_call(stage: int, num_params: int) -> Call:
    """zero_communication_volume(num_params, stage)."""
    return Call(COMM_FUNCTION, (num_params, stage))


def _numbers(values: list[float | None]) -> tuple[float, ...] | None:
    """The values, or None when any is missing."""
    return None if None in values else tuple(value for value in values if value is not None)


def _memory_bytes(sharded: frozenset[str], num_params: int, dp: int, k: int) -> float:
    """Per-GPU bytes when exactly the `sharded` terms are divided by dp."""
    return sum(
        (k if per_param == "k" else per_param) * num_params / (dp if term in sharded else 1)
        for term, per_param in RULES.terms.items()
    )


def _explaining_sets(memory: tuple[float, ...] | None) -> tuple[frozenset[str], ...]:
    """The sets of terms whose division by dp reproduces every probe's number."""
    if memory is None:
        return ()
    every_set = (frozenset(terms) for size in range(len(RULES.terms) + 1) for terms in combinations(RULES.terms, size))
    return tuple(
        terms
        for terms in every_set
        if all(_close(value, _memory_bytes(terms, *probe)) for value, probe in zip(memory, MEMORY_PROBES))
    )


def _fp32_extra(without: tuple[float, ...] | None, with_fp32: tuple[float, ...] | None) -> str | None:
    """The FP32-accumulation extra as a multiple of Ψ, or of Ψ/dp."""
    if without is None or with_fp32 is None:
        return None
    extras = [w - wo for w, wo in zip(with_fp32, without)]
    psis = [num_params for num_params, _, _ in MEMORY_PROBES]
    constant = _psi_multiple(extras, psis)
    if constant is not None:
        return f"{constant:g}Ψ"
    sharded = _psi_multiple([extra * dp for extra, (_, dp, _) in zip(extras, MEMORY_PROBES)], psis)
    return None if sharded is None else f"{sharded:g}Ψ/dp"


def _psi_multiple(values: Sequence[float] | None, psis: Sequence[int]) -> float | None:
    """m when every value is m·Ψ for its Ψ."""
    if values is None:
        return None
    ratios = [value / psi for value, psi in zip(values, psis)]
    return ratios[0] if all(_close(ratio, ratios[0]) for ratio in ratios) else None


def _close(a: float, b: float) -> bool:
    """Equal up to float rounding."""
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def _show(value: float) -> str:
    """A number as a grader reads it: no trailing .0."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _veto(misconception: Misconception, stage: int, evidence: str, **detail: Any) -> Veto:
    """The Veto record: evidence ends with the misconception, detail names it in both languages."""
    described = {"name": misconception.name, "zh": misconception.zh, "en": misconception.en}
    return Veto(
        id=misconception.veto,
        evidence=f"{evidence} — {misconception.zh}",
        origin="code",
        detail={"stage": stage, **detail, "misconception": described},
    )


def _match_sharded(misconception: Misconception, stage: int, behaviours: Mapping[int, StageBehaviour]) -> Veto | None:
    """Does the stage divide exactly the misconception's terms by dp, where the right terms cannot explain it?"""
    behaviour = behaviours[stage]
    claimed, right = frozenset(misconception.value), RULES.expected_sharded[stage]
    if behaviour.memory is None or claimed not in behaviour.sharded or right in behaviour.sharded:
        return None
    num_params, dp, k = MEMORY_PROBES[0]
    expected, got = _memory_bytes(right, num_params, dp, k), behaviour.memory[0]
    if behaviour.decided_by == "source" and behaviour.formula is not None:
        divided = ", ".join(term for term in RULES.terms if term in claimed)
        evidence = f"stage {stage}: `{behaviour.formula.text}` divides {divided} by dp"
    else:
        call = f"{MEMORY_FUNCTION}(num_params={num_params}, dp={dp}, stage={stage}, k={k})"
        evidence = f"{call} returned {_show(got)}, expected {_show(expected)}"
    return _veto(
        misconception,
        stage,
        evidence,
        inputs={"function": MEMORY_FUNCTION, "num_params": num_params, "dp": dp, "stage": stage, "k": k},
        expected=expected,
        got=got,
        behaviour={
            "sharded": [[term for term in RULES.terms if term in terms] for terms in behaviour.sharded],
            "decided_by": behaviour.decided_by,
            "source": behaviour.formula.text if behaviour.formula else None,
            "fp32_extra": behaviour.fp32_extra,
        },
    )


def _comm_veto(misconception: Misconception, stage: int, psi: float, contrast: str, **behaviour: Any) -> Veto:
    """A communication veto for a stage that sends psi·Ψ, shown at the first probe and contrasted as given."""
    num_params, expected_psi = COMM_PROBES[0], RULES.expected_comm_psi[stage]
    return _veto(
        misconception,
        stage,
        f"{COMM_FUNCTION}(num_params={num_params}, stage={stage}) returned {_show(psi * num_params)} ({psi:g}Ψ), {contrast}",
        inputs={"function": COMM_FUNCTION, "num_params": num_params, "stage": stage},
        expected=expected_psi * num_params,
        got=psi * num_params,
        behaviour={"comm": f"{psi:g}Ψ", **behaviour},
    )


def _match_comm_psi(misconception: Misconception, stage: int, behaviours: Mapping[int, StageBehaviour]) -> Veto | None:
    """Does the stage communicate the misconception's multiple of Ψ?"""
    psi = behaviours[stage].comm_psi
    if psi is None or not _close(psi, float(misconception.value)):
        return None
    expected_psi = RULES.expected_comm_psi[stage]
    return _comm_veto(misconception, stage, psi, f"expected {_show(expected_psi * COMM_PROBES[0])} ({expected_psi:g}Ψ)")


def _match_comm_above_stage(misconception: Misconception, stage: int, behaviours: Mapping[int, StageBehaviour]) -> Veto | None:
    """Does the stage communicate more than the stage the misconception compares it with?"""
    other = misconception.value
    psi, other_psi = behaviours[stage].comm_psi, behaviours[other].comm_psi
    if psi is None or other_psi is None or psi <= other_psi or _close(psi, other_psi):
        return None
    contrast = f"more than stage {other}'s {_show(other_psi * COMM_PROBES[0])} ({other_psi:g}Ψ)"
    return _comm_veto(misconception, stage, psi, contrast, compared_with={"stage": other, "comm": f"{other_psi:g}Ψ"})


PROBE_CALLS: tuple[Call, ...] = (
    *(_comm_call(stage, psi) for stage in STAGES for psi in COMM_PROBES),
    *(_memory_call(stage, fp32, probe) for stage in STAGES for fp32 in (False, True) for probe in MEMORY_PROBES),
)
"""Every call the code checks need answered: both functions at every probe, FP32 accumulation off and on."""

SIGNATURES: dict[str, Callable[[Misconception, int, Mapping[int, StageBehaviour]], Veto | None]] = {
    "sharded": _match_sharded,
    "comm_psi": _match_comm_psi,
    "comm_above_stage": _match_comm_above_stage,
}
"""How each kind of signature in code_misconceptions.yaml is matched."""

RULES = Rules.from_file(MISCONCEPTIONS_PATH)
