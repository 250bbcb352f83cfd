"""Are static-memory formulas read as the Ψ each rank keeps whole and the Ψ it divides by N_d?"""
from __future__ import annotations

import pytest

from autograde.veto.cues import cue_book
from autograde.veto.facts import lesson_facts


def splits(sentence: str) -> list[tuple[float, float]]:
    """(full, sliced) Ψ of each whole static-memory formula in `sentence`."""
    book = cue_book()
    return [f.split for f in book.formulas.formulas(book.prepare(sentence), sum(lesson_facts().state_bytes.values()))]


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("ZeRO-2 = 2Ψ + 14Ψ/N_d", [(2.0, 14.0)]),
        ("ZeRO-1: 2Ψ + 2Ψ + 12Ψ/N_d; ZeRO-3: 16Ψ/N_d", [(4.0, 12.0), (0.0, 16.0)]),
        ("ZeRO-2 = 2Ψ + (2Ψ + 12Ψ)/N_d", [(2.0, 14.0)]),
        ("$M_2 = 2\\Psi + \\frac{2\\Psi + 12\\Psi}{N_d}$", [(2.0, 14.0)]),
        ("Z2 = 2Ψ（参数）+ 2Ψ/N_d（梯度）+ 12Ψ/N_d", [(2.0, 14.0)]),
        ("ZeRO-3 holds 2Ψ/N_d of BF16 params, the full 2Ψ of BF16 grads (for the reduce-scatter), and 12Ψ/N_d of Adam", [(2.0, 14.0)]),
        ("ZeRO-1 是 4Ψ + 12Ψ/N_d，ZeRO-2 是 2Ψ + 14Ψ/N_d", [(4.0, 12.0), (2.0, 14.0)]),
        ("N_d = 64 时 ZeRO-1 = 4Ψ + 12Ψ/64。", [(4.0, 12.0)]),
    ],
)
def test_formulas_and_their_split(sentence: str, expected: list[tuple[float, float]]) -> None:
    """Are plus signs, list separators, state labels, asides, a sum divided as a whole and a number of ranks the sentence
    gives for N_d read into one split per formula?"""
    assert splits(sentence) == expected


@pytest.mark.parametrize(
    "sentence",
    [
        "DDP 每卡 16Ψ。",
        "显存从 16Ψ 降到更低。",
        "params 2Ψ、grads 2Ψ、Adam 12Ψ，每个 rank 留 1/N_d。",
        "ZeRO-1 with FP32 gradient accumulation adds 4Ψ + 4Ψ/N_d.",
        "ZeRO-2：2Ψ + 14Ψ/N_d vs 4Ψ + 12Ψ/N_d",
    ],
)
def test_what_is_not_a_stage_formula(sentence: str) -> None:
    """Is a single full total, an old value, a list divided as a whole after it, a partial sum or a formula compared
    with ("vs …") not read as a stage's own formula?"""
    assert [split for split in splits(sentence) if split != (2.0, 14.0)] == []
