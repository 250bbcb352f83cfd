"""Does the course read each of its YAML data files to the same data with libyaml's loader as with PyYAML's own?"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from autograde.yaml_data import SafeLoader, read_yaml

ROOT = Path(__file__).resolve().parents[1]
DATA_FILES = sorted(p for folder in ("autograde", "tests/data", "examples") for p in (ROOT / folder).rglob("*.yaml"))


def test_libyaml_is_used_where_pyyaml_has_it() -> None:
    """Is the fast loader the one the course reads with, when PyYAML was built with libyaml (the pinned wheels are)?"""
    assert yaml.__with_libyaml__ and SafeLoader is yaml.CSafeLoader


@pytest.mark.parametrize("path", DATA_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_data_file_reads_the_same_with_either_loader(path: Path) -> None:
    """The same data, key order included, as yaml.safe_load gives; for a broken file (a test fixture), the same error
    at the same line, which the course's one-line messages quote."""
    try:
        pure = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        with pytest.raises(yaml.YAMLError) as fast_error:
            read_yaml(path)
        assert (fast_error.value.problem, fast_error.value.problem_mark.line) == (error.problem, error.problem_mark.line)
        return
    fast = read_yaml(path)
    assert fast == pure and repr(fast) == repr(pure)
