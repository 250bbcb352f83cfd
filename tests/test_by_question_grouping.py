"""Answer groups on the grading page: what counts as the same answer, what never does, and how long it takes."""
from __future__ import annotations

import random
import time

from autograde.by_question.grouping import (
    Group,
    decisions,
    group_answers,
    grouping_rules,
    normalized,
)

RIGHT = "优化器 step 只需要自己那 1/N_d 的梯度，所以用 reduce-scatter（约 Ψ）代替 all-reduce（约 2Ψ）；再 all-gather，合计 2Ψ。"
SHORT = "RS + AG = 2Ψ，与 all-reduce 相同；ZeRO-2 多省了梯度显存，通信不变。"


def kinds(groups: list[Group], texts: list[str]) -> list[tuple[str, list[str]]]:
    """Each group as (kind, its answers), for readable assertions."""
    return [(group.kind, [texts[i] for i in group.members]) for group in groups]


def test_spacing_case_width_and_invisible_characters_do_not_make_a_new_answer() -> None:
    """Are answers that differ only by spaces, case, full-width forms or zero-width characters one identical group?"""
    texts = [SHORT, "rs + ag = 2Ψ，与 ALL-REDUCE 相同；zero-2 多省了梯度显存，通信不变。",
             SHORT.replace("2Ψ", "２Ψ").replace(" + ", "  +\n "), "\u200b" + SHORT + "\u202e"]
    assert kinds(group_answers(texts, [[]] * 4), texts) == [("identical", texts)]


def test_near_identical_answers_group_and_show_what_changed() -> None:
    """Is the right answer with a word changed put with it, its change listed for the grader?"""
    texts = [RIGHT, RIGHT, RIGHT.replace("所以用", "因此用")]
    [group] = group_answers(texts, [[]] * 3)
    assert (group.kind, group.members) == ("near-identical", (0, 1, 2))
    assert group.differences[:2] == ((), ()) and group.differences[2] == ("「所以」→「因此」",)


def test_a_different_number_is_a_different_answer() -> None:
    """Are 2Ψ and 3Ψ kept apart, though the rest of the long answer is the same?"""
    texts = [RIGHT, RIGHT.replace("合计 2Ψ", "合计 3Ψ")]
    assert [group.kind for group in group_answers(texts, [[]] * 2)] == ["single", "single"]


def test_empty_answers_and_placeholders_are_one_group_first() -> None:
    """Are empty answers, dots, 不知道, TODO and nbgrader's untouched prompt one group, ahead of the rest?"""
    texts = [SHORT, "", "  \n", "……", "不知道。", "TODO!", "YOUR ANSWER HERE", "todo: 还没写完，但 ZeRO-2 省梯度"]
    groups = group_answers(texts, [[]] * len(texts))
    assert kinds(groups, texts)[0] == ("placeholder", texts[1:7])
    assert [group.kind for group in groups[1:]] == ["single", "single"]


def test_answers_with_other_veto_candidates_are_never_in_one_group() -> None:
    """Do identical answers with different veto candidates stay apart, and same-candidate groups sit side by side?"""
    shard = "ZeRO-2 把参数也切成 1/N_d，所以比 ZeRO-1 省了参数显存，通信仍是 2Ψ。"
    texts = [SHORT, shard, SHORT, shard, "ZeRO-2 也切参数。", shard]
    vetoes = [[], ["wrong-shard-target"], ["wrong-comm-volume"], ["wrong-shard-target"], ["wrong-shard-target"], []]
    groups = group_answers(texts, vetoes)
    assert [(group.vetoes, group.members) for group in groups] == [
        (("wrong-comm-volume",), (2,)), (("wrong-shard-target",), (1, 3)), (("wrong-shard-target",), (4,)),
        ((), (0,)), ((), (5,))]


def test_decisions_count_one_score_and_one_decision_per_veto_for_each_group() -> None:
    """With 4 right answers, 2 placeholders and 2 identical vetoed answers, are 10 decisions cut to 4?"""
    texts = [SHORT] * 4 + ["", "不知道", "ZeRO-1 是 3Ψ。", "ZeRO-1 是 3Ψ。"]
    vetoes = [[]] * 6 + [["wrong-comm-volume"]] * 2
    assert decisions(group_answers(texts, vetoes)) == (10, 4)


def test_placeholders_come_from_the_rules_file() -> None:
    """Is every placeholder of grouping.yaml compared as letters and digits only (so the list is data, not code)?"""
    rules = grouping_rules()
    assert "todo" in rules.placeholders and "不知道" in rules.placeholders and "youranswerhere" in rules.placeholders
    assert normalized("Ａ\u00adB\tc") == "ab c"


def test_a_huge_class_with_huge_answers_is_grouped_quickly() -> None:
    """Are 2 000 answers, every tenth 300 times the right answer (~30 000 characters), grouped in a few seconds?"""
    rng, alphabet = random.Random(5), "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工"
    texts = []
    for number in range(2000):
        letters = list(RIGHT)
        for _ in range(rng.choice((0, 1, 3, 20))):
            letters[rng.randrange(len(letters))] = rng.choice(alphabet)
        texts.append("".join(letters) * (300 if number % 10 == 0 else 1))
    began = time.perf_counter()
    groups = group_answers(texts, [[]] * len(texts))
    assert time.perf_counter() - began < 10
    assert sorted(i for group in groups for i in group.members) == list(range(2000))
    assert len(groups) < 1000
