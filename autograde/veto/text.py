"""Find veto claims in a free-text answer: sentences that assert a misconception, not mere keywords."""
from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from autograde.veto.finding import Veto
from autograde.veto.patterns import Frame, PatternBook, pattern_book
from autograde.veto.sentences import quoted_spans, split_clauses, split_sentences
from autograde.veto.stages import Mention, changed_to, last_subject, subject_at

QUANTITY_REACH = 16
"""A stage named after a quantity owns it only when close ("2Ψ for DDP"), not anywhere later in the clause."""
PRONOUN_REACH = 12
"""Characters before a claim within which a pronoun is its subject ("就是指它只传一半", "so it moves 2Ψ")."""
MAIN_CLAUSE_REACH = 8
"""Characters after a subordinate clause within which the main clause must name its stage to lend it as the subject."""
DENIAL_WINDOW = 14
"""Characters before a predicate searched for the negation that a denied frame needs ("并没有被切分", "does not shard")."""
_OBJECT_FILLER = re.compile(r"\s*(?:(?:(?:the|its|their|all(?: the)?)\b|了|的)\s*)?")
"""Articles and particles between a predicate and its direct object."""


@dataclass(frozen=True)
class _Sentence:
    """A sentence prepared for matching: its tagged text, stage mentions, clauses and the topic it inherits."""

    text: str
    mentions: list[Mention]
    clauses: list[tuple[int, int]]
    topic: str | None
    asked_topic: bool
    """Whether the topic is only the question's, no stage the answer itself has named yet."""
    next_text: str
    previous_question: str
    """The question right before this sentence, which this one answers ("显存不够？加卡就解决了。")."""
    quotes: list[tuple[int, int]]
    """Spans that quote a whole claim, which the student reports rather than asserts."""
    collectives: list[int]
    """Where each collective named in the sentence ends: a pronoun after one may stand for it, not for a stage."""
    pronouns: list[int]
    """Where each pronoun ("它", "it") starts."""
    strong_break: re.Pattern[str]
    """Where a stage named after a quantity stops owning it (the pattern book's `strong_breaks`)."""
    subordinate: re.Pattern[str]
    """Opens a subordinate clause ("因为", "since") whose subject may be named only in the main clause after it."""
    predicate_spans: dict[re.Pattern[str], list[tuple[int, int]]] = field(default_factory=dict)
    """Where each predicate matches, found once: the sharding table's frames share theirs."""

    def spans_of(self, predicate: re.Pattern[str]) -> list[tuple[int, int]]:
        """The spans where `predicate` matches the sentence."""
        if predicate not in self.predicate_spans:
            self.predicate_spans[predicate] = [m.span() for m in predicate.finditer(self.text)]
        return self.predicate_spans[predicate]

    def clause_around(self, start: int, end: int) -> tuple[int, int]:
        """The span of the clauses that `start:end` touches."""
        touched = [c for c in self.clauses if c[0] <= start < c[1] or start <= c[0] < end] or [self.clauses[-1]]
        return touched[0][0], touched[-1][1]

    def subject(self, clause: tuple[int, int], position: int, reach: int | None = None, marked: bool = False) -> str | None:
        """The stage the claim at `position` is about (see `subject_at`); a `reach` after it stops at a strong break.

        A stated total (given a `reach`) gets the question's topic only beside a stage it is compared with ("2Ψ, the
        same as stage 1") or when it is `marked` as the step's total ("the total is 2Ψ"): an unnamed "RS + AG = 2Ψ" in
        a ZeRO-3 answer is usually the baseline itself.
        """
        if self._pronoun_for_collective(clause, position):
            return None
        owner = self._glossed_stage(position) or self._main_clause_stage(clause, position)
        if owner is not None:
            return owner
        topic = self.topic
        if reach is not None:
            stop = self.strong_break.search(self.text, position, position + reach)
            reach = stop.start() - position if stop else reach
            topic = None if self.asked_topic and not self.mentions and not marked else topic
        return subject_at(self.mentions, clause, position, topic, reach)

    def _glossed_stage(self, position: int) -> str | None:
        """The stage an aside glosses when the claim is inside it ("在 ZeRO-2（已切分优化器状态和参数）的基础上")."""
        opened = self.text.rfind("(", 0, position)
        if opened == -1 or ")" in self.text[opened:position]:
            return None
        return next((m.stage for m in self.mentions if m.end <= opened and not self.text[m.end : opened].strip()), None)

    def _main_clause_stage(self, clause: tuple[int, int], position: int) -> str | None:
        """The stage opening the main clause after a subordinate one that names none ("因为参数被切，ZeRO-3 才需要…")."""
        if not self.subordinate.match(self.text, clause[0]):
            return None
        if any(clause[0] <= m.start < position and not m.reference for m in self.mentions):
            return None
        following = [m for m in self.mentions if clause[1] <= m.start < clause[1] + MAIN_CLAUSE_REACH and not m.reference]
        return following[0].stage if following else None

    def _pronoun_for_collective(self, clause: tuple[int, int], position: int) -> bool:
        """Whether the claim's subject is a pronoun for a collective that is the subject of the clause before
        ("说 RS 快两倍，就是指它只传一半"), not for a stage that acts through one ("ZeRO-3 all-gathers …, so it moves 2Ψ")."""
        if not any(max(clause[0], position - PRONOUN_REACH) <= p < position for p in self.pronouns):
            return False
        if any(clause[0] <= m.start < position and not m.reference for m in self.mentions):
            return False
        antecedent = max((end for end in self.collectives if end <= clause[0]), default=None)
        if antecedent is None:
            return False
        own_clause = self.clause_around(antecedent - 1, antecedent)
        return not any(own_clause[0] <= m.start < antecedent and not m.reference for m in self.mentions)


def find_vetoes(answer: str, question: str | None = None, *, book: PatternBook | None = None) -> list[Veto]:
    """The vetoes `answer` asserts, at most one per id, each with the first sentence that asserts it.

    `question` ("q1".."q3") names the prompt, for its topic and to ignore echoes of it; `book` defaults to
    the shipped patterns.yaml.
    """
    book = book or pattern_book()
    if book.is_placeholder(answer):
        return []
    sentences = split_sentences(answer)
    tagged = [book.prepare(s.text) for s in sentences]
    topic = book.topics.get(question or "")
    found: dict[str, Veto] = {}
    asked_topic = True
    quote_open = False
    for index, (sentence, text) in enumerate(zip(sentences, tagged)):
        mentions = book.tagger.mentions(text)
        quotes, quote_open = quoted_spans(text, quote_open)
        asserting = book.asserted_part(text, sentence.is_question)
        if asserting and not book.echoes(sentence.text, question):
            previous = index > 0 and sentences[index - 1].is_question
            prepared = _Sentence(
                text=asserting,
                mentions=[m for m in mentions if m.end <= len(asserting)],
                clauses=split_clauses(asserting, book.clause_breaks, book.clause_joiners),
                topic=topic,
                asked_topic=asked_topic,
                next_text=tagged[index + 1] if index + 1 < len(tagged) else "",
                previous_question=tagged[index - 1] if previous else "",
                quotes=quotes,
                collectives=[m.end() for m in book.collectives.finditer(asserting)],
                pronouns=[m.start() for m in book.pronouns.finditer(asserting)],
                strong_break=book.strong_break,
                subordinate=book.subordinate,
            )
            for frame in book.frames:
                if frame.veto_id not in found and _fires(book, frame, prepared):
                    found[frame.veto_id] = Veto(frame.veto_id, sentence.text, "text", {"pattern": frame.name})
        asked_topic = asked_topic and last_subject(mentions, None) is None
        topic = last_subject(mentions, topic)
    return list(found.values())


def _fires(book: PatternBook, frame: Frame, sentence: _Sentence) -> bool:
    """Whether some claim of `frame` in `sentence` reads as the misconception."""
    if frame.context and not (frame.context.search(sentence.text) or frame.context.search(sentence.previous_question)):
        return False
    if frame.unless_sentence and _present(book, frame.unless_sentence, sentence.text, (0, len(sentence.text))):
        return False
    reach = QUANTITY_REACH if frame.quantity else None
    for start, end in _claims(book, frame, sentence):
        clause = sentence.clause_around(start, end)
        marked = reach is not None and book.quantities.marked_total(sentence.text, start, end)
        subject = sentence.subject(clause, start, reach, marked)
        if frame.subject is not None and subject not in frame.subject:
            continue
        if not _clause_fits(book, frame, sentence, clause, subject, start, end):
            continue
        if book.polarity.attributed(sentence.text, start, end, sentence.quotes, sentence.next_text):
            continue
        window = DENIAL_WINDOW if frame.polarity == "denied" else None
        asserted = book.polarity.asserted(sentence.text, clause, start, end, sentence.next_text, window)
        if asserted is not None and asserted == (frame.polarity == "asserted"):
            return True
    return False


def _claims(book: PatternBook, frame: Frame, sentence: _Sentence) -> Iterator[tuple[int, int]]:
    """Spans where `frame` claims something: predicate matches, ledgers that break its check, or stated totals with a wrong multiple of Ψ."""
    if frame.predicate is not None:
        yield from sentence.spans_of(frame.predicate)
        return
    if frame.ledger is not None:
        yield from book.ledger.wrong(sentence.text, frame.ledger)
        return
    if frame.memory_formula:
        yield from _wrong_formulas(book, sentence)
        return
    assert frame.quantity is not None
    wrong, right = frame.quantity
    totals = book.quantities.totals(sentence.text)
    owned = [
        (q, changed_to(sentence.text, q.start) or sentence.subject(sentence.clause_around(q.start, q.end), q.start, QUANTITY_REACH, book.quantities.marked_total(sentence.text, q.start, q.end)))
        for q in totals
    ]
    granted = any(owner in (frame.subject or ()) and q.coefficient in right for q, owner in owned)
    for q, _ in owned:
        # A right total beside a wrong one is usually a correction ("from 2Ψ to 3Ψ"), unless the wrong one is the sum.
        if q.coefficient in wrong and (not granted or book.quantities.marked_total(sentence.text, q.start, q.end)):
            yield q.start, q.end


def _wrong_formulas(book: PatternBook, sentence: _Sentence) -> Iterator[tuple[int, int]]:
    """Spans of static-memory formulas given for a stage the sentence names whose split they are not, nor that of another
    stage named there (whose formula it may be: "ZeRO-1 相比 DDP 的 2Ψ + 2Ψ + 12Ψ")."""
    splits = book.formulas.splits
    named = {splits[m.stage] for m in sentence.mentions if m.stage in splits}
    subjects = {m.stage for m in sentence.mentions if not m.reference}
    for formula in book.formulas.formulas(sentence.text):
        clause = sentence.clause_around(formula.start, formula.end)
        owner = sentence.subject(clause, formula.start, QUANTITY_REACH)
        if owner not in splits or owner not in subjects:
            continue  # a formula is judged only against a stage the sentence itself names
        if formula.split != splits[owner] and formula.split not in named - {splits[owner]}:
            yield formula.start, formula.end


def _clause_fits(
    book: PatternBook, frame: Frame, sentence: _Sentence, clause: tuple[int, int], subject: str | None, start: int, end: int
) -> bool:
    """Whether the clause around a claim about `subject` meets the frame's requirements and exemptions."""
    if frame.requires and not _present(book, frame.requires, sentence.text, clause):
        return False
    if frame.unless and _present(book, frame.unless, sentence.text, clause, sentence.quotes):
        return False
    if frame.with_stages or frame.without_stages:
        others = {m.stage for m in sentence.mentions if clause[0] <= m.start < clause[1]} - {subject}
        if frame.with_stages and not others & frame.with_stages:
            return False
        if others & frame.without_stages:
            return False
    return frame.object is None or _object_bound(book, frame, sentence, clause, subject, start, end)


def _present(
    book: PatternBook, pattern: re.Pattern[str], text: str, span: tuple[int, int], quotes: Sequence[tuple[int, int]] = ()
) -> bool:
    """Whether `pattern` occurs in `text[span]` other than as an excluded noun ("not TP", "without SP") or inside a
    quoted claim (""RS 比 AR 快两倍"意思是…": the quote is the topic, not part of what the clause says)."""
    return any(
        not book.polarity.negated_before(text, m.start()) and not any(a <= m.start() < b for a, b in quotes)
        for m in pattern.finditer(text, span[0], span[1])
    )


def _object_bound(
    book: PatternBook, frame: Frame, sentence: _Sentence, clause: tuple[int, int], subject: str | None, start: int, end: int
) -> bool:
    """Whether the frame's object sits in the clause as what the predicate at `start:end` acts on, or is what a
    relative clause refers back to ("activations, which ZeRO-3 also splits")."""
    assert frame.object is not None
    text = sentence.text
    if book.relative_opener.match(text, clause[0]):
        before = text[max(0, clause[0] - 48) : clause[0]]
        if any(not before[m.end() :].strip(" ,") for m in frame.object.finditer(before)):
            return True
    direct = _direct_object(book, text, end, clause[1])
    if _pronoun_stands_for(book, frame.object, text, clause, start, end):
        return True
    for m in frame.object.finditer(text, clause[0], clause[1]):
        if book.polarity.negated_before(text, m.start()):
            continue
        if m.start() < start and direct is not None and not frame.object.match(text, direct):
            continue  # "activation memory dominates once Z3 has sharded model states": the verb has its own object
        if m.start() >= end and book.own_verb.match(text, m.end()):
            continue  # "shards the gradients, and parameters stay replicated": the object has a verb of its own
        low, high = (end, m.start()) if m.start() >= end else (m.end(), start)
        between = text[low:high] if low < high else ""
        owners = {m.stage for m in sentence.mentions if low <= m.start < high and not m.reference} - {subject}
        if owners or (book.barriers.search(between) and not book.inclusion.search(between)):
            continue  # another stage or another verb owns the object, unless it is listed as included ("…, including activations")
        if between.count("(") != between.count(")"):
            continue  # an aside has a claim of its own ("ZeRO-2 并不切（有人把它说成切参数，那是错的）")
        if frame.polarity == "denied" and book.object_nouns.search(between):
            continue
        if m.start() < start and book.noun_after_comma.search(between):
            continue  # "shards gradients, and parameters stay replicated": the nearer noun is the verb's subject
        return True
    return False


def _pronoun_stands_for(
    book: PatternBook, wanted: re.Pattern[str], text: str, clause: tuple[int, int], start: int, end: int
) -> bool:
    """Whether the predicate at `start:end` acts on a pronoun ("partitions them", "把它…分片") whose antecedent, the
    last object noun before it in the sentence, is what the frame wants ("activations …, so ZeRO-3 partitions them")."""
    filler = _OBJECT_FILLER.match(text, end, clause[1])
    after = book.object_pronoun.match(text, filler.end() if filler else end, clause[1])
    before = [m for m in book.disposal_pronoun.finditer(text, clause[0], start) if not book.barriers.search(text, m.end(), start)]
    position = after.start() if after else before[-1].start() if before else None
    if position is None:
        return False
    nouns = [m for m in book.object_nouns.finditer(text, 0, position) if not book.polarity.negated_before(text, m.start())]
    return bool(nouns) and wanted.fullmatch(nouns[-1].group()) is not None


def _direct_object(book: PatternBook, text: str, end: int, limit: int) -> int | None:
    """Where the object noun right after the predicate ending at `end` starts ("sharded the model states"), if any."""
    filler = _OBJECT_FILLER.match(text, end, limit)
    position = filler.end() if filler else end
    return position if book.object_nouns.match(text, position, limit) else None
