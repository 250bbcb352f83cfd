"""The four hidden tests of lesson 5 as checks on calls; the expected values never leave the grader."""
from __future__ import annotations

from collections.abc import Iterator

from autograde.calls import Call
from autograde.grading.hidden_tests import Check, Difference
from autograde.veto.code_behaviour import COMM_PROBES, MEMORY_PROBES

MEMORY = "zero_memory_per_gpu"
COMMUNICATION = "zero_communication_volume"
LESSON_CASES = ((7_000_000_000, 1, 12), (7_000_000_000, 8, 12), (7_000_000_000, 64, 12), (1_000_000, 1, 12))
"""The lesson's 7B table rows and the self-check's size, judged first; then the code vetoes' probe cases (so the vetoes
read the very answers that score points), then the seeded cases."""


def memory(num_params: int, dp: int, stage: int, k: int, fp32_grad_accum: bool) -> Call:
    """zero_memory_per_gpu called as the lesson's signature names its keyword arguments."""
    return Call(MEMORY, (num_params, dp, stage), (("k", k), ("fp32_grad_accum", fp32_grad_accum)))


def expected_memory(num_params: int, dp: int, stage: int, k: int, fp32_grad_accum: bool) -> float:
    """The lesson's formula, written independently of the student's code."""
    params, grads, optimizer = 2 * num_params, 2 * num_params, k * num_params
    extra = (4 * num_params if stage <= 1 else 4 * num_params / dp) if fp32_grad_accum else 0.0
    if stage == 0:
        return params + grads + optimizer + extra
    if stage == 1:
        return params + grads + optimizer / dp + extra
    if stage == 2:
        return params + (grads + optimizer) / dp + extra
    return (params + grads + optimizer) / dp + extra


def cases(seed: int, count: int) -> Iterator[tuple[int, int, int]]:
    """The lesson's cases, the vetoes' probe cases, then `count` seeded (num_params, dp, k) over wide ranges."""
    yield from LESSON_CASES
    yield from MEMORY_PROBES
    state = seed
    for produced in range(count):
        state = (state * 6364136223846793005 + 1442695040888963407) % 18446744073709551616
        digits = 1 + (state >> 11) % 12
        num_params = 1 + (state >> 17) % (10 ** digits)
        dp = 1 + (state >> 40) % (4096 if produced % 2 else 97)
        k = (4, 8, 12, 16)[(state >> 60) % 4]
        yield num_params, dp, k


def formulas() -> Iterator[Check]:
    """Stages 1/2/3 without FP32 accumulation equal the lesson's formulas."""
    for num_params, dp, k in cases(seed=5, count=300):
        for stage in (1, 2, 3):
            yield Check(f"{MEMORY}({num_params}, dp={dp}, stage={stage}, k={k})",
                        memory(num_params, dp, stage, k, False), expected_memory(num_params, dp, stage, k, False))


def fp32_branch() -> Iterator[Check]:
    """Turning on FP32 accumulation adds exactly 4Ψ at stage 1 and 4Ψ/dp at stages 2 and 3."""
    for num_params, dp, k in cases(seed=7, count=300):
        for stage in (1, 2, 3):
            extra = 4 * num_params if stage == 1 else 4 * num_params / dp
            yield Check(f"fp32_grad_accum extra at stage {stage} (num_params={num_params}, dp={dp}, k={k})",
                        Difference(memory(num_params, dp, stage, k, True), memory(num_params, dp, stage, k, False)), extra)


def communication() -> Iterator[Check]:
    """ZeRO-1/2 move 2Ψ elements per step and ZeRO-3 moves 3Ψ."""
    for num_params in (*(case[0] for case in LESSON_CASES), *COMM_PROBES, *(case[0] for case in cases(seed=11, count=300))):
        for stage, multiple in ((1, 2), (2, 2), (3, 3)):
            yield Check(f"{COMMUNICATION}({num_params}, stage={stage})",
                        Call(COMMUNICATION, (num_params, stage)), multiple * num_params)


def dp1() -> Iterator[Check]:
    """At dp=1 nothing is sharded: stages 0-3 agree, with and without FP32 accumulation."""
    for num_params, _dp, k in cases(seed=13, count=200):
        for fp32_grad_accum in (False, True):
            what = f"dp=1, num_params={num_params}, k={k}, fp32_grad_accum={fp32_grad_accum}"
            baseline = memory(num_params, 1, 0, k, fp32_grad_accum)
            yield Check(f"stage 0 at {what}", baseline,
                        baseline if fp32_grad_accum else expected_memory(num_params, 1, 0, k, False))
            for stage in (1, 2, 3):
                yield Check(f"stage {stage} vs stage 0 at {what}", memory(num_params, 1, stage, k, fp32_grad_accum), baseline)


CHECKS = {"test_formulas": formulas, "test_fp32_branch": fp32_branch, "test_communication": communication, "test_dp1": dp1}
"""grade_id → the checks of that hidden test, in the order they are judged."""
