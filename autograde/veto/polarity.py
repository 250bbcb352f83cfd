"""Decide whether a matched claim is asserted, negated, or refuted (quoted only to be rejected)."""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

_LEADING_PUNCTUATION = re.compile(r"^[\s,;:.!\"'()\-—–]*")
_ASIDES = re.compile(r"\([^()]*\)")
"""A parenthetical aside: a verdict inside one judges the aside's own claim, not one before it."""


def _any(patterns: list[str]) -> re.Pattern[str]:
    """One case-insensitive alternation of `patterns`, in the order given."""
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)


@dataclass(frozen=True)
class Polarity:
    """Negation, refutation and hedging cues, compiled from the pattern book."""

    negation: re.Pattern[str]
    """Cues that negate what follows them in the clause (不, 没有, not, never, neither…nor)."""
    negation_after: re.Pattern[str]
    """Cues right after a predicate that negate it (切不了)."""
    object_negation: re.Pattern[str]
    """Cues right before a noun that exclude it ("not activations", "而不是梯度")."""
    refuters_before: re.Pattern[str]
    """Cues that introduce a claim only to reject it (有人以为, it is a myth that)."""
    refuters_after: re.Pattern[str]
    """Cues after a claim in the same sentence that reject it (这是错的, is wrong)."""
    refuters_next: re.Pattern[str]
    """Cues opening the next sentence that reject the claim before it (That's wrong., 不对。)."""
    neutral: re.Pattern[str]
    """Phrases that look negative but are not (not only, 不得不, not wrong to say); masked before counting."""
    open_question: re.Pattern[str]
    """Cues that make the claim an open question (是否, whether, 不想), which asserts nothing."""
    counterfactual: re.Pattern[str]
    """Conditions contrary to fact anywhere before the claim (if … were … could), which assert nothing either."""
    corrections: re.Pattern[str]
    """Cues after which a sentence states its own view again (其实, but actually), ending a refuter's reach."""
    premises: re.Pattern[str]
    """Cues that make a claim the premise of a refuted one (既然, because): the refutation is not about it."""
    premise_tails: re.Pattern[str]
    """Cues right after a claim that make it a premise too ("切了以后还得…", "shards X, so it must…")."""
    modifier_end: re.Pattern[str]
    """Marks the end of a modifier ("不属于自己的 梯度分片"): a negation before it does not reach the claim."""
    attributers: re.Pattern[str]
    """Cues that give what follows to someone else (同学说, a blog claims, ✗, wrong:): reported, not asserted."""
    attribution_ends: re.Pattern[str]
    """Cues after which the student speaks again (✓, 我不同意, in fact), ending an attribution's reach."""
    endorsements: re.Pattern[str]
    """Cues by which the student adopts a reported claim (我同意, that's right, ^indeed), before it, after it or
    opening the next sentence."""

    @classmethod
    def from_cues(cls, cues: Mapping[str, Any]) -> Polarity:
        """Compile the `cues` section of the pattern book."""
        return cls(
            negation=_any(cues["negation"]),
            negation_after=re.compile(f"^\\s*(?:{'|'.join(cues['negation_after'])})", re.IGNORECASE),
            object_negation=re.compile(f"(?:{'|'.join(cues['object_negation'])})\\s*(?:the |any |a |an )?$", re.IGNORECASE),
            refuters_before=_any(cues["refuters_before"]),
            refuters_after=_any(cues["refuters_after"]),
            refuters_next=re.compile(f"^\\s*(?:{'|'.join(cues['refuters_next'])})", re.IGNORECASE),
            neutral=_any(cues["neutral"]),
            open_question=_any(cues["open_question"]),
            counterfactual=_any(cues["counterfactual"]),
            corrections=re.compile(cues["corrections"], re.IGNORECASE),
            premises=_any(cues["premises"]),
            premise_tails=_any(cues["premise_tails"]),
            modifier_end=re.compile(cues["modifier_end"]),
            attributers=_any(cues["attributers"]),
            attribution_ends=_any(cues["attribution_ends"]),
            endorsements=_any(cues["endorsements"]),
        )

    def asserted(
        self,
        sentence: str,
        clause: tuple[int, int],
        start: int,
        end: int,
        next_sentence: str,
        window: int | None = None,
    ) -> bool | None:
        """Whether the claim at `sentence[start:end]` is asserted (True), denied (False) or left open (None).

        Negations count from the clause start, or only within `window` characters before the claim and outside a
        modifier of its object: a wide scope errs towards "negated", which is the safe side for asserted
        misconceptions but not for denied ones.
        """
        scope = clause[0] if window is None else max(clause[0], start - window)
        aside = sentence.rfind("(", scope, start)
        if aside != -1 and ")" not in sentence[aside:start]:
            scope = aside + 1  # a claim inside an aside is not negated from outside it
        prefix = self._without_cues(sentence[:start])[scope:]
        counterfactual = self.counterfactual.search(sentence)
        if self.open_question.search(prefix) or (counterfactual and counterfactual.start() < start):
            return None
        cues = [m for m in self.negation.finditer(prefix) if window is None or not self.modifier_end.search(prefix[m.end() :])]
        negations = len(cues) + bool(self.negation_after.search(sentence[end : clause[1]]))
        return (negations % 2 == 0) != self.refuted(sentence, start, end, next_sentence, window)

    def refuted(self, sentence: str, start: int, end: int, next_sentence: str, window: int | None = None) -> bool:
        """Whether the sentence quotes the claim at `start:end` in order to reject it.

        With a `window`, a refuter before the claim must be near it and the claim a finite verb: in "one might
        think that sharding X costs Y" the refuted claim is "costs Y", not the gerund; and a claim in a premise
        ("有人以为 ZeRO-2 既然切了梯度就要…，这是误解") is granted, not refuted.
        """
        if window is not None and (
            self.premises.search(sentence[max(0, start - 2 * window) : start]) or self.premise_tails.search(sentence[end:])
        ):
            return False
        before = [m.end() for m in self.refuters_before.finditer(self._without_neutral(sentence[:start]))]
        if before and window is not None and (start - before[-1] > 2 * window or sentence[start:end].endswith("ing")):
            before = []
        return bool(
            (before and not self._closed(sentence[before[-1] : start]))
            or self.refuters_after.search(_ASIDES.sub(" ", sentence[end:]))
            or self.refuters_next.search(next_sentence)
        )

    def attributed(
        self, sentence: str, start: int, end: int, quotes: Sequence[tuple[int, int]], next_sentence: str
    ) -> bool:
        """Whether the claim at `start:end` is someone else's: quoted or reported, and not endorsed by the student.

        A quoted or reported claim is not the student's assertion whatever follows it, so no rejection needs
        finding; only an endorsement ("我同意", "that's right") makes it theirs.
        """
        quote = next(((a, b) for a, b in quotes if a <= start < b), None)
        cues = [m for m in self.attributers.finditer(sentence, 0, start) if not self.attribution_ends.search(sentence, m.end(), start)]
        if quote is None and not cues:
            return False
        lead = min([*(m.start() for m in cues), *(quote[:1] if quote else ())])
        after = sentence[quote[1] + 1 if quote else end :]
        endorsed = any(
            self.endorsements.search(text) and not self.refuters_after.search(text)
            for text in (sentence[:lead], after, _LEADING_PUNCTUATION.sub("", next_sentence)[:40])
        )
        return not endorsed

    def _closed(self, between: str) -> bool:
        """Whether a refuter's reach ends before the claim: a correction or a verdict ("有人说 X，这是错的，…") comes first."""
        return bool(self.corrections.search(between) or self.refuters_after.search(between))

    def negated_before(self, sentence: str, position: int) -> bool:
        """Whether the noun at `position` is excluded by a cue right before it ("not activations")."""
        return bool(self.object_negation.search(sentence[max(0, position - 16) : position]))

    def _without_neutral(self, text: str) -> str:
        """`text` with neutral phrases blanked ("not wrong to say" is no refuter, "not only" no negation)."""
        return self.neutral.sub(lambda m: " " * len(m.group()), text)

    def _without_cues(self, text: str) -> str:
        """`text` with neutral phrases and refuters blanked, so that their negative words are not counted."""
        return self.refuters_before.sub(lambda m: " " * len(m.group()), self._without_neutral(text))
