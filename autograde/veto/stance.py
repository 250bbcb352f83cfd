"""The stance a sentence takes towards a claim in it: asserted (hedged or not), denied (negated, or quoted only to be
refuted or warned against), left open (a question, a condition), or reported (someone else's claim, not endorsed).

Every cue is found once per sentence; a claim's stance is then read from the cues around it by bisection, so reading
a sentence stays linear in its length whatever number of claims and cues it holds.
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from autograde.veto.first_chars import with_fast_start

Stance = Literal["asserted", "denied", "open", "reported"]
"""What the student does with a claim: holds it, holds its negation, neither, or gives it to someone else."""

_LEADING_PUNCTUATION = re.compile(r"[\s,;:.!\"'()\-—–]*")
_ASIDES = re.compile(r"\([^()]{0,400}\)")
"""A parenthetical aside: a verdict inside one judges the aside's own claim, not one before it."""
_QUOTED = re.compile(r'"[^"]+"')
"""A phrase in double quotes, however short ("不能分片")."""
_CLAUSE_BREAK = re.compile(r"[,;:]")
"""A break between clauses, past which a replacing self-correction does not reach back."""


def _any(patterns: Sequence[str]) -> re.Pattern[str]:
    """One case-insensitive alternation of `patterns`, in the order given, led by the characters a match can start with."""
    return with_fast_start("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)


@dataclass(frozen=True)
class StanceCues:
    """Negation, refutation, attribution and hedging cues, compiled from the cue book."""

    negation: re.Pattern[str]
    """Cues that negate what follows them in the clause (不, 没有, not, never, neither…nor)."""
    negation_after: re.Pattern[str]
    """Cues right after a predicate that negate it (切不了), matched where the predicate ends."""
    coordination: re.Pattern[str]
    """Between two negations: the first negates a verb of its own ("don't exist anywhere else and can't be sharded")."""
    coordinated_clause: re.Pattern[str]
    """Between a negation and a claim: a coordinated clause on the traffic's total ("there's no second all-gather and
    the total is 2Ψ"), which the negation does not reach."""
    object_negation: re.Pattern[str]
    """Cues right before a noun that exclude it ("not activations", "而不是梯度")."""
    object_exclusion_after: re.Pattern[str]
    """Cues right after a noun that exclude it ("activations 之外的 buffers")."""
    object_manner_before: re.Pattern[str]
    """Cues right before a noun that make it the manner of the split, not its object ("按参数切", "按 batch 切")."""
    object_compared_before: re.Pattern[str]
    object_compared_after: re.Pattern[str]
    """Cues right before and right after a noun that, together, name it as a comparison ("切得像参数那么彻底")."""
    refuters_before: re.Pattern[str]
    """Cues that introduce a claim only to reject it (有人以为, it is a myth that, a common slip is)."""
    refuters_after: re.Pattern[str]
    """Cues after a claim in the same sentence that reject it (这是错的, is wrong)."""
    refuters_next: re.Pattern[str]
    """Cues opening the next sentence that reject the claim before it (That's wrong., 不对。), matched at its start."""
    neutral: re.Pattern[str]
    """Phrases that look negative but are not (not only, 不得不, not wrong to say); masked before counting."""
    condition_clause: re.Pattern[str]
    """A condition clause ("if … not …,"): negations inside it do not negate a claim after it."""
    open_question: re.Pattern[str]
    """Cues that make the claim an open question (是否, whether, 不想), which asserts nothing."""
    concession: re.Pattern[str]
    """A concession ("即使", "哪怕", "even if"): what it concedes is open, up to the consequence it turns to."""
    concession_turn: re.Pattern[str]
    """After a concession: the consequence it turns to ("也能", "still"), which is asserted."""
    counterfactual: re.Pattern[str]
    """Conditions contrary to fact anywhere before the claim (if … were … could), which assert nothing either."""
    factual_relative: re.Pattern[str]
    """Opens a relative clause on what is so anyway (", which already cost"): a counterfactual before it does not reach past it."""
    conditional: re.Pattern[str]
    """A condition and its consequence ("假如 … 就", "if … would"): contrary to fact when a rejection follows it."""
    condition_rejected: re.Pattern[str]
    """Rejects a consequence just stated ("——可惜它做不到", "Unfortunately it cannot."), later in the sentence or opening the next."""
    condition_contrary: re.Pattern[str]
    """Inside a condition: it changes what the stage does ("如果 ZeRO-1 还用 all-reduce", "假设只做 reduce-scatter")."""
    condition_turn: re.Pattern[str]
    """After a consequence: a turn ("但", "可那样", "but") that, after a condition contrary to what the stage does, rejects it."""
    hypothesis_ends: re.Pattern[str]
    """Opening a sentence: it leaves a thought experiment the sentence before was in ("所以", "其实", "so", "but")."""
    what_if: re.Pattern[str]
    """A question that opens a thought experiment ("What if ZeRO-1 stopped after the reduce-scatter?")."""
    hypothetical_modal: re.Pattern[str]
    """In the sentence after such a question: it answers inside the thought experiment ("Traffic would drop to Ψ")."""
    corrections: re.Pattern[str]
    """Cues after which a sentence states its own view again (其实, but actually), ending a refuter's reach."""
    premises: re.Pattern[str]
    """Cues that make a claim the premise of a refuted one (既然, because): the refutation is not about it."""
    premise_tails: re.Pattern[str]
    """Cues right after a claim that make it a premise too ("切了以后还得…", "shards X, so it must…"), matched at its end."""
    modifier_end: re.Pattern[str]
    """Ends a modifier ("不属于自己的 梯度分片"): a negation before it, with no blocker between, does not reach the claim."""
    modifier_blockers: re.Pattern[str]
    attributers: re.Pattern[str]
    """Cues that give what follows to someone else (同学说, a blog claims, ✗, wrong:): reported, not asserted."""
    attribution_ends: re.Pattern[str]
    """Cues after which the student speaks again (✓, 我不同意, in fact), ending an attribution's reach."""
    endorsements: re.Pattern[str]
    """Cues by which the student adopts a reported claim (我同意, that's right, ^indeed), before it, after it or
    opening the next sentence."""
    replacement: re.Pattern[str]
    """A refuter that puts a new value or term in place of what was just said ("……不对，是多 50%"): it withdraws only the
    claims since the last clause break before it."""

    @classmethod
    def from_cues(cls, cues: Mapping[str, Any]) -> StanceCues:
        """Compile the stance entries of the `cues` section (macros already expanded)."""
        return cls(
            negation=_any(cues["negation"]),
            negation_after=re.compile(f"\\s*(?:{'|'.join(cues['negation_after'])})", re.IGNORECASE),
            coordination=re.compile(cues["coordination"], re.IGNORECASE),
            coordinated_clause=re.compile(cues["coordinated_clause"], re.IGNORECASE),
            object_negation=re.compile(f"(?:{'|'.join(cues['object_negation'])})\\s*(?:the |any |a |an )?$", re.IGNORECASE),
            object_exclusion_after=_any(cues["object_exclusion_after"]),
            object_manner_before=re.compile(f"(?:{'|'.join(cues['object_manner_before'])})\\s*$", re.IGNORECASE),
            object_compared_before=re.compile(f"(?:{'|'.join(cues['object_compared_before'])})\\s*$", re.IGNORECASE),
            object_compared_after=_any(cues["object_compared_after"]),
            refuters_before=_any(cues["refuters_before"]),
            refuters_after=_any(cues["refuters_after"]),
            refuters_next=re.compile(f"\\s*(?:{'|'.join(cues['refuters_next'])})", re.IGNORECASE),
            neutral=_any(cues["neutral"]),
            condition_clause=_any(cues["condition_clause"]),
            open_question=_any(cues["open_question"]),
            concession=_any(cues["concession"]),
            concession_turn=re.compile(cues["concession_turn"], re.IGNORECASE),
            counterfactual=_any(cues["counterfactual"]),
            factual_relative=_any(cues["factual_relative"]),
            conditional=_any(cues["conditional"]),
            condition_rejected=_any(cues["condition_rejected"]),
            condition_contrary=_any(cues["condition_contrary"]),
            condition_turn=_any(cues["condition_turn"]),
            hypothesis_ends=re.compile(f"\\W*(?:{'|'.join(cues['hypothesis_ends'])})", re.IGNORECASE),
            what_if=_any(cues["what_if"]),
            hypothetical_modal=_any(cues["hypothetical_modal"]),
            corrections=re.compile(cues["corrections"], re.IGNORECASE),
            premises=_any(cues["premises"]),
            premise_tails=_any(cues["premise_tails"]),
            modifier_end=re.compile(cues["modifier_end"]),
            modifier_blockers=re.compile(cues["modifier_blockers"]),
            attributers=_any(cues["attributers"]),
            attribution_ends=_any(cues["attribution_ends"]),
            endorsements=_any(cues["endorsements"]),
            replacement=re.compile(cues["replacement"], re.IGNORECASE),
        )

    def excluded(self, sentence: str, start: int, end: int) -> bool:
        """Whether the noun at `start:end` is excluded by a cue right before it ("not activations") or right after it
        ("activations 之外的"), or named as a comparison ("像参数那么") or as the manner of the split ("按参数切")."""
        compared = self.object_compared_before.search(sentence, max(0, start - 8), start) and self.object_compared_after.match(sentence, end)
        manner = self.object_manner_before.search(sentence, max(0, start - 4), start)
        return bool(self.object_negation.search(sentence, max(0, start - 16), start) or self.object_exclusion_after.match(sentence, end) or compared or manner)

    def read(
        self, sentence: str, quotes: Sequence[tuple[int, int]], next_sentence: str, previous_sentence: str = ""
    ) -> SentenceStance:
        """The cues of one prepared sentence, found once, for reading the stance of each claim in it."""
        return SentenceStance(self, sentence, quotes, next_sentence, previous_sentence)


class _Spans:
    """Match spans of one pattern in a sentence, sorted, for counting those inside a window."""

    def __init__(self, pattern: re.Pattern[str], text: str) -> None:
        self.spans = [m.span() for m in pattern.finditer(text)]
        self.starts = [a for a, _ in self.spans]
        self.ends = [b for _, b in self.spans]

    def within(self, low: int, high: int) -> list[tuple[int, int]]:
        """The spans that start in [low, high) (a cue that begins before a claim reaches it, as "不需要" does "需要")."""
        return self.spans[bisect_left(self.starts, low) : bisect_left(self.starts, high)]

    def any_between(self, low: int, high: int) -> bool:
        """Whether some span starts in [low, high)."""
        index = bisect_left(self.starts, low)
        return index < len(self.starts) and self.starts[index] < high

    def last_end_before(self, position: int) -> int | None:
        """The end of the last span that ends by `position`."""
        index = bisect_right(self.ends, position)
        return self.ends[index - 1] if index else None


class SentenceStance:
    """One sentence's stance cues, each found once, the first time a claim needs it."""

    def __init__(
        self, cues: StanceCues, sentence: str, quotes: Sequence[tuple[int, int]], next_sentence: str, previous_sentence: str = ""
    ) -> None:
        self._cues = cues
        self._text = sentence
        self._quotes = quotes
        self._next = next_sentence
        self._found: dict[str, _Spans] = {}
        self._neutral = self._spans("neutral", sentence)
        self._conditions = self._spans("condition_clause", sentence)
        unneutral = _blank(sentence, self._neutral.spans)
        self._refuters = _Spans(cues.refuters_before, unneutral)
        masked = _blank(sentence, self._refuters.spans)
        self._negations = _Spans(cues.negation, masked)
        self._open = _Spans(cues.open_question, _blank(masked, self._neutral.spans))
        self._concessions = _Spans(cues.concession, masked)
        carried_on = _goes_on_hypothetically(cues, previous_sentence, sentence)
        self._counterfactual_at = 0 if carried_on else _counterfactual_at(cues, sentence, next_sentence)
        self._factual = _Spans(cues.factual_relative, sentence)
        self._refuters_after = _Spans(cues.refuters_after, _ASIDES.sub(lambda m: " " * len(m.group()), sentence))
        self._asides_open = _last_open_paren(sentence)
        self._modifier_ends: list[float] | None = None
        self._next_refutes = bool(cues.refuters_next.match(next_sentence))

    def inside_aside(self, position: int) -> bool:
        """Whether `position` lies in a parenthetical aside."""
        return self._asides_open[position] >= 0

    def aside_around(self, position: int) -> tuple[int, int] | None:
        """The span of the parenthetical aside `position` lies in, or None outside any."""
        opened = self._asides_open[position]
        if opened < 0:
            return None
        closing = self._text.find(")", position)
        return opened, closing if closing >= 0 else len(self._text)

    def _spans(self, name: str, text: str | None = None) -> _Spans:
        """The spans of the cue `name` in the sentence, found once."""
        if name not in self._found:
            self._found[name] = _Spans(getattr(self._cues, name), self._text if text is None else text)
        return self._found[name]

    def _next_endorses(self) -> bool:
        """Whether the next sentence opens by adopting the claim ("我同意。", "That's right.")."""
        opening = _LEADING_PUNCTUATION.match(self._next)
        head = self._next[opening.end() if opening else 0 :][:40]
        return bool(self._cues.endorsements.search(head) and not self._cues.refuters_after.search(head))

    def stance(self, clause: tuple[int, int], start: int, end: int, window: int | None = None) -> Stance:
        """What the student does with the claim at `start:end` of `clause`.

        Negations count from the clause start, or only within `window` characters before the claim and outside a
        modifier of its object: a wide scope errs towards "denied", which is the safe side for a claim that is wrong
        when asserted, a narrow one towards "asserted", the safe side for one that is wrong when denied.
        """
        if self.reported(start, end):
            return "reported"
        scope = clause[0] if window is None else max(clause[0], start - window)
        aside = self._asides_open[start]
        if aside >= scope:
            scope = aside + 1  # a claim inside an aside is not negated from outside it
        if self._open.within(scope, start) or self._conceded(scope, start, end) or self._hypothetical(start, end) or self._in_condition(start, end):
            return "open"
        if window is not None and self._modifier_ends is None:
            self._modifier_ends = _modifier_ends(self._cues, self._text)
        cues = [
            span for span in self._negations.within(scope, start)
            if (self._modifier_ends is None or window is None or self._modifier_ends[span[1]] >= start) and not self._neutralised(span, start)
            and not self._closed_aside(span[0], start) and not self._cues.coordinated_clause.search(self._text, span[1], start)
        ]
        cues = [span for span, later in zip(cues, [*cues[1:], None]) if later is None or not self._cues.coordination.search(self._text, span[1], later[0])]
        negations = len(cues) + bool(self._cues.negation_after.match(self._text, end, clause[1]))
        negations += self._refuted(start, end, window)  # "it is not true that X" denies X, as "X is wrong" does
        return "asserted" if negations % 2 == 0 else "denied"

    def _conceded(self, scope: int, start: int, end: int) -> bool:
        """Whether a concession opens in `scope` before the claim at `start:end` and does not turn to its consequence by
        the claim's end ("哪怕 10T 的模型也能在 24GB 的卡上训": the claim opens on the turn)."""
        return any(not self._cues.concession_turn.search(self._text, b, end) for _, b in self._concessions.within(scope, start))

    def _hypothetical(self, start: int, end: int) -> bool:
        """Whether a counterfactual opens before the claim at `start:end` with no relative clause on what is so anyway
        between them (one inside the claim's span counts: "all-gathers, which already cost Ψ/N_d")."""
        return self._counterfactual_at < start and not self._factual.any_between(self._counterfactual_at, end)

    def _in_condition(self, start: int, end: int) -> bool:
        """Whether the claim lies inside a condition clause ("如果把 rank 3 的激活切成 8 份分给别人，…", "If ZeRO split the
        activations, …"): what a condition supposes is not asserted."""
        return any(a <= start and end <= b for a, b in self._conditions.spans)

    def _closed_aside(self, position: int, start: int) -> bool:
        """Whether `position` lies in a parenthetical aside that closes before the claim at `start` ("local update (no
        traffic), all-gather …": the aside's negation is its own)."""
        opened = self._asides_open[position]
        return opened >= 0 and self._asides_open[start] != opened

    def _neutralised(self, span: tuple[int, int], start: int) -> bool:
        """Whether a negation cue lies in a neutral phrase or a condition clause that ends before the claim ("not only"
        before "shards X", "if it does not fit," before "add GPUs"; but
        in "does not just need GPUs" the phrase runs into the claim, so its "not" negates it)."""
        return any(
            a <= span[0] and span[1] <= b <= start
            for spans, reach in ((self._neutral, 40), (self._conditions, 80))
            for a, b in spans.within(max(0, span[0] - reach), span[0] + 1)
        )

    def _refuted(self, start: int, end: int, window: int | None) -> bool:
        """Whether the sentence quotes the claim at `start:end` in order to reject it.

        With a `window`, a refuter before the claim must be near it and the claim a finite verb: in "one might
        think that sharding X costs Y" the refuted claim is "costs Y", not the gerund; and a claim in a premise
        ("有人以为 ZeRO-2 既然切了梯度就要…，这是误解") is granted, not refuted.
        """
        if window is not None and (
            self._spans("premises").any_between(max(0, start - 2 * window), start) or self._cues.premise_tails.match(self._text, end)
        ):
            return False
        before = self._refuters.last_end_before(start)
        if before is not None and window is not None and (start - before > 2 * window or self._text[start:end].endswith("ing")):
            before = None
        closed = before is not None and (
            self._spans("corrections").any_between(before, start) or bool(self._spans("refuters_after").within(before, start))
        )
        return bool((before is not None and not closed) or self._refuted_after(end) or self._next_refutes)

    def _refuted_after(self, end: int) -> bool:
        """Whether a refuter after a claim ending at `end` rejects it: one with a quote or a reported view between them
        rejects that ("ZeRO-3 会把 activation 也 partition，所以"不能分片"只对前两档成立", "前向 AG 参数 Ψ，……一开始我以为
        第三部分是…，其实不是")."""
        attributed = self._spans("attributers")
        return any(
            not _QUOTED.search(self._text, end, refuter) and not attributed.any_between(end, refuter)
            and not (self._cues.replacement.match(self._text, refuter) and _CLAUSE_BREAK.search(self._text, end, refuter))
            for refuter, _ in self._refuters_after.within(end, len(self._text) + 1)
        )

    def reported(self, start: int, end: int) -> bool:
        """Whether the claim at `start:end` is someone else's: quoted or reported, and not endorsed by the student.

        A quoted or reported claim is not the student's assertion whatever follows it, so no rejection needs
        finding; only an endorsement ("我同意", "that's right") makes it theirs.
        """
        quote = next(((a, b) for a, b in self._quotes if a <= start < b), None)
        leads = [  # one inside the claim too: "all-reduce 我一开始算成 Ψ" reports the value after it
            a for a, b in self._spans("attributers").within(0, end)
            if (a < start or b <= end) and not self._spans("attribution_ends").any_between(b, max(b, start))
        ]
        if quote is None and not leads:
            return False
        lead = min([*leads, *(quote[:1] if quote else ())])
        after = quote[1] + 1 if quote else end
        endorsements, refuters = self._spans("endorsements"), self._spans("refuters_after")
        endorsed_before = endorsements.any_between(0, lead) and not refuters.any_between(0, lead)
        endorsed_after = endorsements.any_between(after, len(self._text)) and not refuters.any_between(after, len(self._text))
        return not (endorsed_before or endorsed_after or self._next_endorses())


def _counterfactual_at(cues: StanceCues, sentence: str, next_sentence: str) -> int:
    """Where a condition contrary to fact opens in `sentence`: one worded so, a condition whose consequence is rejected
    after it ("假如 ZeRO 能切激活，那…就解决了——可惜它做不到"), or one that changes what the stage does and is then turned
    from ("如果 ZeRO-3 前向后不释放参数，通信就是 2Ψ，但显存…"); past the end when there is none."""
    found = cues.counterfactual.search(sentence)
    at = found.start() if found else len(sentence) + 1
    condition = cues.conditional.search(sentence, 0, at)
    if condition is None:
        return at
    following = next_sentence.lstrip()
    rejected = cues.condition_rejected.search(sentence, condition.end()) or cues.condition_rejected.match(following)
    turned = cues.condition_contrary.search(condition.group(0)) and (
        cues.condition_turn.search(sentence, condition.end()) or cues.condition_turn.match(following)
    )  # "如果 ZeRO-1 还用 all-reduce，…，但…": a stage doing what it does not, then turned from
    return condition.start() if rejected or turned else at


def _goes_on_hypothetically(cues: StanceCues, previous: str, sentence: str) -> bool:
    """Whether `sentence` carries on a thought experiment that `previous` opened and ended with a semicolon ("假如 ZeRO-1
    还用 all-reduce，…；更新完还得再 all-gather，总共 3Ψ。") or asked as a question it answers with a modal ("What if
    ZeRO-1 stopped after the reduce-scatter? Traffic would drop to Ψ, …"), not opening with a word that leaves it ("所以",
    "but")."""
    if cues.hypothesis_ends.match(sentence):
        return False
    if previous.rstrip().endswith("?") and cues.what_if.search(previous):
        return bool(cues.hypothetical_modal.search(sentence))
    if not previous.rstrip().endswith(";"):
        return False
    return _counterfactual_at(cues, previous, sentence) < len(previous)


def _blank(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """`text` with each span replaced by as many spaces."""
    pieces, last = [], 0
    for a, b in spans:
        pieces += [text[last:a], " " * (b - a)]
        last = b
    return "".join(pieces) + text[last:]


def _last_open_paren(sentence: str) -> list[int]:
    """For each position, where the parenthesis still open there was opened (-1 when none is)."""
    out = [-1] * (len(sentence) + 1)
    opened = -1
    for index, character in enumerate(sentence):
        out[index] = opened
        if character == "(":
            opened = index
        elif character == ")":
            opened = -1
    out[len(sentence)] = opened
    return out


def _modifier_ends(cues: StanceCues, sentence: str) -> list[float]:
    """For each position, where the next modifier end ("的") is, with no blocker before it (infinity when none)."""
    out: list[float] = [float("inf")] * (len(sentence) + 1)
    nearest: float = float("inf")
    blockers = {m.start() for m in cues.modifier_blockers.finditer(sentence)}
    ends = {m.start() for m in cues.modifier_end.finditer(sentence)}
    for index in range(len(sentence) - 1, -1, -1):
        if index in blockers:
            nearest = float("inf")
        elif index in ends:
            nearest = index
        out[index] = nearest
    return out
