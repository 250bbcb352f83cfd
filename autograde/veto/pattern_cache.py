"""The cue book's compiled regexes kept between processes, as Python keeps bytecode beside its sources.

Python's regex compiler is pure Python: the cue book's few hundred patterns take about a second to compile, which
every grading worker would pay before its first result. The compiled form (what re's compiler hands to `_sre`) is
saved once in __pycache__ and read back in milliseconds. The file is as trusted as the .pyc files beside it; it is
named for this Python's cache tag and regex engine, checked against this module's and first_chars.py's source, and a
file that does not load or does not fit is ignored (the patterns are compiled again and the file rewritten).
"""
from __future__ import annotations

import _sre  # the regex engine's constructor, which re._compiler.compile calls last
import hashlib
import marshal
import os
import re
import re._compiler as sre_compile
import re._parser as sre_parse
import sys
import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

CACHE_DIR = Path(__file__).with_name("__pycache__")
CACHE_NAME = f"cue-patterns.{sys.implementation.cache_tag}.sre{_sre.MAGIC}.marshal"
RULES = (Path(__file__), Path(__file__).with_name("first_chars.py"))
"""The sources that decide what a cached entry holds: a change to either retires the file."""

Entry = tuple[str, int, list[int], int, dict[str, int], tuple[str | None, ...]]
"""_sre.compile's arguments: the pattern as compiled, flags, code, groups - 1, groupindex, indexgroup."""


def _engine_arguments(pattern: str, flags: int) -> Entry:
    """What re._compiler.compile hands the engine for `pattern` (re.error when it does not compile)."""
    parsed = sre_parse.parse(pattern, flags)
    code = sre_compile._code(parsed, flags)
    groupindex = dict(parsed.state.groupdict)
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return (pattern, int(flags | parsed.state.flags), [int(op) for op in code], parsed.state.groups - 1, groupindex,
            tuple(indexgroup))


class PatternCache:
    """Compiled patterns by (source pattern, flags), loaded from and saved to one file."""

    def __init__(self, folder: Path = CACHE_DIR) -> None:
        self.path = folder / CACHE_NAME
        self.rules = hashlib.sha256(b"".join(path.read_bytes() for path in RULES)).hexdigest()
        self.stored = self._load()
        self.used: dict[tuple[str, int], Entry] = {}
        self.compiled = 0
        """Patterns compiled in this process (not found in the file)."""

    def compile(self, pattern: str, flags: int = 0, rewrite: Callable[[str, int], str] | None = None) -> re.Pattern[str]:
        """`pattern` (or what `rewrite` makes of it) compiled, from the file when it is there."""
        key = (pattern, int(flags))
        entry = self.stored.get(key)
        compiled = _from_entry(entry) if entry is not None else None
        if compiled is None:
            entry = _engine_arguments(rewrite(pattern, flags) if rewrite else pattern, flags)
            compiled = _from_entry(entry)
            self.compiled += 1
            if compiled is None:  # this engine refuses what its own compiler made: compile the ordinary way
                return re.compile(entry[0], flags)
        self.used[key] = entry
        return compiled

    def save(self) -> None:
        """Write the patterns used in this process when some were compiled here; quietly not where the folder is not
        writable (each process then compiles them, as without the file)."""
        if not self.compiled:
            return
        try:
            self.path.parent.mkdir(exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=self.path.parent, prefix=".cue-patterns-", delete=False) as partial:
                partial.write(marshal.dumps({"rules": self.rules, "entries": self.used}))
            os.replace(partial.name, self.path)  # whole or not at all: several workers may save at once
        except OSError:
            return

    def _load(self) -> dict[tuple[str, int], Entry]:
        """The file's entries when it was written by these rules; empty otherwise."""
        try:
            data = marshal.loads(self.path.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            return {}
        if not isinstance(data, dict) or data.get("rules") != self.rules or not isinstance(data.get("entries"), dict):
            return {}
        return data["entries"]


def _from_entry(entry: Any) -> re.Pattern[str] | None:
    """The engine's pattern built from cached arguments; None when they do not fit (the engine validates the code)."""
    try:
        pattern, flags, code, groups, groupindex, indexgroup = entry
        return _sre.compile(pattern, flags, code, groups, groupindex, indexgroup)
    except (TypeError, ValueError, RuntimeError, OverflowError):
        return None


@cache
def shared_cache() -> PatternCache:
    """This process's pattern cache, read from __pycache__ on first use."""
    return PatternCache()
