"""Answers to one question in groups a grader decides at once: placeholders, identical and near-identical answers.

A group never mixes answers with different veto candidates, so a group decision on a veto covers answers that say
the same thing. Near-identical answers are found by a prefix-filtered n-gram join (AllPairs): each answer is compared
only with the group leaders it shares a rare n-gram with, so a class of thousands stays well under a second.
"""
from __future__ import annotations

import difflib
import math
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Literal

from autograde.yaml_data import read_yaml

RULES_PATH = Path(__file__).with_name("grouping.yaml")
GroupKind = Literal["placeholder", "identical", "near-identical", "single"]
DIFFERENCES_SHOWN = 5
"""Changed fragments listed for a near-identical answer."""
FRAGMENT_CHARS = 40
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_NOT_LETTER_OR_DIGIT = re.compile(r"[\W_]+")
_LETTER_OR_DIGIT = re.compile(r"[^\W_]")
PLACEHOLDER_CHARS = 200
"""Longer answers are placeholders only if they hold no letter or digit at all."""


def _character_class(category: str) -> re.Pattern[str]:
    """A pattern matching runs of the characters of one Unicode category, written as code point ranges (fast)."""
    codes = [code for code in range(0x110000) if unicodedata.category(chr(code)) == category]
    ranges: list[list[int]] = []
    for code in codes:
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    return re.compile("[" + "".join(re.escape(chr(a)) + ("-" + re.escape(chr(b)) if b > a else "") for a, b in ranges) + "]+")


_FORMAT_CHARACTERS = _character_class("Cf")
"""Zero-width and bidi controls, soft hyphens: invisible, so two answers that differ only by them are the same."""


@dataclass(frozen=True)
class GroupingRules:
    """What grouping.yaml declares."""

    placeholders: frozenset[str]
    ngram: int
    jaccard: float
    compared_chars: int
    same_numbers: bool


@cache
def grouping_rules(path: Path = RULES_PATH) -> GroupingRules:
    """The rules, read once."""
    raw = read_yaml(path)
    near = raw["near_identical"]
    return GroupingRules(frozenset(letters_and_digits(normalized(str(p))) for p in raw["placeholders"]), int(near["ngram"]),
                         float(near["jaccard"]), int(near["compared_chars"]), bool(near["same_numbers"]))


@dataclass(frozen=True)
class Group:
    """Answers the grader may decide at once; `members` are answer indexes, the leader (most common wording) first."""

    kind: GroupKind
    members: tuple[int, ...]
    vetoes: tuple[str, ...] = ()
    """The veto ids every member has (the same for all)."""
    differences: tuple[tuple[str, ...], ...] = field(default=(), compare=False)
    """Per member, what its wording changes from the leader's ("「2Ψ」→「2 Ψ」"); empty for the leader and exact copies."""


def normalized(text: str) -> str:
    """The answer as compared: NFKC, format characters (zero-width, bidi) removed, whitespace collapsed, case-folded."""
    return " ".join(_FORMAT_CHARACTERS.sub("", unicodedata.normalize("NFKC", text)).split()).casefold()


def letters_and_digits(text: str) -> str:
    """Only the letters and digits of normalised text (how placeholders and near-identical answers are compared)."""
    return _NOT_LETTER_OR_DIGIT.sub("", text)


def is_placeholder(text: str, rules: GroupingRules) -> bool:
    """Whether a normalised answer says nothing: no letter or digit, or a listed placeholder."""
    if len(text) > PLACEHOLDER_CHARS:
        return _LETTER_OR_DIGIT.search(text) is None
    bare = letters_and_digits(text)
    return not bare or bare in rules.placeholders


def ngrams(text: str, size: int) -> frozenset[str]:
    """The character n-grams of `text`."""
    return frozenset(text[i:i + size] for i in range(len(text) - size + 1))


def jaccard(first: frozenset[str], second: frozenset[str]) -> float:
    """|shared| / |all| of two sets (0 when both are empty)."""
    union = len(first | second)
    return len(first & second) / union if union else 0.0


def differences(leader: str, member: str, rules: GroupingRules) -> tuple[str, ...]:
    """The fragments where `member` differs from `leader` (normalised, compared part only), as「old」→「new」."""
    old, new = leader[:rules.compared_chars], member[:rules.compared_chars]
    changes = [f"「{old[a:b][:FRAGMENT_CHARS]}」→「{new[c:d][:FRAGMENT_CHARS]}」"
               for tag, a, b, c, d in difflib.SequenceMatcher(None, old, new).get_opcodes()
               if tag != "equal"]
    return tuple(changes[:DIFFERENCES_SHOWN]) + ((f"… +{len(changes) - DIFFERENCES_SHOWN}",)
                                                 if len(changes) > DIFFERENCES_SHOWN else ())


@dataclass
class _Wording:
    """One distinct normalised answer and the answers that have it."""

    text: str
    members: list[int]
    grams: frozenset[str] = frozenset()
    numbers: tuple[str, ...] = ()


class _LeaderIndex:
    """Group leaders indexed by the rare n-grams of their prefix (AllPairs' prefix filter for Jaccard ≥ t)."""

    def __init__(self, rules: GroupingRules, frequency: Counter[str]) -> None:
        self.rules, self.frequency = rules, frequency
        self.leaders: list[_Wording] = []
        self.by_gram: defaultdict[str, list[int]] = defaultdict(list)

    def _prefix(self, grams: frozenset[str]) -> list[str]:
        """The rarest |A| − ⌈t·|A|⌉ + 1 grams: two sets with Jaccard ≥ t share at least one of each other's."""
        ordered = sorted(grams, key=lambda gram: (self.frequency[gram], gram))
        return ordered[:len(ordered) - math.ceil(self.rules.jaccard * len(ordered)) + 1]

    def closest(self, wording: _Wording) -> int | None:
        """The index of the most similar leader at or above the threshold, with the same numbers; None if none."""
        if not wording.grams:
            return None
        candidates = {leader for gram in self._prefix(wording.grams) for leader in self.by_gram.get(gram, ())}
        best, best_score = None, self.rules.jaccard
        for leader in sorted(candidates):
            other = self.leaders[leader]
            if self.rules.same_numbers and other.numbers != wording.numbers:
                continue
            score = jaccard(wording.grams, other.grams)
            if score >= best_score:
                best, best_score = leader, score
        return best

    def add(self, wording: _Wording) -> int:
        """Make `wording` a leader; its index."""
        self.leaders.append(wording)
        for gram in self._prefix(wording.grams) if wording.grams else ():
            self.by_gram[gram].append(len(self.leaders) - 1)
        return len(self.leaders) - 1


def _text_groups(indexes: Sequence[int], texts: Sequence[str], vetoes: tuple[str, ...],
                 rules: GroupingRules) -> list[Group]:
    """Groups of answers with the same veto candidates: placeholders, then identical and near-identical wordings."""
    placeholders, wordings = [], {}
    for i in indexes:
        text = normalized(texts[i])
        if is_placeholder(text, rules):
            placeholders.append(i)
        else:
            wordings.setdefault(text, _Wording(text, [])).members.append(i)
    ordered = sorted(wordings.values(), key=lambda w: (-len(w.members), w.members[0]))
    for wording in ordered:
        compared = wording.text[:rules.compared_chars]
        wording.grams = ngrams(letters_and_digits(compared), rules.ngram)  # spacing and punctuation do not count
        wording.numbers = tuple(_NUMBER.findall(compared))
    index = _LeaderIndex(rules, Counter(gram for wording in ordered for gram in wording.grams))
    clusters: dict[int, list[_Wording]] = {}
    for wording in ordered:
        leader = index.closest(wording)
        if leader is None:
            clusters[index.add(wording)] = [wording]
        else:
            clusters[leader].append(wording)
    groups = [Group("placeholder", tuple(placeholders), vetoes, ((),) * len(placeholders))] if placeholders else []
    for found in clusters.values():
        lead = found[0]
        members = tuple(i for wording in found for i in wording.members)
        kind: GroupKind = "single" if len(members) == 1 else "identical" if len(found) == 1 else "near-identical"
        changed = tuple(differences(lead.text, wording.text, rules) if wording is not lead else ()
                        for wording in found for _ in wording.members)
        groups.append(Group(kind, members, vetoes, changed))
    return groups


def group_answers(texts: Sequence[str], vetoes: Sequence[Sequence[str]],
                  rules: GroupingRules | None = None) -> list[Group]:
    """Every answer in exactly one group, in queue order: placeholders, then groups with veto candidates (the same
    candidates next to each other), then the rest, largest first."""
    rules = rules or grouping_rules()
    by_vetoes: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for i, found in enumerate(vetoes):
        by_vetoes[tuple(sorted(set(found)))].append(i)
    groups = [group for signature, indexes in by_vetoes.items() for group in _text_groups(indexes, texts, signature, rules)]
    return sorted(groups, key=lambda g: (g.kind != "placeholder", not g.vetoes, g.vetoes, -len(g.members), g.members[0]))


def decisions(groups: Sequence[Group]) -> tuple[int, int]:
    """(decisions one answer at a time, decisions one group at a time): a score per answer or group, plus a decision
    per veto id of each answer or group."""
    one_by_one = sum(len(group.members) * (1 + len(group.vetoes)) for group in groups)
    return one_by_one, sum(1 + len(group.vetoes) for group in groups)
