"""Does a regex read back from the pattern cache match exactly as one compiled by re, and does a cache file that is
damaged, stale or unwritable cost only the time to compile again?"""
from __future__ import annotations

import marshal
import re
from pathlib import Path

import pytest

import autograde.veto.cues as cues
from autograde.veto.first_chars import fast_start
from autograde.veto.pattern_cache import CACHE_NAME, PatternCache
from autograde.veto.scoring import LABELLED_DIR, load_labelled
from autograde.veto.text import find_vetoes

PATTERNS = [
    (r"(?P<stage>zero-?[123])\s*(?:shards?|切分)(?!激活)", re.IGNORECASE),
    (r"(?<![不没])切(?:分|片)|\bsplits?\b", re.IGNORECASE),
    (r"(\d+)\s*ψ\s*[+＋]\s*\1\s*ψ", 0),
    (r"^(?:略|todo)$", re.IGNORECASE | re.MULTILINE),
    (r"[\u3400-\u9fff]{2,}?(?=。)", 0),
]
TEXTS = ["ZeRO-2 shards the gradients; zero3 切分激活", "2Ψ + 2Ψ = 4Ψ, 3 ψ+3ψ", "TODO\n略", "梯度不切分。参数切片。", "it splits"]


def _matches(pattern: re.Pattern[str]) -> list[list[tuple[tuple[int, int], dict[str, str | None]]]]:
    """Every match of `pattern` in TEXTS: its span and named groups."""
    return [[(m.span(), m.groupdict()) for m in pattern.finditer(text)] for text in TEXTS]


def test_a_cached_pattern_matches_as_re_compiles_it(tmp_path: Path) -> None:
    """Is each pattern, compiled once and then read back by a new cache, the same regex as re.compile makes?"""
    cold = PatternCache(tmp_path)
    first = [cold.compile(p, f) for p, f in PATTERNS]
    cold.save()
    warm = PatternCache(tmp_path)
    again = [warm.compile(p, f) for p, f in PATTERNS]
    assert (cold.compiled, warm.compiled) == (len(PATTERNS), 0)
    for (pattern, flags), a, b in zip(PATTERNS, first, again):
        reference = re.compile(pattern, flags)
        assert (b.pattern, b.flags, b.groupindex) == (reference.pattern, reference.flags, reference.groupindex)
        assert _matches(a) == _matches(b) == _matches(reference), pattern


def test_the_cue_book_read_from_the_cache_finds_the_same_vetoes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Do the dev set's answers get the same findings from a cue book compiled afresh and one read from its cache?"""
    rows = load_labelled(LABELLED_DIR / "dev.jsonl")

    def findings(cache: PatternCache) -> list[list[tuple[str, str]]]:
        monkeypatch.setattr(cues, "shared_cache", lambda: cache)
        monkeypatch.setattr("autograde.veto.first_chars.shared_cache", lambda: cache)
        book = cues.CueBook.from_file()
        return [[(v.id, v.evidence) for v in find_vetoes(row["text"], question=row["question"], book=book)] for row in rows]

    cold = PatternCache(tmp_path)
    fresh = findings(cold)
    warm = PatternCache(tmp_path)
    assert warm.stored and cold.compiled > 100
    assert findings(warm) == fresh and warm.compiled == 0
    assert any(fresh), "the dev set has vetoed answers"


@pytest.mark.parametrize("damage", ["garbage", "truncated", "other rules", "bad code"])
def test_a_damaged_cache_file_is_compiled_again(tmp_path: Path, damage: str) -> None:
    """Is a cache file that does not load, was written by other rules, or holds code the engine refuses, ignored
    (each pattern compiled again, the same as re's) and then rewritten?"""
    pattern, flags = PATTERNS[0]
    cache = PatternCache(tmp_path)
    cache.compile(pattern, flags)
    cache.save()
    path = tmp_path / CACHE_NAME
    data = marshal.loads(path.read_bytes())
    if damage == "garbage":
        path.write_bytes(b"\x00not marshal at all")
    elif damage == "truncated":
        path.write_bytes(path.read_bytes()[:100])
    elif damage == "other rules":
        path.write_bytes(marshal.dumps(dict(data, rules="0" * 64)))
    else:
        entry = data["entries"][(pattern, int(flags))]
        data["entries"][(pattern, int(flags))] = (entry[0], entry[1], [99999, 1, 2], *entry[3:])
        path.write_bytes(marshal.dumps(data))
    again = PatternCache(tmp_path)
    compiled = again.compile(pattern, flags)
    assert again.compiled == 1
    assert _matches(compiled) == _matches(re.compile(pattern, flags))
    again.save()
    assert PatternCache(tmp_path).stored.keys() == {(pattern, int(flags))}


def test_an_unwritable_cache_folder_only_costs_time(tmp_path: Path) -> None:
    """Where the cache cannot be written (its folder is a file), is the pattern still compiled and nothing raised?"""
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("x")
    cache = PatternCache(blocked)
    compiled = cache.compile(*PATTERNS[1])
    cache.save()
    assert _matches(compiled) == _matches(re.compile(*PATTERNS[1]))


def test_the_rewrite_is_cached_with_the_pattern(tmp_path: Path) -> None:
    """Is a pattern's fast-start rewrite kept in the cache, so that reading it back needs no parse, and is a pattern
    that does not compile still an re.error?"""
    cache = PatternCache(tmp_path)
    rewritten = cache.compile("(?:shard|split)s?", re.IGNORECASE, rewrite=fast_start)
    cache.save()
    warm = PatternCache(tmp_path)
    assert warm.compile("(?:shard|split)s?", re.IGNORECASE, rewrite=fast_start).pattern == rewritten.pattern
    assert rewritten.pattern.startswith("(?=[") and warm.compiled == 0
    with pytest.raises(re.error):
        cache.compile("(unclosed", 0, rewrite=fast_start)
