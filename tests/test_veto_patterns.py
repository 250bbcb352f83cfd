"""Does patterns.yaml load, and does a broken pattern fail with a message a course author can act on?"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from autograde.veto.finding import VETO_IDS
from autograde.veto.patterns import (
    PATTERNS_PATH,
    PatternBook,
    PatternError,
    pattern_book,
)
from autograde.veto.text import find_vetoes


def test_every_veto_id_has_frames() -> None:
    """Does every veto in the catalogue have at least one frame?"""
    assert {f.veto_id for f in pattern_book().frames} == set(VETO_IDS)


def test_frame_names_are_unique() -> None:
    """Are frame names unique, so that a finding's pattern names one frame?"""
    names = [f.name for f in pattern_book().frames]
    assert len(names) == len(set(names))


def _broken_book(tmp_path: Path, **frame_fields: object) -> Path:
    """A copy of patterns.yaml with one extra frame made of `frame_fields`."""
    data = yaml.safe_load(PATTERNS_PATH.read_text(encoding="utf-8"))
    data["vetoes"].setdefault(str(frame_fields.pop("veto_id", "wrong-shard-target")), []).append(
        {"name": "broken", **frame_fields}
    )
    path = tmp_path / "patterns.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"predicate": "{no_such_term}"}, "unknown term {no_such_term}"),
        ({"predicate": "(unclosed"}, "frame 'broken': field 'predicate' is not a valid regex"),
        ({"veto_id": "no-such-veto", "predicate": "x"}, "unknown veto id"),
        ({}, "give exactly one of `predicate`, `quantity`, `ledger` or `memory_formula`"),
        ({"ledger": "vibes"}, "`ledger` must be one of part, sum, all-reduce"),
    ],
)
def test_broken_pattern_is_reported(tmp_path: Path, fields: dict[str, object], message: str) -> None:
    """Is a malformed frame reported with the frame and the field at fault?"""
    with pytest.raises(PatternError, match=message.replace("{", r"\{").replace("(", r"\(")):
        PatternBook.from_file(_broken_book(tmp_path, **fields))


def test_a_new_frame_needs_no_code(tmp_path: Path) -> None:
    """Can a course author add a veto pattern in YAML alone?"""
    path = _broken_book(tmp_path, predicate="{shard}", subject=["zero1"], object="\\bbananas\\b")
    book = PatternBook.from_file(path)
    [veto] = find_vetoes("ZeRO-1 shards the bananas.", "q2", book=book)
    assert (veto.id, veto.detail) == ("wrong-shard-target", {"pattern": "broken"})
    assert find_vetoes("ZeRO-1 shards the bananas.", "q2") == []


def test_a_sharding_table_with_an_unknown_state_is_reported(tmp_path: Path) -> None:
    """Is a stage row of the sharding table that names an unknown state reported with the stage?"""
    data = yaml.safe_load(PATTERNS_PATH.read_text(encoding="utf-8"))
    data["sharding"]["stages"]["zero2"]["bananas"] = True
    path = tmp_path / "patterns.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(PatternError, match=r"sharding\.stages\.zero2 .* unknown states \['bananas'\]"):
        PatternBook.from_file(path)
