"""Let a long cue regex skip, in one step, every position where no match can start: a lookahead of the characters its
matches can begin with (the cue book's alternations of a hundred phrases otherwise try each at every character)."""
from __future__ import annotations

import re
import re._constants as sre  # the parsed form of a pattern; read only, to find the characters a match starts with
import re._parser as sre_parse
from typing import Any

from autograde.veto.pattern_cache import shared_cache

MAX_RANGE = 256
"""A character range wider than this in a pattern's first position is not worth listing: no lookahead is added."""
CATEGORIES = {sre.CATEGORY_DIGIT: r"\d", sre.CATEGORY_SPACE: r"\s"}
"""Character classes a match may start with that the lookahead names as they are (a digit or a space is selective
enough; a word character is not)."""


def with_fast_start(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`pattern` compiled, led by a lookahead of the characters a match can start with when those are few and known
    (compiled once per machine: see pattern_cache)."""
    return shared_cache().compile(pattern, flags, rewrite=fast_start)


def fast_start(pattern: str, flags: int = 0) -> str:
    """`pattern` led by a lookahead of the characters a match can start with, or as it is when those are not known."""
    try:
        first = _first(list(sre_parse.parse(pattern, flags)))  # re.error (a pattern that does not compile) propagates
    except (TypeError, ValueError, RecursionError):
        return pattern
    if first is None or first[1]:
        return pattern  # unknown, or the pattern can match the empty string
    chars = set(first[0])
    if flags & re.IGNORECASE:
        chars |= {variant for c in chars if len(c) == 1 for variant in (c.upper(), c.lower(), c.casefold())}
    classes = sorted(c for c in chars if c in CATEGORIES.values())
    literals = sorted(c for c in chars if len(c) == 1)
    return "(?=[" + "".join(classes) + "".join(_in_class(c) for c in literals) + "])(?:" + pattern + ")"


def _first(items: list[Any]) -> tuple[set[str], bool] | None:
    """(characters a match of the sequence `items` can start with, `CATEGORIES` escapes among them, whether the sequence
    can match empty); None when not known."""
    chars: set[str] = set()
    for op, value in items:
        found = _first_of(op, value)
        if found is None:
            return None
        chars |= found[0]
        if not found[1]:
            return chars, False
    return chars, True


def _first_of(op: Any, value: Any) -> tuple[set[str], bool] | None:
    """The first characters of one parsed item, and whether it can match empty."""
    if op is sre.LITERAL:
        return {chr(value)}, False
    if op is sre.IN:
        return _first_in(value)
    if op in (sre.ASSERT, sre.ASSERT_NOT, sre.AT):
        return set(), True  # zero width: the next item starts the match
    if op is sre.SUBPATTERN:
        return _first(list(value[3]))
    if op is sre.ATOMIC_GROUP:
        return _first(list(value))
    if op is sre.BRANCH:
        branches = [_first(list(alternative)) for alternative in value[1]]
        if any(b is None for b in branches):
            return None
        return set().union(*(b[0] for b in branches if b)), any(b[1] for b in branches if b)
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, getattr(sre, "POSSESSIVE_REPEAT", None)):
        low, _, body = value
        inner = _first(list(body))
        return None if inner is None else (inner[0], low == 0 or inner[1])
    return None  # any character, a negated literal, a category, a back reference: unknown


def _first_in(items: list[Any]) -> tuple[set[str], bool] | None:
    """The characters a character class matches, if it lists them or names a class in `CATEGORIES`."""
    chars: set[str] = set()
    for op, value in items:
        if op is sre.LITERAL:
            chars.add(chr(value))
        elif op is sre.CATEGORY and value in CATEGORIES:
            chars.add(CATEGORIES[value])
        elif op is sre.RANGE and value[1] - value[0] <= MAX_RANGE:
            chars |= {chr(code) for code in range(value[0], value[1] + 1)}
        else:
            return None
    return chars, False


def _in_class(char: str) -> str:
    """`char` as written inside a character class."""
    return "\\" + char if char in "\\]^-[" else char
