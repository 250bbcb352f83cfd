"""Do cues.yaml and facts.yaml load, does a broken entry fail with a message a course author can act on, and is a new
synonym or a new fact a row of data, not code?"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from autograde.veto.cues import CUES_PATH, CueBook, CueError, cue_book
from autograde.veto.facts import FACTS_PATH, Facts, FactsError
from autograde.veto.first_chars import with_fast_start
from autograde.veto.scoring import LABELLED_DIR, load_labelled
from autograde.veto.sentences import split_sentences
from autograde.veto.text import find_vetoes

S = "wrong-shard-target"


def _edited(tmp_path: Path, source: Path, edit: object) -> Path:
    """A copy of a YAML file with `edit` (a function of its data) applied."""
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    edit(data)  # type: ignore[operator]
    path = tmp_path / source.name
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["terms"].update(shard="{no_such_term}"), r"unknown term \{no_such_term\}"),
        (lambda d: d["terms"].update(shard="(unclosed"), "a regex does not compile"),
    ],
)
def test_a_broken_cue_is_reported(tmp_path: Path, edit: object, message: str) -> None:
    """Is a cue naming an unknown word class, or one that is no regex, reported by what is wrong?"""
    with pytest.raises(CueError, match=message):
        CueBook.from_file(_edited(tmp_path, CUES_PATH, edit))


def test_a_new_synonym_needs_no_code(tmp_path: Path) -> None:
    """Can a course author teach the checker a new verb for sharding in cues.yaml alone?"""
    answer = "ZeRO-1 zorbs the parameters across ranks."
    assert find_vetoes(answer, "q2") == []
    book = CueBook.from_file(_edited(tmp_path, CUES_PATH, lambda d: d["terms"].update(shard=d["terms"]["shard"] + r"|\bzorbs\b")))
    [veto] = find_vetoes(answer, "q2", book=book)
    assert (veto.id, veto.detail["claim"]) == (S, "ZeRO-1 · shards · {parameters}")


def test_the_judge_reads_the_facts_table(tmp_path: Path) -> None:
    """Does a change of the facts table (a lesson where ZeRO-1 also shards the gradients) change the verdict, with no
    change of code or cues?"""
    answer = "ZeRO-1 shards the gradients."
    facts = Facts.from_file(_edited(tmp_path, FACTS_PATH, lambda d: d["stages"]["zero1"]["shards"].append("gradients")))
    assert [v.id for v in find_vetoes(answer, "q2")] == [S]
    assert find_vetoes(answer, "q2", facts=facts) == []


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["stages"]["zero2"]["shards"].append("bananas"), r"stages\.zero2 names unknown .*bananas"),
        (lambda d: d["stages"]["zero3"]["steps"].append({"collective": "telepathy", "carries": "gradients", "when": "backward"}), "telepathy"),
        (lambda d: d["order"].remove("zero2"), "`order` and `groups` must name the stages"),
    ],
)
def test_a_broken_fact_is_reported(tmp_path: Path, edit: object, message: str) -> None:
    """Is a stage that shards an unknown state or runs an unknown collective, or an order missing a stage, reported?"""
    with pytest.raises(FactsError, match=message):
        Facts.from_file(_edited(tmp_path, FACTS_PATH, edit))


@pytest.mark.parametrize(
    ("pattern", "flags", "leads"),
    [
        ("(?:shard|split)s?", 0, True),
        ("梯度(?!裁剪)|\\bgrads?\\b", re.IGNORECASE, True),
        ("(?<!一)切(?!换)", 0, True),
        ("x?", 0, False),
        ("\\w+ing", 0, False),
        ("[^,]{0,4}ψ", 0, False),
        ("(?<![\\w.])\\d{2,4}\\s*k|长序列", 0, True),
        ("\\s+then\\b|之后", re.IGNORECASE, True),
        ("\\d*ψ|\\w+ing", 0, False),
    ],
)
def test_a_lookahead_leads_only_patterns_whose_first_characters_are_known(pattern: str, flags: int, leads: bool) -> None:
    """Is a first-character lookahead added where a match's first character is one of a known few, and nowhere a match
    could start with anything or be empty?"""
    assert with_fast_start(pattern, flags).pattern.startswith("(?=[") is leads


@pytest.mark.parametrize("text", ["128k 上下文", "١٢٨k context", "１２８k", "long  then", "x\u3000then"])
def test_a_digit_or_space_in_the_lookahead_matches_as_the_pattern_does(text: str) -> None:
    """Does a lookahead that names \\d or \\s admit every digit and space the pattern admits (non-ASCII ones too)?"""
    for pattern in ("\\d+\\s*k", "\\s+then"):
        fast = with_fast_start(pattern)
        assert fast.pattern.startswith("(?=[\\")
        assert [m.span() for m in fast.finditer(text)] == [m.span() for m in re.finditer(pattern, text)]


def test_the_lookahead_changes_no_match() -> None:
    """Does every word class of the cue book find the same matches with its lookahead as without, on the labelled
    sentences of dev and train?"""
    book = cue_book()
    texts = [book.prepare(s.text) for name in ("dev", "train") for row in load_labelled(LABELLED_DIR / f"{name}.jsonl") for s in split_sentences(row["text"])]
    for name, fast in book.words.items():
        lead = fast.pattern.find("])(?:") if fast.pattern.startswith("(?=[") else -1
        plain = re.compile(fast.pattern[lead + 5 : -1] if lead >= 0 else fast.pattern, fast.flags)
        assert [[m.span() for m in plain.finditer(t)] for t in texts] == [[m.span() for m in fast.finditer(t)] for t in texts], name
