"""Read worked per-GPU memory figures in GB ("ZeRO-2 is (2+2+12)·7/8 = 14 GB per GPU" for a 7B model on 8 GPUs) as the
split of the model states they imply: a figure that another stage's split gives, and the stage's own does not, at the
model size and N_d the answer names, is that stage's formula."""
from __future__ import annotations

from collections.abc import Iterator

from autograde.veto.claims import Claim
from autograde.veto.facts import Facts
from autograde.veto.prepared import PreparedSentence

FIGURE_TOLERANCE = 0.02
"""Relative difference within which a figure is a stage's value (rounded: 26.3 GB for 26.25)."""
FIGURE_SLACK = 0.05
"""GB within which a small figure is a stage's value (1.75 GB written 1.8)."""
STATE_REACH = 12
"""Characters after a figure within which a state names what it counts ("14 GB of parameters", "14 GB 参数")."""


def figure_claims(sentence: PreparedSentence, facts: Facts) -> Iterator[Claim]:
    """A memory claim for each stage's figure that only another stage's split gives."""
    if "gb" not in sentence.text:
        return
    book, text = sentence.book, sentence.text
    of_state = book.word("figure_of_state")
    for m in book.word("memory_figure").finditer(text):
        stage, start, end = m.group("stage"), m.start(), m.end()
        clause = sentence.clause_around(m.start("gb"), end)
        if stage not in facts.sharded or sentence.has("not_memory_figure", *clause):
            continue
        if of_state.search(text, start, m.start("gb")) or of_state.search(text, end, min(len(text), end + STATE_REACH)):
            continue  # "ZeRO-1 的优化器状态 10.5 GB", "14 GB of parameters": one state's share
        setting = sentence.setting.updated(book, text[:start])
        if not setting.billions or not setting.ranks:
            continue  # a figure for a model or cluster the answer does not give
        figure = float(m.group("gb"))
        values = {s: _gigabytes(facts, s, setting.billions, setting.ranks) for s in facts.sharded}
        if _close(figure, values[stage]):
            continue
        implied = {facts.memory_split(s) for s, v in values.items() if _close(figure, v)}
        if len(implied) == 1:
            yield Claim(stage, "memory", implied.pop(), start, end)


def _gigabytes(facts: Facts, stage: str, billions: float, ranks: int) -> float:
    """The stage's per-GPU model-state memory in GB (10^9 bytes) for a model of `billions` parameters over `ranks` GPUs."""
    whole, divided = facts.memory_split(stage)
    return (whole + divided / ranks) * billions


def _close(figure: float, value: float) -> bool:
    """Whether a written figure is `value`, rounded."""
    return abs(figure - value) <= max(FIGURE_SLACK, FIGURE_TOLERANCE * value)
