"""Does normalisation give every symbol and number one spelling?"""
from __future__ import annotations

import pytest

from autograde.veto.normalize import normalize

# (as written, canonical form): the golden pairs for each rewrite.
GOLDEN = [
    ("ＺｅＲＯ－３ 不会切分激活；", "ZeRO-3 不会切分激活;"),
    ("ZeRO\u20113 and ZeRO–2 and ZeRO—1", "ZeRO-3 and ZeRO-2 and ZeRO-1"),
    ("“全分片”", '"全分片"'),
    (r"$\frac{16\Psi}{N_d} \to 0$ as $N_d \to \infty$", "16Ψ/(N_d) → 0 as N_d → ∞"),
    (r"$V_{\text{ZeRO-1}} = 2\Psi$", "V_ZeRO-1 = 2Ψ"),
    (r"2 \times \frac{N_d - 1}{N_d} \Psi", "2Ψ"),
    ("2(N_d−1)/N_d Ψ", "2Ψ"),
    ("three psi", "3Ψ"),
    ("三份 Ψ", "3Ψ"),
    ("两个 Ψ", "2Ψ"),
    ("3P", "3Ψ"),
    ("2 * num_params", "2Ψ"),
    ("ψ × 3", "3Ψ"),
    ("(16Ψ)", "16Ψ"),
    ("梯度（2Ψ）再", "梯度 2Ψ 再"),
    ("ZeRO-3 的第三个 Ψ", "ZeRO-3 的第3个 Ψ"),
    ("是 DDP 的三倍", "是 DDP 的3x"),
    ("1.5 倍", "1.5x"),
    ("1.5×", "1.5x"),
    ("twice as much", "2x as much"),
    ("one and a half times", "1.5x"),
    ("doubles the traffic", "2x the traffic"),
    ("多一倍", "2x"),
    ("多 50%", "1.5x"),
    ("通信量减半", "通信量0.5x"),
    ("第三阶段", "第3阶段"),
    ("1/N", "1/N_d"),
    ("N_{d}", "N_d"),
    ("a  b\n c", "a b c"),
    ("a reduce scatter plus an all gather", "a reduce-scatter plus an all-gather"),
    ("all-gahter, reduce-scater, allreduce, redcue-scatter", "all-gather, reduce-scatter, all-reduce, reduce-scatter"),
    ("AllGather / ReduceScatter / All_Reduce", "all-gather / reduce-scatter / all-reduce"),
    ("all_gather_into_tensor and reduce_scatter_tensor", "all-gather and reduce-scatter"),
    ("it all-gathers, then reduce scattering, all-reducing", "it all-gathers, then reduce-scattering, all-reducing"),
    ("the stages all reduce memory", "the stages all reduce memory"),
    ("on 8 GPUs the all-gather moves Ψ/8", "on 8 GPUs the all-gather moves Ψ/N_d"),
    ("N_d = 64：每卡 12Ψ/64", "N_d = 64:每卡 12Ψ/N_d"),
    ("Ψ/8 of the weights", "Ψ/8 of the weights"),
]


@pytest.mark.parametrize(("written", "canonical"), GOLDEN)
def test_golden(written: str, canonical: str) -> None:
    """Is each spelling rewritten to its canonical form?"""
    assert normalize(written) == canonical


def test_case_is_kept() -> None:
    """Is case kept, so that the stage tagger can tell ZeRO from the number zero?"""
    assert normalize("ZeRO goes to zero") == "ZeRO goes to zero"


def test_standalone_p_but_not_p_os() -> None:
    """Is a lone P read as Ψ while P_os, TP and PP stay as they are?"""
    assert normalize("P_os, TP, PP and P") == "P_os, TP, PP and Ψ"
