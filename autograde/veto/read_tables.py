"""Read a markdown table of what each stage shards as the sentences its rows stand for: under "| 阶段 | 参数 | 梯度 |",
the row "| ZeRO-2 | 1/N_d | 全量 |" reads "ZeRO-2 切分参数。ZeRO-2 每卡完整保存梯度。" (stages by row or by column); under
"| 阶段 | 切分对象 |", the row "| ZeRO-2 | 梯度 + 优化器状态 |" reads "ZeRO-2 只切分梯度、优化器状态。"."""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from autograde.veto.normalize import normalize
from autograde.veto.sentences import Sentence

_ROW = re.compile(r"^[ \t]*\|(?P<cells>.*)\|[ \t]*$", re.MULTILINE)
_DIVIDER_CELL = re.compile(r"^\s*:?-{2,}:?\s*$")
_STAGE_TAG = re.compile(r"⟨(zero[123])⟩")
_STAGE_NUMBER = re.compile(r"^\s*([123])\s*$")
MODEL_STATES = frozenset({"parameters", "gradients", "optimizer"})
"""With a column for each of these, a row says the whole set its stage shards ("只切分")."""
STATE_CLASSES = ("parameters", "gradients", "optimizer", "activations")


@dataclass(frozen=True)
class TableRow:
    """One stage's line of a sharding table, and what it says in words."""

    start: int
    end: int
    """Where the row (or, for stages by column, the table) is in the answer."""
    reading: str


class TableReader:
    """Turns sharding tables into sentences, with the cue book's stage tagger and state words."""

    def __init__(self, cues: Mapping[str, Any], prepare: Callable[[str], str], word: Callable[[str], re.Pattern[str]]) -> None:
        self._sharded = re.compile(cues["sharded_cell"], re.IGNORECASE)
        self._whole = re.compile(cues["whole_cell"], re.IGNORECASE)
        self._stage_column = re.compile(cues["stage_column"], re.IGNORECASE)
        self._set_column = re.compile(cues["set_column"], re.IGNORECASE)
        self._forms = {key: cues[key] for key in ("exact", "sharded", "whole")}
        self._words = cues["state_words"]
        self._prepare = prepare
        self._word = word

    def rows(self, answer: str) -> list[TableRow]:
        """Every stage's reading in the sharding tables of `answer`."""
        found: list[TableRow] = []
        for table in _tables(answer):
            grid = [cells for _, _, cells in table]
            columns = [self._state(cell) for cell in grid[0]]
            if sum(state is not None for state in columns) >= 2:  # stages by row, states by column
                numbered = bool(grid[0]) and bool(self._stage_column.search(normalize(grid[0][0])))
                for start, end, cells in table[1:]:
                    named = self._numbered(cells[0]) if cells and numbered else None
                    stage = named or (self._stage(cells[0]) if cells else None)
                    states = {columns[i]: cell for i, cell in enumerate(cells) if i < len(columns) and columns[i]}
                    if stage:
                        found += self._reading(start, end, f"ZeRO-{stage[-1]}" if named else cells[0].strip(), stage, states)
                continue
            sets = [i for i, cell in enumerate(grid[0]) if i and self._set_column.search(normalize(cell))]
            if sets:  # stages by row, one column listing what each shards
                for start, end, cells in table[1:]:
                    stage = self._stage(cells[0]) if cells else None
                    named = [s for s in STATE_CLASSES if sets[0] < len(cells) and self._word(s).search(normalize(cells[sets[0]]).lower())]
                    if stage and named:
                        words = {"stage": cells[0].strip(), "sharded": "、".join(self._words[s] for s in named)}
                        found.append(TableRow(start, end, self._forms["exact"].format(**words)))
                continue
            states_by_row = [self._state(cells[0]) if cells else None for cells in grid[1:]]
            if sum(state is not None for state in states_by_row) >= 2:  # stages by column
                for index, head in enumerate(grid[0][1:], start=1):
                    stage = self._stage(head)
                    states = {state: row[index] for state, row in zip(states_by_row, grid[1:]) if state and index < len(row)}
                    if stage:
                        found += self._reading(table[0][0], table[-1][1], head.strip(), stage, states)
        return found

    def read_into(self, answer: str, sentences: list[Sentence]) -> list[Sentence]:
        """`sentences` with each row of a sharding table (each table, for stages by column) replaced by its reading."""
        rows = self.rows(answer)
        if not rows:
            return sentences
        kept = [s for s in sentences if not any(row.start <= s.start < row.end for row in rows)]
        read = [Sentence(row.reading, row.start, row.end) for row in rows]
        return sorted(kept + read, key=lambda sentence: sentence.start)

    def _reading(self, start: int, end: int, name: str, stage: str, cells: Mapping[str, str]) -> list[TableRow]:
        """The sentences one stage's cells stand for."""
        sharded = [s for s in STATE_CLASSES if s in cells and self._sharded.search(normalize(cells[s]))]
        whole = [s for s in STATE_CLASSES if s in cells and s not in sharded and self._whole.search(normalize(cells[s]))]
        words = {"stage": name, "sharded": "、".join(self._words[s] for s in sharded), "whole": "、".join(self._words[s] for s in whole)}
        said = []
        if sharded:
            exact = MODEL_STATES <= {s for s in cells if s in sharded or s in whole}
            said.append(self._forms["exact" if exact else "sharded"].format(**words))
        if whole:
            said.append(self._forms["whole"].format(**words))
        return [TableRow(start, end, "".join(said))] if said else []

    def _state(self, cell: str) -> str | None:
        """The state a header cell names, when it names exactly one."""
        named = [s for s in STATE_CLASSES if self._word(s).search(normalize(cell).lower())]
        return named[0] if len(named) == 1 else None

    @staticmethod
    def _numbered(cell: str) -> str | None:
        """The stage a bare number names under a stage column ("| 2 |" under "| stage |"); stage 0 is no ZeRO stage."""
        number = _STAGE_NUMBER.match(cell)
        return f"zero{number.group(1)}" if number else None

    def _stage(self, cell: str) -> str | None:
        """The ZeRO stage a cell names, when it names exactly one."""
        tags = set(_STAGE_TAG.findall(self._prepare(cell)))
        return tags.pop() if len(tags) == 1 else None


def _tables(answer: str) -> list[list[tuple[int, int, list[str]]]]:
    """Each markdown table of `answer`: its rows (start, end, cells), the divider row left out."""
    tables: list[list[tuple[int, int, list[str]]]] = []
    previous_end = -2
    for row in _ROW.finditer(answer):
        cells = row.group("cells").split("|")
        if all(_DIVIDER_CELL.match(cell) for cell in cells):
            previous_end = row.end()
            continue
        if row.start() > previous_end + 1 or not tables:
            tables.append([])
        tables[-1].append((row.start(), row.end(), cells))
        previous_end = row.end()
    return [table for table in tables if len(table) >= 2]
