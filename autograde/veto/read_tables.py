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
    readings: tuple[str, ...]
    """The sentences it stands for, one per thing it says."""


class TableReader:
    """Turns sharding tables into sentences, with the cue book's stage tagger and state words."""

    def __init__(self, cues: Mapping[str, Any], prepare: Callable[[str], str], word: Callable[[str], re.Pattern[str]]) -> None:
        self._sharded = re.compile(cues["sharded_cell"], re.IGNORECASE)
        self._whole = re.compile(cues["whole_cell"], re.IGNORECASE)
        self._stage_column = re.compile(cues["stage_column"], re.IGNORECASE)
        self._set_column = re.compile(cues["set_column"], re.IGNORECASE)
        self._forms = {key: cues[key] for key in ("exact", "sharded", "whole", "column")}
        self._words = cues["state_words"]
        self._prepare = prepare
        self._word = word

    def rows(self, answer: str) -> list[TableRow]:
        """Every stage's reading in the tables of `answer`: what it shards, and what each other column says of it."""
        found: list[TableRow] = []
        for table in _tables(answer):
            grid = [cells for _, _, cells in table]
            columns = [self._state(cell) for cell in grid[0]]
            states_by_row = [self._state(cells[0]) if cells else None for cells in grid[1:]]
            if sum(state is not None for state in columns) < 2 and sum(state is not None for state in states_by_row) >= 2:
                for index, head in enumerate(grid[0][1:], start=1):  # stages by column
                    stage = self._stage(head)
                    states = {state: row[index] for state, row in zip(states_by_row, grid[1:]) if state and index < len(row)}
                    said = self._sharding(head.strip(), states) if stage else []
                    if said:
                        found.append(TableRow(table[0][0], table[-1][1], tuple(said)))
                continue
            found += self._stage_rows(table, columns)
        return found

    def _stage_rows(self, table: list[tuple[int, int, list[str]]], columns: list[str | None]) -> list[TableRow]:
        """The readings of a table with a stage in each row's first cell (`columns`: the state each header cell names):
        its state columns or the column listing what it shards, then each other column as "<stage> 的 <header> 为
        <cell>。" ("ZeRO-2 的 每步通信量 为 3Ψ。")."""
        header = table[0][2]
        by_state = sum(state is not None for state in columns) >= 2
        sets = [i for i, cell in enumerate(header) if i and self._set_column.search(normalize(cell))]
        numbered = bool(header) and bool(self._stage_column.search(normalize(header[0])))
        read = {i for i, state in enumerate(columns) if state} if by_state else set(sets[:1])
        found = []
        for start, end, cells in table[1:]:
            named = self._numbered(cells[0]) if cells and numbered else None
            stage = named or (self._stage(cells[0]) if cells else None)
            if not stage:
                continue
            name = f"ZeRO-{stage[-1]}" if named else cells[0].strip()
            said = []
            if by_state:
                said = self._sharding(name, {columns[i]: cell for i, cell in enumerate(cells) if i < len(columns) and columns[i]})
            elif sets and sets[0] < len(cells):
                listed = [s for s in STATE_CLASSES if self._word(s).search(normalize(cells[sets[0]]).lower())]
                said = [self._forms["exact"].format(stage=name, sharded="、".join(self._words[s] for s in listed))] if listed else []
            said += [
                self._forms["column"].format(stage=name, header=header[i].strip(), cell=cell.strip())
                for i, cell in enumerate(cells)
                if 0 < i < len(header) and i not in read and cell.strip() and header[i].strip()
            ]
            if said:
                found.append(TableRow(start, end, tuple(said)))
        return found

    def read_into(self, answer: str, sentences: list[Sentence]) -> list[Sentence]:
        """`sentences` with each stage's row of a table (each table, for stages by column) replaced by its reading, one
        sentence per thing it says."""
        rows = self.rows(answer)
        if not rows:
            return sentences
        kept = [s for s in sentences if not any(row.start <= s.start < row.end for row in rows)]
        read = [Sentence(said, row.start, row.end) for row in rows for said in row.readings]
        return sorted(kept + read, key=lambda sentence: sentence.start)

    def _sharding(self, name: str, cells: Mapping[str, str]) -> list[str]:
        """The sentences one stage's state cells stand for."""
        sharded = [s for s in STATE_CLASSES if s in cells and self._sharded.search(normalize(cells[s]))]
        whole = [s for s in STATE_CLASSES if s in cells and s not in sharded and self._whole.search(normalize(cells[s]))]
        words = {"stage": name, "sharded": "、".join(self._words[s] for s in sharded), "whole": "、".join(self._words[s] for s in whole)}
        said = []
        if sharded:
            exact = MODEL_STATES <= {s for s in cells if s in sharded or s in whole}
            said.append(self._forms["exact" if exact else "sharded"].format(**words))
        if whole:
            said.append(self._forms["whole"].format(**words))
        return said

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
