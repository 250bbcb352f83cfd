"""Is a communication ledger read as the student wrote it: each collective's count and Ψ, each sum and its total?"""
from __future__ import annotations

import pytest

from autograde.veto.cues import cue_book
from autograde.veto.text import find_vetoes

C = "wrong-comm-volume"
SHORT = {"all-gather": "ag", "reduce-scatter": "rs", "all-reduce": "ar"}


def parts(sentence: str) -> list[tuple[str, int | None, float | None]]:
    """(collective, count, stated Ψ) for each collective of `sentence`."""
    book = cue_book()
    return [(SHORT[p.collective], p.count, p.value) for p in book.ledger.parts(book.prepare(sentence))]


def sums(sentence: str) -> list[tuple[list[str], float | None]]:
    """(collectives, stated total) for each sum of `sentence`."""
    book = cue_book()
    return [([SHORT[p.collective] for p in lg.parts], lg.total) for lg in book.ledger.ledgers(book.prepare(sentence))]


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("RS (Ψ) + AG (2Ψ)", [("rs", 1, 1.0), ("ag", 1, 2.0)]),
        ("两次 all-gather + 一次 reduce-scatter", [("ag", 2, None), ("rs", 1, None)]),
        ("2 × all-gather", [("ag", 2, None)]),
        ("2Ψ (all-reduce) + Ψ (all-gather)", [("ar", 1, 2.0), ("ag", 1, 1.0)]),
        ("the all-gathers (2Ψ)", [("ag", None, 2.0)]),
        ("all-gather 总共 2Ψ", [("ag", 1, None)]),
        ("the all-gather moves 2Ψ bytes", [("ag", 1, None)]),
        ("其中 2Ψ 的 all-gather", [("ag", 1, None)]),
        ("all gahter (Ψ)", [("ag", 1, 1.0)]),
        ("在前向和反向各 all-gather 一次参数", [("ag", 2, None)]),
        ("all-gathers once in the forward and backward each", [("ag", None, None)]),
    ],
)
def test_each_collective_has_its_count_and_stated_volume(sentence: str, expected: list[tuple[str, int | None, float | None]]) -> None:
    """Are counts ("两次", "2 ×"), values beside a collective and values before it in parentheses read, and a total,
    a memory size or a share of a larger whole not taken for the collective's own volume?"""
    assert parts(sentence) == expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("3Ψ = AG + RS.", [(["ag", "rs"], 3.0)]),
        ("RS + AG = 2Ψ", [(["rs", "ag"], 2.0)]),
        ("3Ψ = 前向 all-gather（Ψ）+ 反向再 all-gather 一次（Ψ，因为前向用完就释放了）+ reduce-scatter（Ψ）。", [(["ag", "ag", "rs"], 3.0)]),
        ("三部分：前向 all-gather、反向 all-gather、reduce-scatter，加起来 3Ψ。", [(["ag", "ag", "rs"], 3.0)]),
        ("前向 all-gather、反向 all-gather。", []),
        ("AR = RS + AG", [(["rs", "ag"], None)]),
        ("ZeRO-1 的 2Ψ 来自两次 all-reduce。", [(["ar"], 2.0)]),
        ("ZeRO-3 的 3Ψ 来自 all-gather，也有 reduce-scatter。", []),
    ],
)
def test_sums_and_their_totals(sentence: str, expected: list[tuple[list[str], float | None]]) -> None:
    """Are "+"-joined collectives one sum with the total stated before or after it, asides in parentheses skipped, and a
    comma list a sum only where the sentence says its items compose a whole?"""
    assert sums(sentence) == expected


@pytest.mark.parametrize(
    ("answer", "question", "expected"),
    [
        ("3Ψ = AG + RS.", "q3", [C]),
        ("3Ψ = 2 × all-gather + reduce-scatter = Ψ + Ψ + Ψ.", "q3", []),
        ("ZeRO-1 = RS (Ψ) + AG (2Ψ) = 3Ψ.", "q2", [C]),
        ("DDP 的 all-reduce 是 2Ψ，ZeRO-1 的 RS + AG 也是 2Ψ。", "q2", []),
        ("3Ψ = all-gather (forward) + all-reduce (backward gradients).", "q3", [C]),
        ("DDP: all-reduce (2Ψ) = reduce-scatter (Ψ) + all-gather (Ψ); ZeRO-3 adds one more all-gather, 3Ψ.", "q3", []),
        ("A common mistake is to write 3Ψ = AG + RS; the backward all-gather is missing.", "q3", []),
        ("ZeRO-3 在前向和反向各 all-gather 一次参数，加上梯度的 reduce-scatter，共 3Ψ。", "q3", []),
        ("ZeRO-1 的 2Ψ 来自两次 all-reduce：一次同步梯度，一次同步参数。", "q2", [C]),
        ("DDP 的 2Ψ 来自一次 all-reduce。", "q2", []),
    ],
)
def test_ledgers_veto_only_when_wrong(answer: str, question: str, expected: list[str]) -> None:
    """Does a ledger veto when a part has the wrong volume, the parts miss the total, or ZeRO-3 has an all-reduce, and
    not when it adds up or is quoted as a mistake?"""
    assert [v.id for v in find_vetoes(answer, question)] == expected
