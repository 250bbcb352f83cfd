"""Recognise ZeRO stage aliases, replace them by tags such as ⟨zero3⟩, and find which stage a claim is about."""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

TAG = re.compile(r"⟨([a-z0-9]+)⟩")
_ASIDE = re.compile(r"^\s*\([^()]*\)")
_GLOSS = re.compile(r"\s*\(\s*(?:即|也就是|i\.e\.,?|=)?\s*")
_LIST_SEPARATOR = re.compile(r"\s*(?:/|、|和|与|或|\band\b|\bor\b)\s*")
DASH = re.compile(r"\s+-{1,2}\s+|\s*(?:—+|--)\s*")
"""A dash that opens or closes an aside or a list ("… - this is what FSDP does - …", "——", a spaced hyphen)."""
_STAGE_CHANGE = re.compile(r"⟨([a-z0-9]+)⟩\s*(?:到|至|→|\bto\b|升级到|升到|换成|变成)\s*⟨([a-z0-9]+)⟩")
_NEW_VALUE = re.compile(r"(?:→|到|变成|变为|增加到|增至|升到|涨到|\bto\b|\binto\b|\bbecomes?\b|\bgoes to\b)\s*(?:约|about|~|≈)?\s*$")


def tag(stage: str) -> str:
    """The tag that stands for `stage` in a tagged sentence."""
    return f"⟨{stage}⟩"


@dataclass(frozen=True)
class Mention:
    """One stage tag in a tagged sentence."""

    start: int
    end: int
    stage: str
    reference: bool
    """True when the stage is only compared to or negated ("比 DDP", "unlike ZeRO-1", "不是 ZeRO-2")."""
    aside: bool = False
    """True inside parentheses ("（ZeRO-2 只切优化器状态）"): an aside that does not become the next topic."""


class StageTagger:
    """Tags stage aliases and tells the mentions a claim is about from those only compared to."""

    def __init__(self, aliases: Mapping[str, Sequence[str]], cues: Mapping[str, str]) -> None:
        """Compile the aliases and, from `cues`, the reference cues before and after a stage (`reference_before`,
        `reference_after`, already expanded, with a library's name allowed between: `implementation_before`; a technique
        a stage turns on or an axis it comes with, `technique_enabled`), and those that make a stage a subject after all
        (`onward_after`, a strategy named as it: `strategy_named_before`, a heading: `heading_before` with
        `heading_after`) or an aside (`compared_figure_before`, `contrast_before` with `figure_after`,
        `strategy_after`); and an FSDP strategy that opens a clause, which stands for its stage (`strategy_subject`)."""
        alternatives = [f"(?P<{stage}>{'|'.join(patterns)})" for stage, patterns in aliases.items()]
        self._alias = re.compile("|".join(alternatives), re.IGNORECASE | re.ASCII)  # "用TP", "跟DDP一样": a CJK letter is no word
        self._before = re.compile(  # "as 'DDP's 2Ψ …'" (quotes made ASCII), "unlike DeepSpeed stage 1/2"
            f"(?:{cues['reference_before']})\\s*[\"']?\\s*(?:(?:{cues['implementation_before']})\\s*)?$"
        )
        self._after = re.compile(f"^\\s*(?:{cues['reference_after']})")
        self._onward = re.compile(f"^\\s*(?:{cues['onward_after']})")
        self._strategy_named = re.compile(f"(?:{cues['strategy_named_before']})\\s*$")
        self._heading = re.compile(f"(?:{cues['heading_before']})\\s*$")
        self._heading_after = re.compile(f"^\\s*(?:{cues['heading_after']})")
        self._compared_figure = re.compile(f"(?:{cues['compared_figure_before']})\\s*$")
        self._contrast = re.compile(f"(?:{cues['contrast_before']})\\s*$")
        self._figure_after = re.compile(f"\\s*(?:{cues['figure_after']})")
        self._strategy_after = re.compile(f"^\\s*(?:{cues['strategy_after']})")
        self._technique_enabled = re.compile(f"(?:{cues['technique_enabled']})$")
        self._strategy_subject = re.compile(cues["strategy_subject"])

    def tag(self, text: str) -> str:
        """`text` with every stage alias replaced by its tag, then lower-cased."""
        tagged = self._alias.sub(lambda m: f" {tag(m.lastgroup or '')} ", text)
        return re.sub(r"\s+", " ", tagged).strip().lower()

    def mentions(self, tagged: str) -> list[Mention]:
        """The stage tags of a tagged sentence, each marked as subject or reference.

        A tag listed or glossed right after a reference ("相比 DDP / ZeRO-2", "vs ZeRO-2 (stage 2)") is a reference
        too, and a parenthetical aside between a tag and its reference cue ("在 ZeRO-2（…）的基础上") is skipped. A tag
        in parentheses, owning a figure given for comparison ("versus 52 GB for DDP", "而 ZeRO-2 是 28 GB") or qualifying a
        strategy ("FSDP 的 SHARD_GRAD_OP") is an aside.
        """
        found: list[Mention] = []
        depth, counted = 0, 0
        for m in TAG.finditer(tagged):
            before = tagged[max(0, m.start() - 24) : m.start()]
            after = _ASIDE.sub("", tagged[m.end() : m.end() + 64], count=1)[:16]
            between = tagged[found[-1].end : m.start()] if found else ""
            listed = bool(found) and found[-1].reference and len(between) < 24 and bool(_LIST_SEPARATOR.fullmatch(between) or _GLOSS.fullmatch(between))
            enabled = bool(self._technique_enabled.search(tagged, max(0, m.start() - 24), m.end()))  # "ZeRO-3 开 recompute 时"
            heading = bool(self._heading.search(before)) and bool(self._heading_after.match(after))  # "顺带对比 ZeRO-3：…"
            reference = bool(self._before.search(before) or self._after.search(after) or listed or enabled) and not (
                self._onward.match(after) or self._strategy_named.search(before) or heading
            )
            depth += tagged.count("(", counted, m.start()) - tagged.count(")", counted, m.start())
            counted = m.start()
            contrasted = bool(self._contrast.search(before)) and bool(self._figure_after.match(tagged, m.end()))
            listed_aside = bool(found) and found[-1].aside and bool(_LIST_SEPARATOR.fullmatch(between))
            compared = bool(self._compared_figure.search(before)) or contrasted or listed_aside
            aside = depth > 0 or compared or bool(self._strategy_after.match(after)) or _between_dashes(tagged, m.start())
            found.append(Mention(m.start(), m.end(), m.group(1), reference, aside))
        strategies = [Mention(m.start("name"), m.end("name"), next(k for k in ("zero2", "zero3", "ddp") if m.group(k)), False, False)
                      for m in (self._strategy_subject.finditer(tagged) if "shard" in tagged else ())]  # "SHARD_GRAD_OP 只切梯度"
        return sorted(found + strategies, key=lambda mention: mention.start) if strategies else found


def subject_at(
    mentions: Sequence[Mention], clause: tuple[int, int], position: int, topic: str | None, reach: int | None = None
) -> str | None:
    """The stage a claim at `position` is about (see SubjectIndex.at)."""
    return SubjectIndex(mentions).at(clause, position, topic, reach)


def _between_dashes(tagged: str, position: int) -> bool:
    """Whether `position` sits in an aside set off by dashes ("ZeRO-2 partitions the parameters - this is what FSDP does -
    and so …"): an odd number of dashes before it in the sentence, and one more after it."""
    dashes = [m.start() for m in DASH.finditer(tagged)]
    before = sum(1 for d in dashes if d < position)
    return before % 2 == 1 and before < len(dashes)


class SubjectIndex:
    """A sentence's subject mentions (not references), for finding the one a claim is about by bisection."""

    def __init__(self, mentions: Sequence[Mention], others: frozenset[str] = frozenset()) -> None:
        self._others = others
        """Other axes and techniques: subjects only when named before the claim ("SP splits activations", not "needs SP")."""
        self._subjects = [m for m in mentions if not m.reference]
        self._starts = [m.start for m in self._subjects]
        self._ends = [m.end for m in self._subjects]
        self._outside_aside: list[int] = []
        """For each subject, the index of the last subject up to it that is not inside an aside (-1 when none)."""
        last = -1
        for index, mention in enumerate(self._subjects):
            last = last if mention.aside else index
            self._outside_aside.append(last)

    def at(self, clause: tuple[int, int], position: int, topic: str | None, reach: int | None = None) -> str | None:
        """The stage a claim at `position` is about.

        The nearest subject mention before it in its clause, else the first after it in the clause (or, given a
        `reach`, within that many characters, as in "2Ψ (stage 1/2)"), else the last one earlier in the sentence
        outside parentheses, else the topic.
        """
        start, end = clause
        before = bisect_right(self._ends, position) - 1
        if before >= 0 and self._subjects[before].start >= start:
            return self._subjects[before].stage
        limit = end if reach is None else position + reach
        after = bisect_left(self._starts, position)
        while after < len(self._subjects) and self._starts[after] < limit and self._subjects[after].stage in self._others:
            after += 1
        if after < len(self._subjects) and self._starts[after] < limit and (self._starts[after] < end or self._subjects[after].aside):
            return self._subjects[after].stage  # past the clause only as an aside ("2Ψ (stage 1/2)"), not a new clause's subject
        earlier = bisect_right(self._ends, start) - 1
        if earlier >= 0 and self._outside_aside[earlier] >= 0:
            return self._subjects[self._outside_aside[earlier]].stage
        return topic

    def between(self, low: int, high: int, but: str | None = None) -> set[str]:
        """The stages of the subject mentions that start in [low, high), except `but`."""
        return {m.stage for m in self._subjects[bisect_left(self._starts, low) : bisect_left(self._starts, high)]} - {but}

    def first_from(self, low: int, high: int) -> Mention | None:
        """The first subject mention that starts in [low, high)."""
        index = bisect_left(self._starts, low)
        return self._subjects[index] if index < len(self._subjects) and self._starts[index] < high else None


def last_subject(mentions: Sequence[Mention], topic: str | None) -> str | None:
    """The topic a sentence hands to the next one: its last subject mention outside an aside, else the topic it inherited."""
    subjects = [m.stage for m in mentions if not (m.reference or m.aside)]
    return subjects[-1] if subjects else topic


def changed_to(tagged: str, position: int) -> str | None:
    """The stage a value at `position` belongs to when the sentence moves between stages and the value is the new one.

    In "ZeRO-2 到 ZeRO-3 …，通信从 2Ψ 变成 3Ψ" (or "from ZeRO-2 to ZeRO-3 traffic goes from 2Ψ to 3Ψ") the 3Ψ is
    ZeRO-3's, whichever stage the clause last named.
    """
    change = _STAGE_CHANGE.search(tagged, 0, position)
    return change.group(2) if change and _NEW_VALUE.search(tagged, max(0, position - 12), position) else None
