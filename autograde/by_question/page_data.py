"""The grading page's data (JSON): answers in queue order with their groups, each student text either cleaned HTML
(markdown through the course's allow-list) or plain text the page inserts as text."""
from __future__ import annotations

import html
from dataclasses import asdict
from functools import lru_cache
from typing import Any

import nh3

from autograde.by_question.answers import Answer, QuestionAnswers
from autograde.by_question.grouping import Group, decisions, group_answers
from autograde.untrusted.html import markdown_to_html
from autograde.veto.finding import CATALOGUE


@lru_cache(maxsize=1024)
def rendered(markdown: str) -> str:
    """Markdown as cleaned HTML (math left as $…$ for the page's KaTeX); identical answers are rendered once."""
    return markdown_to_html(markdown)


@lru_cache(maxsize=1024)
def visible_text(markdown: str) -> str:
    """The text a reader sees of rendered markdown: where the page looks for the evidence sentence inside the answer."""
    return html.unescape(nh3.clean(rendered(markdown), tags=set()))


def answer_data(answer: Answer, group: int, differences: tuple[str, ...]) -> dict[str, Any]:
    """One answer as the page reads it."""
    return {
        "student": answer.student, "grade": answer.grade, "comment": answer.comment, "score": answer.score,
        "comment_text": answer.comment_text, "html": rendered(answer.text), "group": group,
        "differences": list(differences),
        "vetoes": [asdict(veto) | {"meaning": CATALOGUE[veto.id]["zh"], "shown_evidence": visible_text(veto.evidence)}
                   for veto in answer.vetoes],
    }


def group_data(group: Group, first: int) -> dict[str, Any]:
    """One group as the page reads it: its kind, where it starts in the queue, its size and shared veto ids."""
    return {"kind": group.kind, "first": first, "size": len(group.members), "vetoes": list(group.vetoes)}


def page_data(found: QuestionAnswers) -> dict[str, Any]:
    """Everything the page shows, answers in queue order (each group's answers together)."""
    groups = group_answers([answer.text for answer in found.answers], [[v.id for v in a.vetoes] for a in found.answers])
    answers, group_list = [], []
    for number, group in enumerate(groups):
        group_list.append(group_data(group, len(answers)))
        answers += [answer_data(found.answers[i], number, changed) for i, changed in zip(group.members, group.differences)]
    one_by_one, by_group = decisions(groups)
    return {
        "assignment": found.assignment, "question": found.question, "max_points": found.max_points,
        "prompt_html": rendered(found.prompt), "rubric_title": found.rubric_title,
        "rubric_html": [rendered(point) for point in found.rubric], "notes": list(found.notes),
        "answers": answers, "groups": group_list, "decisions": {"one_by_one": one_by_one, "by_group": by_group},
    }
