"""Are answers split into verbatim sentences and sentences into clauses the way a reader would?"""
from __future__ import annotations

import re

import pytest

from autograde.veto.cues import cue_book
from autograde.veto.sentences import quoted_spans, split_sentences


@pytest.mark.parametrize(
    ("answer", "sentences"),
    [
        ("第一句。第二句！第三句？", ["第一句。", "第二句！", "第三句？"]),
        ("A；B．C", ["A；", "B．", "C"]),
        ("It is 1.5x DDP. e.g. this. Fig. 2 shows it.", ["It is 1.5x DDP.", "e.g. this.", "Fig. 2 shows it."]),
        ("Stage 3 splits all state incl. activations. So it fits.", ["Stage 3 splits all state incl. activations.", "So it fits."]),
        ('"FSDP shards activations." That\'s wrong.', ['"FSDP shards activations."', "That's wrong."]),
        ("常见误解是“ZeRO-3 会分片激活。”这是错的。", ["常见误解是“ZeRO-3 会分片激活。”", "这是错的。"]),
        ("- first point\n* second point\n1. third point\n(a) fourth", ["first point", "second point", "third point", "fourth"]),
        ("   \n\n  ", []),
    ],
)
def test_split_sentences(answer: str, sentences: list[str]) -> None:
    """Does each sentence come back verbatim, without its bullet marker?"""
    assert [s.text for s in split_sentences(answer)] == sentences


def test_question_sentence() -> None:
    """Is a sentence ending in a question mark (either width) known to be a question?"""
    assert [s.is_question for s in split_sentences("会吗？不会。Why? Because.")] == [True, False, True, False]


def _clauses(sentence: str) -> list[str]:
    """The clause texts of a prepared sentence."""
    book = cue_book()
    text = book.prepare(sentence)
    return [text[a:b].strip(" ,:") for a, b in book.clauses(text)]


def test_chinese_commas_and_conjunctions_split() -> None:
    """Do Chinese commas and conjunctions such as 因为 start new clauses?"""
    assert _clauses("ZeRO-2 不切参数，只切梯度，因为参数要完整") == ["⟨zero2⟩ 不切参数", "只切梯度", "因为参数要完整"]


def test_english_list_stays_in_one_clause() -> None:
    """Does an English list after a comma or colon stay with its verb?"""
    assert len(_clauses("ZeRO-3 shards everything: parameters, gradients, optimizer states and activations.")) == 1


def test_clause_after_a_closed_passive_list_is_its_own() -> None:
    """Does a noun after 'X and Y are sharded,' open a clause of its own, unless the piece says it extends the list?"""
    assert _clauses("Once gradients and optimizer states are sharded, activations dominate memory")[-1] == "activations dominate memory"
    assert len(_clauses("In ZeRO-3 the parameters are sharded, activations too")) == 1


def test_list_after_a_dash_stays_in_one_clause() -> None:
    """Does a list set off by a dash ("everything — weights, grads and activations —") stay with its verb?"""
    assert _clauses("ZeRO-3 divides everything by N_d — weights, grads and activations — so it fits")[0].endswith("activations")


def test_chinese_list_continuation_stays_in_one_clause() -> None:
    """Does '…，以及激活，都分片' stay one clause?"""
    assert len(_clauses("FSDP 会把参数、梯度，以及每层的激活，都分片到各个 rank")) == 1


def test_because_clause_is_not_merged() -> None:
    """Does a short 'because …' clause keep its own negation?"""
    clauses = _clauses("ZeRO can't shard activations because they aren't redundant.")
    assert len(clauses) == 2 and re.match("because", clauses[1])


def test_negated_conjunction_does_not_split() -> None:
    """Does '不会因此省通信' stay one clause, so that its negation still reaches the verb?"""
    assert _clauses("ZeRO-1 还得做 AG，所以不会因此省通信") == ["⟨zero1⟩ 还得做 ag", "所以不会因此省通信"]


@pytest.mark.parametrize(
    ("sentence", "asserted"),
    [
        ("ZeRO-3 会把激活切开，不然 FSDP 怎么叫 fully sharded？", "⟨zero3⟩ 会把激活切开"),
        ("FSDP shards activations, otherwise how would it save memory?", "⟨zero3⟩ shards activations"),
        ("FSDP 会把激活切开吗，否则怎么省显存？", ""),
        ("Does FSDP shard activations, otherwise how would it save memory?", ""),
        ("ZeRO-3 会切激活吗？", ""),
        ("ZeRO-3 不切激活。", "⟨zero3⟩ 不切激活。"),
    ],
)
def test_rhetorical_question_asserts_its_statement(sentence: str, asserted: str) -> None:
    """Does a statement followed by a rhetorical 'otherwise …?' still assert, while a real question asserts nothing?"""
    book = cue_book()
    [parsed] = split_sentences(sentence)
    assert book.asserted_part(book.prepare(sentence), parsed.is_question) == asserted


def test_clause_resumes_after_a_parenthetical_aside() -> None:
    """Does a clause interrupted by an aside go on after it, so its negation still reaches the verb?"""
    assert _clauses("ZeRO-3 也不能把总显存（包括激活）降到任意值，激活是下限") == [
        "⟨zero3⟩ 也不能把总显存(包括激活)降到任意值",
        "激活是下限",
    ]


@pytest.mark.parametrize(
    ("sentence", "open_at_start", "quoted", "open_at_end"),
    [
        ('同学说"⟨zero3⟩ 也把激活切开了"。', False, ["⟨zero3⟩ 也把激活切开了"], False),
        ("✗ 'zero-2 shards the parameters' → ✓ it doesn't", False, ["zero-2 shards the parameters"], False),
        ('"全分片"的"全"指模型状态。', False, [], False),
        ("it's 'fully sharded', isn't it", False, [], False),
        ('他说:"⟨zero3⟩ 会把激活切开。', False, ["⟨zero3⟩ 会把激活切开。"], True),
        ('所以长序列也没问题。"我不同意。', True, ["所以长序列也没问题。"], False),
    ],
)
def test_quoted_spans(sentence: str, open_at_start: bool, quoted: list[str], open_at_end: bool) -> None:
    """Are whole quoted claims found, short quoted terms and apostrophes ignored, and a quote left open carried on?"""
    spans, still_open = quoted_spans(sentence, open_at_start)
    assert ([sentence[a:b] for a, b in spans], still_open) == (quoted, open_at_end)
