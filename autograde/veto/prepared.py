"""A sentence prepared for reading claims: its tagged text, stage mentions, clauses, stance cues and the stage it is about."""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from autograde.veto.cues import CueBook
from autograde.veto.stages import DASH, Mention, SubjectIndex
from autograde.veto.stance import SentenceStance, Stance
from autograde.veto.worked_setting import WorkedSetting

PRONOUN_REACH = 16
"""Characters before a claim within which a pronoun is its subject ("就是指它只传一半", "so it moves 2Ψ")."""
OWNER_REACH = 24
"""Characters between a stage and a value right after it that the stage owns ("DDP 的 2Ψ", "ZeRO-2 的 RS + AG = 2Ψ")."""
TIME_ANCHOR_REACH = 24
"""Characters before a collective within which "after the", "once the" make it a time, not a pronoun's antecedent."""
MAIN_CLAUSE_REACH = 8
"""Characters after a subordinate clause within which the main clause must name its stage to lend it as the subject."""
DASH_ASIDE_CHARS = 80
"""The longest aside set off by dashes that a clause closing it is read across ("every piece of memory - … - is partitioned")."""


@dataclass
class PreparedSentence:
    """One sentence of an answer as the claim readers see it."""

    text: str
    """Normalised, stage-tagged and lower-cased."""
    book: CueBook
    mentions: list[Mention]
    clauses: list[tuple[int, int]]
    topic: str | None
    """The stage earlier sentences (or the question) were about."""
    asked_topic: bool
    """Whether the topic is only the question's, no stage the answer itself has named yet."""
    previous_question: str
    """The question right before this sentence, which this one answers ("显存不够？加卡就解决了。")."""
    previous_text: str
    """The sentence right before this one, whose last object noun a pronoun here may stand for."""
    next_text: str
    """The sentence after this one, whose opening may refute or endorse a claim here ("That's wrong.")."""
    quotes: list[tuple[int, int]]
    """Spans that quote a whole claim, which the student reports rather than asserts."""
    named_before: frozenset[str] = frozenset()
    """The stages the question and the answer's earlier sentences name."""
    answer_collectives: frozenset[str] = frozenset()
    """The collectives the whole answer names ("只做 reduce-scatter" is not "only" in an answer that all-gathers later)."""
    setting: WorkedSetting = WorkedSetting()
    """The model size and N_d the answer's earlier sentences name, for its worked figures in GB."""
    _stance: SentenceStance | None = None
    _spans: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    _clause_starts: list[int] = field(default_factory=list)
    subjects: SubjectIndex = field(init=False)

    def __post_init__(self) -> None:
        self._clause_starts = [a for a, _ in self.clauses]
        self.subjects = SubjectIndex(self.mentions, self.book.others)

    def spans(self, word: str) -> list[tuple[int, int]]:
        """Where the word class `word` of the cue book occurs, found once."""
        return self.matches(self.book.word(word))

    def matches(self, pattern: re.Pattern[str]) -> list[tuple[int, int]]:
        """Where a compiled pattern matches the sentence, found once (readings that share a pattern share the search)."""
        if pattern.pattern not in self._spans:
            self._spans[pattern.pattern] = [m.span() for m in pattern.finditer(self.text)]
        return self._spans[pattern.pattern]

    def has(self, word: str, low: int = 0, high: int | None = None) -> bool:
        """Whether the word class occurs within text[low:high]."""
        high = len(self.text) if high is None else high
        return any(low <= a and b <= high for a, b in self.spans(word))

    def names_stage(self, low: int = 0, high: int | None = None) -> bool:
        """Whether a stage of the sentence's own (not one it compares with, nor another axis or technique) is named
        within text[low:high]."""
        high = len(self.text) if high is None else high
        return any(low <= m.start < high and not m.reference and m.stage not in self.book.others for m in self.mentions)

    def has_unexcluded(self, word: str, low: int = 0, high: int | None = None) -> bool:
        """Whether the word class occurs within text[low:high] other than as an excluded noun or in a quote."""
        return self.present(self.book.word(word), low, high)

    def present(self, pattern: re.Pattern[str], low: int = 0, high: int | None = None) -> bool:
        """Whether `pattern` occurs within text[low:high] other than as an excluded noun ("not TP", "without SP") or inside
        a quoted claim (""RS 比 AR 快两倍"意思是…": the quote is the topic, not part of what the clause says)."""
        high = len(self.text) if high is None else high
        return any(
            low <= a and b <= high and not self.book.stance.excluded(self.text, a, b) and not any(q0 <= a < q1 for q0, q1 in self.quotes)
            for a, b in self.matches(pattern)
        )

    def clause_around(self, start: int, end: int) -> tuple[int, int]:
        """The span of the clauses that `start:end` touches."""
        first = max(0, bisect_right(self._clause_starts, start) - 1)
        last = max(first, bisect_right(self._clause_starts, max(start, end - 1)) - 1)
        return self.clauses[first][0], self.clauses[last][1]

    @property
    def stance(self) -> SentenceStance:
        """The sentence's stance cues, found the first time a claim in it needs them."""
        if self._stance is None:
            self._stance = self.book.stance.read(self.text, self.quotes, self.next_text, self.previous_text)
        return self._stance

    def stances(self, clause: tuple[int, int], start: int, end: int, window: int) -> tuple[Stance, Stance]:
        """(wide, narrow) stance of the claim at `start:end`: negations counted over the clause, or within `window`."""
        return self.stance.stance(clause, start, end), self.stance.stance(clause, start, end, window)

    def subject(self, clause: tuple[int, int], position: int, reach: int | None = None, marked: bool = False) -> str | None:
        """The stage (or other axis or technique) the claim at `position` is about (see `subject_at`); a `reach` after it stops at a strong break.

        A stated total (given a `reach`) gets the question's topic only beside a stage it is compared with ("2Ψ, the
        same as stage 1") or when it is `marked` as the step's total ("the total is 2Ψ"): an unnamed "RS + AG = 2Ψ" in
        a ZeRO-3 answer is usually the baseline itself.
        """
        if self.pronoun_antecedent(clause, position) is not None:
            return None
        owner = self._stage_around(clause, position)
        if owner is not None:
            return owner
        topic = self.topic
        if reach is not None:
            stop = self.book.structure["strong_breaks"].search(self.text, position, position + reach)
            reach = stop.start() - position if stop else reach
            topic = None if self.asked_topic and not self.mentions and not marked else topic
        return self.subjects.at(clause, position, topic, reach)

    def inherits_subject(self, clause: tuple[int, int], position: int) -> bool:
        """Whether the claim at `position` has no stage of its sentence's own, nor a pronoun or "also" carrying one on, and
        takes the topic of the sentences before (or of the question): who it is about is a guess."""
        return (
            self._stage_around(clause, position) is None
            and self.named_right_before(position) is None
            and self.subjects.at(clause, position, None) is None
            and not _starts_within(self.spans_of("pronouns"), max(clause[0], position - PRONOUN_REACH), position)
            and not (not self.mentions and _starts_within(self.spans_of("continues_subject"), *clause))
        )

    def named_right_before(self, start: int) -> str | None:
        """The stage named right before a value, compared with or not ("vs DDP 2Ψ", "DDP 的 2Ψ", "ZeRO-3's already-2Ψ"): its
        owner."""
        for mention in self.mentions:
            if 0 <= start - mention.end <= OWNER_REACH and self.book.word("owned_by").fullmatch(self.text, mention.end, start):
                return mention.stage
        return None

    def _stage_around(self, clause: tuple[int, int], position: int) -> str | None:
        """The stage a claim is about by the sentence's structure rather than by its nearest mention: the one an aside
        it sits in glosses, or the one opening the main clause after its subordinate clause."""
        return self._glossed_stage(position) or self._main_clause_stage(clause, position)

    def _glossed_stage(self, position: int) -> str | None:
        """The stage an aside is about when the claim is inside it: the last it names before the claim ("(Only ZeRO-3,
        which shards parameters, goes up to 3Ψ)"), else the one it glosses ("在 ZeRO-2（已切分优化器状态和参数）的基础上")."""
        opened = self.text.rfind("(", max(0, position - 400), position)
        if opened == -1 or ")" in self.text[opened:position]:
            return None
        own = [m.stage for m in self.mentions if opened < m.start < position and not m.reference and m.stage not in self.book.others]
        if own:
            return own[-1]
        return next((m.stage for m in self.mentions if m.end <= opened and not self.text[m.end : opened].strip()), None)

    def _main_clause_stage(self, clause: tuple[int, int], position: int) -> str | None:
        """The stage opening the main clause after a subordinate one that names none ("因为参数被切，ZeRO-3 才需要…")."""
        if not self.book.structure["subordinate"].match(self.text, clause[0]):
            return None
        if self.subjects.first_from(clause[0], position) is not None:
            return None
        following = self.subjects.first_from(clause[1], clause[1] + MAIN_CLAUSE_REACH)
        return following.stage if following else None

    def clause_before(self, position: int) -> tuple[int, int]:
        """The span of the clause that runs up to `position` (the one an aside or a break at `position` closes)."""
        return self.clause_around(max(0, position - 1), position)

    def dash_aside_before(self, clause: tuple[int, int]) -> tuple[int, int] | None:
        """The aside set off by dashes that `clause` opens by closing ("the per-GPU memory - activations included - keeps
        falling"): the span of its opening dash, or None."""
        if DASH.match(self.text, clause[0]) is None:
            return None
        before = self.clause_before(clause[0])
        opening = list(DASH.finditer(self.text, before[0], clause[0]))
        if not opening or clause[0] - opening[-1].end() > DASH_ASIDE_CHARS:
            return None
        return opening[-1].span()

    def in_reason_clause(self, position: int, before: int) -> bool:
        """Whether `position` sits in a subordinate clause ("since …", "because …", "因为 …") that ends by `before`: it gives
        a reason, and a pronoun after it stands for something outside it."""
        clause = self.clause_around(position, position + 1)
        return clause[1] <= before and bool(self.book.structure["subordinate"].match(self.text, clause[0]))

    def pronoun_antecedent(self, clause: tuple[int, int], position: int) -> tuple[int, int] | None:
        """Where the collective is that the claim's subject, a pronoun, stands for: the first of the clause before, its
        subject ("说 RS 快两倍，就是指它只传一半"), or (0, 0) for the collective of the question just asked; None when the pronoun
        is a stage acting through one ("ZeRO-3 all-gathers …, so it moves 2Ψ") or there is no pronoun."""
        pronoun = _first_within(self.spans_of("pronouns"), max(clause[0], position - PRONOUN_REACH), position)
        if pronoun is None or self.book.word("step_before_relative").search(self.text, max(0, pronoun[0] - PRONOUN_REACH), pronoun[0]):
            return None  # "the backward step, which is an all-reduce": the relative stands for the stage's step
        if self.subjects.first_from(clause[0], position) is not None:
            return None
        ops = self.spans("op")
        index = bisect_right(ops, (clause[0], clause[0])) - 1
        while index >= 0 and ops[index][1] > clause[0]:
            index -= 1
        if index < 0:  # "Is the reduce-scatter really twice as fast? Yes: it moves Ψ": the question's collective
            question = self.previous_question
            asked = bool(question) and "⟨" not in question and self.book.word("op").search(question) is not None
            return (0, 0) if asked else None
        if self.dated(ops[index][0]):
            return None  # "after the reduce-scatter each rank keeps its slice, and it also …": the collective only dates
        antecedent = ops[index][1]
        own_clause = self.clause_around(antecedent - 1, antecedent)
        if self.subjects.first_from(own_clause[0], antecedent) is not None:
            return None
        if self.in_reason_clause(antecedent - 1, clause[0]):
            return None  # "ZeRO-2 …, since the backward pass already does a reduce-scatter, it also …": the main clause's doer
        first = next(span for span in ops if span[0] >= own_clause[0])  # the clause's first: "RS is twice as fast as AR because it …"
        pronoun = next((span for span in self.spans_of("pronouns") if own_clause[0] <= span[0] and span[1] <= first[0]), None)
        if pronoun is not None and own_clause[0] < clause[0]:
            return self.pronoun_antecedent(own_clause, pronoun[1])  # "ZeRO-3: it does an RS and an AG, so it's 2Ψ": the doer's
        return first

    def dated(self, start: int, low: int = 0) -> bool:
        """Whether the collective at `start` only dates what follows ("after the (gradient) reduce-scatter, …"), looking
        back no further than `low`."""
        return bool(self.book.word("time_anchor_before").search(self.text, max(low, start - TIME_ANCHOR_REACH), start))

    def spans_of(self, structure: str) -> list[tuple[int, int]]:
        """Where the structure cue `structure` of the cue book occurs, found once."""
        return self.matches(self.book.structure[structure])


def _first_within(spans: list[tuple[int, int]], low: int, high: int) -> tuple[int, int] | None:
    """The first of the sorted `spans` that starts in [low, high), if any."""
    index = bisect_right(spans, (low, -1))
    return spans[index] if index < len(spans) and spans[index][0] < high else None


def _starts_within(spans: list[tuple[int, int]], low: int, high: int) -> bool:
    """Whether one of the sorted `spans` starts in [low, high)."""
    return _first_within(spans, low, high) is not None
