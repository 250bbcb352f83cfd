"""Read what a sentence says becomes of per-GPU memory as N_d grows: that it vanishes, or that any context then fits,
unless the sentence limits the claim to the model states or pairs ZeRO with another axis."""
from __future__ import annotations

from collections.abc import Iterator

from autograde.veto.claims import Claim
from autograde.veto.prepared import PreparedSentence

FRONTED_TOPIC_CHARS = 32
"""Longest opening of a sentence before a claim's clause that is read as its fronted topic ("For long sequences though, …")."""


def scaling_claims(sentence: PreparedSentence) -> Iterator[Claim]:
    """Every claim of `sentence` about per-GPU memory without a floor, by the cue book's scaling readings."""
    book = sentence.book
    if sentence.topic not in book.scaling.stages and not any(m.stage in book.scaling.stages for m in sentence.mentions):
        return  # no stage whose memory the sentence could be about
    if not book.scaling.gate.search(sentence.text):
        return
    for reading in book.scaling.readings:
        said = sentence.matches(reading.says)
        if not said:
            continue
        if reading.needs and not any(reading.needs.search(text) for text in (sentence.text, sentence.previous_question, sentence.previous_text)):
            continue
        if reading.limited_sentence and sentence.present(reading.limited_sentence):
            continue
        for start, end in said:
            clause = sentence.clause_around(start, end)
            subject = sentence.subject(clause, start)
            if subject in book.techniques:
                subject = sentence.topic  # "recompute 是 optional 的：只要 N_d 够大…": a technique on one rank scales with nothing
            elif subject == "ddp" and sentence.has("scale_out"):
                subject = sentence.topic  # "只要 DP 够大…": the data-parallel group growing is how the stage scales out
            if subject not in book.scaling.stages:
                continue
            if reading.clause_needs and not sentence.present(reading.clause_needs, *_with_fronted_topic(sentence, _across_dash_aside(sentence, clause))):
                continue
            if reading.limited and sentence.present(reading.limited, *clause):
                continue
            if reading.limited_elsewhere and sentence.present(reading.limited_elsewhere) and not (
                reading.reclaimed_by and sentence.present(reading.reclaimed_by, *clause)
            ):
                continue
            yield Claim(subject, reading.topic, reading.claim, start, end, negated_form=reading.denied)


def _across_dash_aside(sentence: PreparedSentence, clause: tuple[int, int]) -> tuple[int, int]:
    """The clause with the one before an aside set off by dashes that it closes ("the per-GPU total memory - activations
    included - just keeps falling"), whose noun is its subject."""
    aside = sentence.dash_aside_before(clause)
    if aside is None:
        return clause
    return sentence.clause_before(aside[0])[0], clause[1]


def _with_fronted_topic(sentence: PreparedSentence, clause: tuple[int, int]) -> tuple[int, int]:
    """The clause with a short opening of the sentence about long context right before it, which sets its topic
    ("长序列时，…", "For long sequences though, ZeRO-3 is enough on its own"), or with the clause right before it
    when that one names long context as its topic ("…，对 128k 这种超长序列，单靠 ZeRO-3 就够了")."""
    if 0 < clause[0] <= FRONTED_TOPIC_CHARS and sentence.has("long_context", 0, clause[0]):
        return 0, clause[1]
    before = sentence.clause_before(clause[0]) if clause[0] > 0 else None
    topic = before and sentence.book.word("context_topic").match(sentence.text, before[0])
    if before and topic and sentence.has("long_context", *before):
        return before[0], clause[1]
    return clause
