"""Is a hostile answer read as a browser shows it, within bounds, in time linear in its length?"""
from __future__ import annotations

import time

import pytest

from autograde.veto.cues import cue_book
from autograde.veto.display import displayed
from autograde.veto.text import find_vetoes

A, C = "activations-sharded", "wrong-comm-volume"
VETOED = "ZeRO-3 会把激活也切分到各个 DP rank 上。"
"""A sentence that asserts activations-sharded; each evasion below is planted in its key word 激活 or 切分."""
EVASIONS = {
    "zero-width space": "激\u200b活",
    "zero-width non-joiner": "激\u200c活",
    "zero-width joiner": "切\u200d分",
    "word joiner": "激\u2060活",
    "byte-order mark": "\ufeff激活",
    "soft hyphen": "切\u00ad分",
    "bidi override": "激\u202e活",
    "empty bold tag": "激<b></b>活",
    "span tag": "激<span style='color:red'>活</span>",
    "comment": "激<!-- x -->活",
    "zero-width entity": "激&#8203;活",
    "soft-hyphen entity": "切&shy;分",
    "markdown bold inside a word": "激**活**",
    "full-width letters": "激活",  # planted in the stage name below instead
}


@pytest.mark.parametrize(("evasion", "word"), EVASIONS.items())
def test_an_evasion_planted_in_a_vetoed_answer_is_still_found(evasion: str, word: str) -> None:
    """Does a word broken by an invisible character, a tag, an entity or markdown still read as the word, and is the
    evidence the sentence as the student wrote it?"""
    plain = "激活" if "激" in word else "切分"
    answer = VETOED.replace(plain, word, 1)
    if evasion == "full-width letters":
        answer = answer.replace("ZeRO-3", "ＺｅＲＯ－３")
    [veto] = find_vetoes(answer, "q1")
    assert veto.id == A
    assert veto.evidence == answer.strip()


def test_displayed_text_maps_back_to_what_was_written() -> None:
    """Is each displayed character traced to where it was written, so evidence keeps the markup it hid?"""
    written = "a<b>b</b>\u200bc&amp;d"
    shown = displayed(written, 100)
    assert shown.text == "abc&d"
    assert shown.written_span(1, 3) == "b</b>\u200bc"
    assert not shown.cut


def test_block_tags_break_lines() -> None:
    """Does a <br> or </p> end a line, as the browser draws it, instead of joining the words around it?"""
    assert displayed("ZeRO-3<br>shards", 100).text == "ZeRO-3\nshards"


def test_an_answer_over_the_limit_is_read_up_to_it_and_says_so() -> None:
    """Is an answer longer than the limit read only up to it, a veto found there noting how much was read, and a claim
    beyond it not read?"""
    limit = cue_book().limits.answer_chars
    filler = "激活没有冗余。" * (limit // 7)
    [veto] = find_vetoes(VETOED + filler, "q1")
    assert (veto.id, veto.detail["checked_chars"]) == (A, limit)
    assert find_vetoes(filler + VETOED, "q1") == []


def _seconds(answer: str, question: str) -> float:
    """CPU seconds one check of `answer` takes."""
    started = time.process_time()
    find_vetoes(answer, question)
    return time.process_time() - started


LONG_SENTENCE = (
    "ZeRO-1 用 reduce-scatter 代替 all-reduce 每卡拿到 1/N_d 的梯度（去更新自己那份优化器状态 不是 2Ψ 而是 RS (Ψ) + AG (Ψ) = 2Ψ "
    "它们 把它 ZeRO-3 和 ZeRO-2 的 all-gather 梯度 优化器更新后 not only shards the parameters but never the activations "
)
"""One long sentence with no stop, unclosed asides and many claims, negations, stages and quantities: the inputs that
made the frame matcher cubic (a 20 KB sentence took 165 s)."""


@pytest.mark.parametrize("kilobytes", [40, 1000])
def test_long_answers_are_checked_in_well_under_a_second(kilobytes: int) -> None:
    """Does a 40 KB single-sentence answer, and a 1 MB one, finish in well under the seconds a quadratic check takes?"""
    answer = (LONG_SENTENCE * (kilobytes * 1000 // len(LONG_SENTENCE) + 1))[: kilobytes * 1000]
    assert _seconds(answer, "q2") < 2.0


def test_check_time_grows_linearly_with_a_sentence() -> None:
    """Does checking a sentence four times as long take about four times as long (not sixteen, as a quadratic check)?"""
    short, long = ((LONG_SENTENCE * 200)[:size] for size in (4000, 16000))
    _seconds(short, "q2")  # warm the caches
    assert _seconds(long, "q2") < 8 * max(_seconds(short, "q2"), 0.01)
