"""Are stage aliases tagged, and is the stage a claim is about found?"""
from __future__ import annotations

import pytest

from autograde.veto.cues import cue_book
from autograde.veto.stages import changed_to, last_subject, subject_at


def _tags(sentence: str) -> list[tuple[str, bool]]:
    """(stage, is reference) for each stage mention of `sentence`."""
    book = cue_book()
    return [(m.stage, m.reference) for m in book.tagger.mentions(book.prepare(sentence))]


@pytest.mark.parametrize(
    ("sentence", "stage"),
    [
        ("ZeRO-1/2", "zero12"),
        ("ZeRO-1 and ZeRO-2", "zero12"),
        ("Z1/Z2", "zero12"),
        ("ZeRO-1/2/3", "zero123"),
        ("P_{os+g+p}", "zero3"),
        ("P_{os+g}", "zero2"),
        ("P_{os}", "zero1"),
        ("Fully Sharded Data Parallel", "zero3"),
        ("朴素 DP", "ddp"),
        ("ZeRO-0", "ddp"),
        ("ZeRO", "zero"),
        ("ZeRO-Infinity", "zero"),
    ],
)
def test_alias(sentence: str, stage: str) -> None:
    """Is each alias tagged as its stage?"""
    assert _tags(sentence) == [(stage, False)]


@pytest.mark.parametrize(
    "sentence", ["memory goes to zero", "DP rank 0", "the DP group", "partition_activations", "zero communication"]
)
def test_not_a_stage(sentence: str) -> None:
    """Are the number zero and DP as a dimension left untagged?"""
    assert _tags(sentence) == []


@pytest.mark.parametrize(
    ("sentence", "tags"),
    [
        ("ZeRO-2 相比 ZeRO-1 多切了梯度", [("zero2", False), ("zero1", True)]),
        ("与 ZeRO-1 相比，ZeRO-2 还切了梯度", [("zero1", True), ("zero2", False)]),
        ("When we switched from ZeRO-1 to ZeRO-2", [("zero1", True), ("zero2", False)]),
        ("ZeRO-3 = ZeRO-2 + 参数分片", [("zero3", False), ("zero2", True)]),
        ("ZeRO-3 的通信是 DDP 的 1.5 倍", [("zero3", False), ("ddp", True)]),
        ("不是 TP，而是 ZeRO-3", [("tp", True), ("zero3", False)]),
    ],
)
def test_compared_stage_is_a_reference(sentence: str, tags: list[tuple[str, bool]]) -> None:
    """Is a stage that is only compared to marked as a reference, not a subject?"""
    assert _tags(sentence) == tags


@pytest.mark.parametrize(
    ("sentence", "axis"),
    [
        ("Megatron tensor parallelism", "tp"),
        ("sequence parallelism", "sp"),
        ("序列并行", "sp"),
        ("context parallel (ring attention)", "cp"),
        ("上下文并行", "cp"),
        ("pipeline parallelism", "pp"),
    ],
)
def test_other_axes_are_tagged(sentence: str, axis: str) -> None:
    """Is another parallelism axis tagged, so that a claim it is the subject of is not read as ZeRO's?"""
    assert _tags(sentence)[0] == (axis, False)


def test_subject_falls_back_to_topic() -> None:
    """Does a claim with no stage in its sentence inherit the topic?"""
    assert subject_at([], (0, 10), 5, "zero3") == "zero3"


def test_reference_carries_along_a_list() -> None:
    """Is every stage of a compared list ("相比 DDP / ZeRO-2") a reference, but not the subject after a comma?"""
    assert _tags("ZeRO-3 的通信量相比 DDP / ZeRO-2 增加了 50%") == [("zero3", False), ("ddp", True), ("zero2", True)]
    assert _tags("Compared with ZeRO-1, ZeRO-2 moves more data") == [("zero1", True), ("zero2", False)]


def test_aside_between_stage_and_reference_cue() -> None:
    """Is a stage still a reference when a parenthetical sits between it and its cue ("在 ZeRO-2（…）的基础上")?"""
    assert _tags("ZeRO-3 在 ZeRO-2（只切梯度和优化器状态）的基础上再切参数") == [("zero3", False), ("zero2", True)]


def test_aside_does_not_become_the_topic() -> None:
    """Does a stage named only in parentheses leave the topic to the sentence's main subject?"""
    book = cue_book()
    mentions = book.tagger.mentions(book.prepare("ZeRO-3 在 ZeRO-2 的基础上再切参数（ZeRO-2 只切梯度和优化器状态）"))
    assert [m.aside for m in mentions] == [False, False, True]
    assert last_subject(mentions, None) == "zero3"


def test_gloss_of_a_reference_is_a_reference() -> None:
    """Is an alias glossed in parentheses after a compared stage ("vs ZeRO-2 (stage 2)") also only compared to?"""
    assert _tags("ZeRO-3 (stage 3) vs ZeRO-2 (stage 2)") == [("zero3", False), ("zero3", False), ("zero2", True), ("zero2", True)]


@pytest.mark.parametrize(
    ("sentence", "value", "stage"),
    [
        ("ZeRO-2 到 ZeRO-3，通信从 2Ψ 变成 3Ψ。", "3ψ", "zero3"),
        ("From ZeRO-2 to ZeRO-3 the traffic goes from 2Ψ to 3Ψ.", "3ψ", "zero3"),
        ("ZeRO-2 到 ZeRO-3，通信是 3Ψ。", "3ψ", None),
        ("ZeRO-3 的通信从 2Ψ 变成 3Ψ。", "3ψ", None),
    ],
)
def test_changed_to(sentence: str, value: str, stage: str | None) -> None:
    """Is the new value of a 'from x to y' change bound to the stage the sentence moves to, and only then?"""
    text = cue_book().prepare(sentence)
    assert changed_to(text, text.rindex(value)) == stage
