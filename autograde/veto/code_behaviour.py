"""What each stage of a submitted cell does: the memory terms it divides by dp and its communication in Ψ.

The numbers come from calls made elsewhere (PROBE_CALLS and every other call of the hidden tests, in the sandbox);
the source is read where the numbers cannot tell two sets of terms apart, fit none, or are missing (a function that
raises, hangs or kills its process for the probes does not escape its veto).
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

from autograde.calls import Call
from autograde.veto.cell_source import parse_cell
from autograde.veto.code_rules import RULES, STAGES
from autograde.veto.divisor_fit import sets_divided_otherwise
from autograde.veto.stage_formulas import StageFormula, read_stage_formulas

MEMORY_FUNCTION = "zero_memory_per_gpu"
COMM_FUNCTION = "zero_communication_volume"
SELECTABLE_STAGES = (0, 1, 2, 3)
"""Every stage the exercise's if-chain selects between, so its final else can be named."""
DEFAULT_K = 12
"""The exercise's default optimizer multiplier; a submission that ignores `k` is judged at this value alone."""
MEMORY_PROBES: tuple[tuple[int, int, int], ...] = (
    (1_000, 4, 12),
    (7_000, 8, 6),
    (123_456, 16, 20),
    (5_000, 2, 12),
    (7_000_000_000, 8, 12),
    (7_000_000_000, 64, 12),
)
"""(num_params, dp, k): dp and k vary so the 2-byte terms and the k term separate, four probes keep k at its default
(a submission that hard-codes 12 is still read), Ψ is a multiple of dp so `//` still reads, and 7B is the lesson's model
(a table looked up for it does not pass for a formula)."""
COMM_PROBES: tuple[int, ...] = (1_000, 7_000, 123_456, 7_000_000_000)
"""num_params values for the communication volume."""


ROUNDING_BYTES = 4.0
"""Slack per answer beyond float rounding when the rest of the tests' calls are read: `//` floors each divided term."""
Case = tuple[int, int, int]
"""(num_params, dp, k) of one zero_memory_per_gpu call."""


@dataclass(frozen=True)
class StageBehaviour:
    """What the submission does for one stage, as far as the probes, the hidden tests' calls and the source tell."""

    memory: tuple[float, ...] | None
    """zero_memory_per_gpu at MEMORY_PROBES with FP32 accumulation off; None unless every probe gave a number."""
    sharded: tuple[frozenset[str], ...]
    """Sets of terms divided by dp that reproduce the stage's numbers, up to a constant; empty when nothing tells."""
    decided_by: Literal["numbers", "source"]
    """Whether the source picked `sharded` among sets the numbers cannot tell apart, or stood in for missing numbers."""
    formula: StageFormula | None
    fp32_extra: str | None
    """What FP32 gradient accumulation adds, as "4Ψ" or "4Ψ/dp"; None when it is neither."""
    comm_psi: float | None
    """zero_communication_volume as a multiple of Ψ; None when it is not one."""
    examples: tuple[tuple[Case, float], ...] = ()
    """Calls the stage answered and their numbers (the probes', or the other tests' when those decided), for evidence."""
    probe_evaded: bool = False
    """The probe cases and the rest of the hidden tests' calls imply different terms (the rest decide)."""


def observe(source: str, answers: Mapping[Call, float | None]) -> dict[int, StageBehaviour]:
    """Read each stage's behaviour from the answers (probes first, then every other call the tests made) and its formula
    from the source (IPython syntax allowed). A stage that gave no number at all is judged from its source alone."""
    tree = parse_cell(source)
    formulas = {} if tree is None else read_stage_formulas(
        tree, function=MEMORY_FUNCTION, selector="stage", target="per_gpu", divisor="dp", cases=SELECTABLE_STAGES)
    behaviours = {}
    for stage in STAGES:
        memory = _numbers([answers.get(memory_call(stage, False, probe)) for probe in MEMORY_PROBES])
        with_fp32 = _numbers([answers.get(memory_call(stage, True, probe)) for probe in MEMORY_PROBES])
        formula = formulas.get(stage)
        rest = _other_cases(answers, stage)
        sharded, decided_by = _sharded(memory, formula)
        from_rest = _explaining_sets([value for _, value in rest], [case for case, _ in rest], ROUNDING_BYTES) if rest else ()
        evaded = bool(memory is not None and sharded and from_rest and not set(sharded) & set(from_rest))
        if evaded or (memory is None and from_rest):
            sharded, decided_by = from_rest, "numbers"
        elif memory is None and not rest and formula is not None and RULES.terms.keys() <= formula.named:
            sharded, decided_by = (frozenset(formula.divided & RULES.terms.keys()),), "source"
        examples = tuple(zip(MEMORY_PROBES, memory)) if memory is not None and not evaded else tuple(rest)
        comm = _numbers([answers.get(comm_call(stage, psi)) for psi in COMM_PROBES])
        behaviours[stage] = StageBehaviour(memory, sharded, decided_by, formula, _fp32_extra(memory, with_fp32),
                                           psi_multiple(comm, COMM_PROBES), examples, evaded)
    return behaviours


def memory_call(stage: int, fp32_grad_accum: bool, probe: Case) -> Call:
    """zero_memory_per_gpu(num_params, dp, stage, k=…, fp32_grad_accum=…), as the hidden tests call it."""
    num_params, dp, k = probe
    return Call(MEMORY_FUNCTION, (num_params, dp, stage), (("k", k), ("fp32_grad_accum", fp32_grad_accum)))


def comm_call(stage: int, num_params: int) -> Call:
    """zero_communication_volume(num_params, stage)."""
    return Call(COMM_FUNCTION, (num_params, stage))


def memory_bytes(sharded: frozenset[str], num_params: int, dp: int, k: int) -> float:
    """Per-GPU bytes when exactly the `sharded` terms are divided by dp."""
    return sum(
        (k if term.bytes == "k" else int(term.bytes)) * num_params / (dp if name in sharded else 1)
        for name, term in RULES.terms.items()
    )


def _other_cases(answers: Mapping[Call, float | None], stage: int) -> list[tuple[Case, float]]:
    """Every other zero_memory_per_gpu(…, stage, fp32 off) call the tests made that returned a number, with it."""
    probes = {memory_call(stage, False, probe) for probe in MEMORY_PROBES}
    found = []
    for call, value in answers.items():
        if call.function != MEMORY_FUNCTION or call in probes or value is None or len(call.args) != 3:
            continue
        num_params, dp, called_stage = call.args
        keywords = dict(call.kwargs)
        if called_stage == stage and keywords.get("fp32_grad_accum") is False and isinstance(keywords.get("k"), int):
            found.append(((num_params, dp, keywords["k"]), value))
    return found


def _sharded(
    memory: tuple[float, ...] | None, formula: StageFormula | None
) -> tuple[tuple[frozenset[str], ...], Literal["numbers", "source"]]:
    """The sets of terms the stage divides by dp at the probes, and whether the source had to pick them.

    The numbers decide when one set explains them (at every probe, else at the default k alone, else divided by some
    other function of dp such as dp - 1); the formula's own division picks among sets that tie (the 2-byte parameters
    and gradients), or stands alone when no set fits but it reads every term.
    """
    if memory is None:
        return (), "numbers"
    default_k = [i for i, (_, _, k) in enumerate(MEMORY_PROBES) if k == DEFAULT_K]
    sharded = (
        _explaining_sets(memory, MEMORY_PROBES)
        or _explaining_sets([memory[i] for i in default_k], [MEMORY_PROBES[i] for i in default_k])
        or sets_divided_otherwise(memory, MEMORY_PROBES, {name: term.bytes for name, term in RULES.terms.items()})
    )
    written = frozenset(formula.divided & RULES.terms.keys()) if formula else None
    if written is not None and (written in sharded if len(sharded) > 1 else not sharded and RULES.terms.keys() <= formula.named):
        return (written,), "source"
    return sharded, "numbers"


def _explaining_sets(values: Sequence[float], cases: Sequence[Case], slack: float = 0.0) -> tuple[frozenset[str], ...]:
    """The sets of terms whose division by dp reproduces the values at `cases`, up to a constant (an off-by-one is a
    bug, not a shard), within float rounding plus `slack` bytes."""
    every_set = (frozenset(terms) for size in range(len(RULES.terms) + 1) for terms in combinations(RULES.terms, size))
    rounding = 1e-9 * max(1.0, *(abs(value) for value in values)) + 2 * slack
    found = []
    for terms in every_set:
        offsets = [value - memory_bytes(terms, *case) for value, case in zip(values, cases)]
        if all(abs(offset - offsets[0]) <= rounding for offset in offsets):
            found.append(terms)
    return tuple(found)


def _numbers(values: list[float | None]) -> tuple[float, ...] | None:
    """The values, or None when any is missing."""
    return None if None in values else tuple(value for value in values if value is not None)


def _fp32_extra(without: tuple[float, ...] | None, with_fp32: tuple[float, ...] | None) -> str | None:
    """The FP32-accumulation extra as a multiple of Ψ, or of Ψ/dp."""
    if without is None or with_fp32 is None:
        return None
    extras = [w - wo for w, wo in zip(with_fp32, without)]
    psis = [num_params for num_params, _, _ in MEMORY_PROBES]
    constant = psi_multiple(extras, psis)
    if constant is not None:
        return f"{constant:g}Ψ"
    sharded = psi_multiple([extra * dp for extra, (_, dp, _) in zip(extras, MEMORY_PROBES)], psis)
    return None if sharded is None else f"{sharded:g}Ψ/dp"


def psi_multiple(values: Sequence[float] | None, psis: Sequence[int]) -> float | None:
    """m when every value is m·Ψ for its Ψ."""
    if values is None:
        return None
    ratios = [value / psi for value, psi in zip(values, psis)]
    return ratios[0] if all(_close(ratio, ratios[0]) for ratio in ratios) else None


def _close(a: float, b: float) -> bool:
    """Equal up to float rounding."""
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


PROBE_CALLS: tuple[Call, ...] = (
    *(comm_call(stage, psi) for stage in STAGES for psi in COMM_PROBES),
    *(memory_call(stage, fp32, probe) for stage in STAGES for fp32 in (False, True) for probe in MEMORY_PROBES),
)
"""Every call the code checks need answered: both functions at every probe, FP32 accumulation off and on."""
