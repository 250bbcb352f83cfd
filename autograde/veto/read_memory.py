"""Read per-GPU static-memory formulas as claims: a stage's split of Ψ into whole and divided terms, each labelled
term ("2Ψ/N_d（参数）", "梯度 2Ψ") as a claim that the stage shards or keeps whole that state, and the extra an FP32
gradient accumulation buffer costs a stage ("ZeRO-1 额外 4Ψ/N_d") as a claim about its gradients."""
from __future__ import annotations

import re
from collections.abc import Iterator

from autograde.veto.claims import Claim
from autograde.veto.facts import Facts
from autograde.veto.memory_formula import Formula
from autograde.veto.prepared import PreparedSentence
from autograde.veto.read_sharding import STATES

QUANTITY_REACH = 16
"""A stage named after a formula owns it only when close ("16Ψ/N_d for ZeRO-3")."""
LABEL_REACH = 14
"""Characters between a term and the state label that names what it counts."""
_BEFORE_LABEL = re.compile(r"\s*(?:\(\s*)?(?:of|的|for)?\s*(?:the\s+)?(?:bf16|fp16|fp32|半精度)?\s*")
"""What may stand between a term and a label after it ("2Ψ (梯度)", "2Ψ/N_d of BF16 params")."""
_AFTER_LABEL = re.compile(r"\s*[:=(]?\s*")
"""What may stand between a label and a term after it ("参数 2Ψ/N_d", "grads: 2Ψ")."""


def memory_claims(sentence: PreparedSentence, facts: Facts) -> Iterator[Claim]:
    """The formulas a sentence gives for a stage it names, and the states its labelled terms say are divided or whole."""
    total = sum(facts.state_bytes.values())
    subjects = {m.stage for m in sentence.mentions if not m.reference}
    for formula in sentence.book.formulas.formulas(sentence.text, total):
        clause = sentence.clause_around(formula.start, formula.end)
        owner = sentence.subject(clause, formula.start, QUANTITY_REACH)
        compared = {m.stage for m in sentence.mentions if m.reference and m.end <= formula.start}  # the formula may be theirs
        if owner in subjects:  # a formula is judged only against a stage the sentence itself names
            yield Claim(owner, "memory", formula.split, formula.start, formula.end, other=",".join(sorted(compared - {owner})))
            yield from _in_lesson_order(sentence, facts, owner, formula)
    yield from _accumulation_extra(sentence)
    if not sentence.has("memory_context"):
        return
    for formula in sentence.book.formulas.chains(sentence.text):
        if len(formula.terms) < 2:
            continue
        clause = sentence.clause_around(formula.start, formula.end)
        owner = sentence.subject(clause, formula.start, QUANTITY_REACH)
        if owner is None or sentence.has("not_memory_formula", *clause):
            continue
        for term in formula.terms:
            state = _label(sentence, term.start, term.end)
            if state is not None:
                yield Claim(owner, "shards", frozenset({state}), term.start, term.end, sharded=term.sliced, flags=frozenset({"formula"}))


def _in_lesson_order(sentence: PreparedSentence, facts: Facts, owner: str, formula: Formula) -> Iterator[Claim]:
    """The states an unlabelled formula divides, read by position when its terms are the lesson's, in the lesson's order,
    when no stage divides that set ("Z2 = 2Ψ/N_d + 2Ψ + 12Ψ/N_d" divides parameters but not gradients); a set some
    stage divides has that stage's split, which the formula's own claim judges."""
    if [t.psi for t in formula.terms] != list(facts.state_bytes.values()):
        return
    if any(_label(sentence, t.start, t.end) for t in formula.terms):
        return  # labelled terms are read by their labels
    divided = frozenset(state for state, term in zip(facts.state_bytes, formula.terms) if term.sliced)
    if divided in {frozenset(states) for states in facts.sharded.values()}:
        return
    yield Claim(owner, "shards", divided, formula.start, formula.end, exact=True, flags=frozenset({"formula", "by-order"}))


def _accumulation_extra(sentence: PreparedSentence) -> Iterator[Claim]:
    """What the extra of gradient accumulation after a stage says of its gradients: the buffer is as sharded as they are,
    so "开 FP32 梯度累积，ZeRO-1 额外 4Ψ/N_d" says ZeRO-1 shards them and "ZeRO-2 needs an extra 4Ψ" that ZeRO-2 keeps
    them whole (the cue book's `accumulation_extra`, after accumulation is named earlier in the sentence)."""
    named_at = [mention.end for mention in sentence.mentions if mention.stage == "accumulation"]
    for m in sentence.book.word("accumulation_extra").finditer(sentence.text):
        if not any(named <= m.start() for named in named_at):
            continue
        start, end = m.span("value")
        owner = sentence.subject(sentence.clause_around(start, end), start, QUANTITY_REACH)
        if owner is not None and owner not in sentence.book.others:
            sliced = m.group("sliced") is not None
            yield Claim(owner, "shards", frozenset({"gradients"}), start, end, sharded=sliced, flags=frozenset({"accumulation"}))


def _label(sentence: PreparedSentence, start: int, end: int) -> str | None:
    """The state a term is labelled with, right before it ("参数 2Ψ/N_d", "grads: 2Ψ") or right after ("2Ψ（梯度）", "2Ψ of grads")."""
    for word_class, states in STATES.items():
        if len(states) != 1:
            continue
        for a, b in sentence.spans(word_class):
            before = 0 <= start - b <= LABEL_REACH and _AFTER_LABEL.fullmatch(sentence.text, b, start) is not None
            after = 0 <= a - end <= LABEL_REACH and _BEFORE_LABEL.fullmatch(sentence.text, end, a) is not None
            if before or after:
                return states[0]
    return None
