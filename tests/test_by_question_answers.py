"""What the grading-by-question page reads beside each answer: the rubric, the prompt, veto candidates and their
decisions, and which values a save may carry."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from autograde.assignment_spec import load_spec
from autograde.building.source_notebook import source_notebook_path
from autograde.by_question.answers import (
    EVIDENCE_CHARS,
    rubric_points,
    source_cells,
    veto_candidates,
)
from autograde.by_question.saving import InvalidChange, checked_comment, checked_score
from autograde.results.overrides import Override
from autograde.results.veto_decisions import PAGE

SOURCE = source_cells(source_notebook_path(load_spec("lesson05")))


def test_rubric_key_points_come_from_the_source_notebook() -> None:
    """Are Q2's four key points and its title read from the rubric cell, the mark-scheme lines left out?"""
    title, points = rubric_points(SOURCE, "q2")
    assert title == "评分要点（Q2，2 分）"
    assert len(points) == 4 and points[0].startswith("正确性：") and points[3].startswith("ZeRO-2：")
    assert not any("MARK SCHEME" in point for point in points)


def test_the_prompt_is_the_question_without_its_heading() -> None:
    """Is Q2's prompt the lesson's question text, without the `### Q2` heading?"""
    assert SOURCE["prompt_q2"].startswith("ZeRO-1 为什么把朴素 DP 的一次 all-reduce")


def test_veto_candidates_are_this_questions_with_their_decisions(tmp_path: Path) -> None:
    """From vetoes.json, are only Q2's candidates listed, evidence bounded, the same id elsewhere named, and each
    decision shown with where it was taken?"""
    record = {"vetoes": [
        {"id": "wrong-comm-volume", "evidence": "3Ψ" * EVIDENCE_CHARS, "cell": "q2"},
        {"id": "wrong-comm-volume", "evidence": "code says 3Ψ", "cell": "zero_code", "origin": "code"},
        {"id": "wrong-shard-target", "evidence": "ZeRO-2 切参数。", "cell": "q2"},
        {"id": "activations-sharded", "evidence": "激活也切。", "cell": "q1"}]}
    (tmp_path / "vetoes.json").write_text(json.dumps(record), encoding="utf-8")
    decided = {"wrong-shard-target": Override("s1", "wrong-shard-target", "dismissed", "page", PAGE)}
    comm, shard = veto_candidates(tmp_path, "q2", decided)
    assert (comm.id, comm.also_in, comm.decision, comm.decided_in) == ("wrong-comm-volume", ("zero_code",), "undecided", "")
    assert len(comm.evidence) <= EVIDENCE_CHARS + 1
    assert (shard.decision, shard.decided_in) == ("dismissed", PAGE)


def test_a_missing_or_broken_vetoes_file_lists_none(tmp_path: Path) -> None:
    """Does an answer without a readable vetoes.json show no candidates instead of failing the page?"""
    assert veto_candidates(tmp_path, "q2", {}) == ()
    (tmp_path / "vetoes.json").write_text("{not json", encoding="utf-8")
    assert veto_candidates(tmp_path, "q2", {}) == ()


@pytest.mark.parametrize("value", [True, -1, 2.5, math.nan, "2", [2]])
def test_a_score_outside_the_questions_points_is_refused(value: object) -> None:
    """Is a score that is not a number from 0 to the question's 2 points refused (nothing of the request saved)?"""
    with pytest.raises(InvalidChange):
        checked_score(value, 0, 2)


def test_scores_and_comments_the_page_sends_are_kept() -> None:
    """Are none, 0 and 2 kept as scores, an empty comment stored as none, and a huge comment refused?"""
    assert [checked_score(v, 0, 2) for v in (None, 0, 2)] == [None, 0.0, 2.0]
    assert checked_comment("") is None and checked_comment("ok") == "ok"
    with pytest.raises(InvalidChange):
        checked_comment("x" * 20_000)
