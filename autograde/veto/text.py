"""Find veto claims in a free-text answer: read each sentence into claims, then judge each against the lesson's facts."""
from __future__ import annotations

from collections.abc import Callable, Iterator

from autograde.veto.claims import Claim
from autograde.veto.cues import CueBook, cue_book
from autograde.veto.display import displayed
from autograde.veto.facts import Facts, lesson_facts
from autograde.veto.finding import Veto
from autograde.veto.judge import ACTIVATIONS, misnamed, resolved, verdict_as_named
from autograde.veto.prepared import PreparedSentence
from autograde.veto.read_axis import axis_claims
from autograde.veto.read_memory import memory_claims
from autograde.veto.read_memory_figures import figure_claims
from autograde.veto.read_scaling import scaling_claims
from autograde.veto.read_sharding import sharding_claims
from autograde.veto.read_steps import COLLECTIVE_WORDS
from autograde.veto.read_volume import volume_claims
from autograde.veto.sentences import quoted_spans, split_sentences
from autograde.veto.stages import last_subject
from autograde.veto.worked_setting import WorkedSetting

DENIAL_WINDOW = 14
"""Characters before a claim searched for the negation that reading it as denied needs ("并没有被切分", "does not shard")."""


def find_vetoes(
    answer: str, question: str | None = None, *, book: CueBook | None = None, facts: Facts | None = None
) -> list[Veto]:
    """The vetoes `answer` asserts, at most one per id, each with the first sentence that asserts it.

    `question` ("q1".."q3") names the prompt, for its topic and to ignore echoes of it. The answer is read as a
    browser shows it (markup and invisible characters dropped), up to the cue book's `limits.answer_chars`; a veto
    found in an answer cut there says so in its detail. `book` and `facts` default to cues.yaml and facts.yaml.
    """
    book = book or cue_book()
    facts = facts or lesson_facts()
    shown = displayed(answer, book.limits.answer_chars)
    if book.is_placeholder(shown.text):
        return []
    found: dict[str, Veto] = {}
    taken_for: dict[str, str] = {}
    for sentence, evidence in _sentences(book, shown.text, question, shown.written_span):
        scales_out = _scales_out(sentence)
        named_as: dict[str, tuple[str, int]] = {}  # the lesser stage of an identity in this sentence: the greater, and where it ends
        for claim in _claims(sentence, facts):
            claim = resolved(claim, facts)
            consequence = ACTIVATIONS in found and not scales_out  # said after the activations were sharded (here too)
            after_identity = {lesser: greater for lesser, (greater, end) in named_as.items() if claim.start >= end}
            verdicts = verdict_as_named(claim, facts, taken_for | after_identity)
            if claim.topic == "identity" and verdicts:
                greater, lesser = misnamed(claim, facts)
                taken_for[greater] = lesser
                named_as[lesser] = (greater, claim.end)  # "FSDP, which is ZeRO-2, does … = 3Ψ": either name is its subject after it
            for veto_id in verdicts:
                if consequence and claim.topic == "scaling" and claim.value in book.scaling.consequences:
                    continue  # "…所以激活也被切了。这样长序列就够用了": the sharded activations' consequence, with no more GPUs
                if veto_id not in found:
                    detail = {"claim": claim.describe()} | ({"checked_chars": book.limits.answer_chars} if shown.cut else {})
                    found[veto_id] = Veto(veto_id, evidence, "text", detail)
    return list(found.values())


def _scales_out(sentence: PreparedSentence) -> bool:
    """Whether the sentence adds GPUs, or divides all memory, activations included, by N_d ("divides everything by N_d —
    weights, grads, Adam moments and activations"): its long-context claim then rests on scaling, not on the sharding."""
    return sentence.has("scale_out") or (sentence.has("including_activations") and sentence.has("divided_by_ranks"))


def _claims(sentence: PreparedSentence, facts: Facts) -> Iterator[Claim]:
    """Every claim of a sentence, each with the stances the sentence takes towards it."""
    readings = (
        sharding_claims(sentence), axis_claims(sentence), memory_claims(sentence, facts), figure_claims(sentence, facts),
        volume_claims(sentence), scaling_claims(sentence),
    )
    for claim in (claim for reading in readings for claim in reading):
        clause = sentence.clause_around(claim.start, claim.end)
        claim = claim.with_stance(*sentence.stances(clause, claim.start, claim.end, DENIAL_WINDOW))
        if facts.members(claim.subject) and claim.relation != "first-at" and sentence.inherits_subject(clause, claim.start):
            asked = sentence.asked_topic and not any(m.stage in facts.sharded for m in sentence.mentions)
            claim = claim.guessed(sentence.named_before, asked)  # a "first at" claim names its stage ("要到 stage 3 才切")
        yield claim


def _sentences(
    book: CueBook, text: str, question: str | None, evidence_of: Callable[[int, int], str]
) -> Iterator[tuple[PreparedSentence, str]]:
    """Each asserting sentence of `text` prepared for reading, with its evidence (the sentence as written); a question the
    next sentence affirms ("ZeRO-3 会切激活吗？会。") asserts what it asks."""
    sentences = book.tables.read_into(text, split_sentences(text, book.limits.sentence_chars))
    prepared_texts = [book.prepare_both(s.text) for s in sentences]
    tagged = [t for _, t in prepared_texts]
    collectives = frozenset(c for word, c in COLLECTIVE_WORDS if any(book.word(word).search(t) for t in tagged))
    topic = book.topics.get(question or "")
    named = frozenset({topic} if topic else set())
    asked_topic = True
    quote_open = False
    setting = WorkedSetting()
    for index, (sentence, text_of) in enumerate(zip(sentences, tagged)):
        mentions = book.tagger.mentions(text_of)
        quotes, quote_open = quoted_spans(text_of, quote_open)
        next_text = tagged[index + 1] if index + 1 < len(tagged) else ""
        affirmed = sentence.is_question and bool(book.word("affirms").match(next_text))
        asserting = text_of if affirmed else book.asserted_part(text_of, sentence.is_question)  # "会切激活吗？会。"
        if asserting and not book.echoes(prepared_texts[index][0], question):
            previous = index > 0 and sentences[index - 1].is_question
            prepared = PreparedSentence(
                text=asserting,
                book=book,
                mentions=[m for m in mentions if m.end <= len(asserting)],
                clauses=book.clauses(asserting),
                topic=topic,
                asked_topic=asked_topic,
                previous_question=tagged[index - 1] if previous else "",
                previous_text=tagged[index - 1] if index > 0 else "",
                next_text=next_text,
                quotes=quotes,
                named_before=named,
                answer_collectives=collectives,
                setting=setting,
            )
            last = sentences[index + 1] if affirmed else sentence  # the answer that affirms a question is part of the evidence
            yield prepared, evidence_of(sentence.start, last.end)
        stages = [m for m in mentions if m.stage not in book.others]  # another axis or technique is never the topic
        named |= {m.stage for m in stages if not (m.reference or m.aside)}
        asked_topic = asked_topic and last_subject(stages, None) is None
        topic = last_subject(stages, topic)
        setting = setting.updated(book, text_of)
