"""Read a Quarto lesson (.qmd) into blocks: markdown, code cells and fenced divs."""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from autograde.yaml_data import load_yaml

FENCE_OPEN = re.compile(r"^(?P<ticks>`{3,})\{(?P<lang>[A-Za-z0-9_-]+)[^}]*\}\s*$")
DIV_OPEN = re.compile(r"^(?P<colons>:{3,})\s*\{(?P<attrs>[^}]*)\}\s*$")
DIV_CLOSE = re.compile(r"^:{3,}\s*$")
INCLUDE = re.compile(r"^\{\{<\s*include\s+(?P<path>\S+)\s*>\}\}\s*$")
OPTION_PREFIX = {"python": "#|", "mermaid": "%%|"}
ATTR = re.compile(r'(?P<key>[\w-]+)="(?P<value>[^"]*)"|\.(?P<cls>[\w-]+)|#(?P<id>[\w-]+)')
CODE_SPAN = re.compile(r"```.*?```|`[^`\n]*`", re.DOTALL)
MATH = re.compile(r"\$\$(?P<display>.+?)\$\$|\$(?P<inline>[^\s$](?:[^$]*?[^\s$])?)\$(?!\d)", re.DOTALL)


class LessonSourceError(ValueError):
    """A lesson file that cannot be read into blocks."""


@dataclass
class Markdown:
    """A run of markdown lines between other blocks."""

    text: str


@dataclass
class CodeCell:
    """An executable Quarto cell (```{python}``` or ```{mermaid}```)."""

    lang: str
    options: dict[str, Any]
    source: str
    """The cell body without its `#|` option lines."""

    @property
    def role(self) -> str | None:
        """The `course_role` option, if any."""
        return self.options.get("course_role")


@dataclass
class Div:
    """A fenced div (`::: {.class key="value"}`) and the blocks inside it."""

    classes: list[str]
    attributes: dict[str, str]
    children: list[Block] = field(default_factory=list)

    @property
    def answer_only(self) -> bool:
        """Whether Quarto shows this div only under the `answer` profile."""
        return "content-visible" in self.classes and self.attributes.get("when-profile") == "answer"


Block = Markdown | CodeCell | Div


@dataclass
class Lesson:
    """A parsed lesson: its front matter and its top-level blocks."""

    path: Path
    front_matter: dict[str, Any]
    blocks: list[Block]

    def walk(self, answer_only: bool = False) -> Iterator[tuple[Block, bool]]:
        """Yield every block depth-first with whether it sits inside answer-only content."""
        yield from _walk(self.blocks, answer_only)

    def code_cells(self, role: str | None = None) -> list[CodeCell]:
        """Code cells in document order, optionally only those with a given course_role."""
        return [b for b, _ in self.walk() if isinstance(b, CodeCell) and (role is None or b.role == role)]

    def only_cell(self, role: str) -> CodeCell:
        """The single code cell with this course_role; an error naming the file otherwise."""
        cells = self.code_cells(role)
        if len(cells) != 1:
            raise LessonSourceError(f"{self.path}: expected exactly one cell with course_role '{role}', found {len(cells)}")
        return cells[0]


def _walk(blocks: list[Block], inside_answer: bool) -> Iterator[tuple[Block, bool]]:
    for block in blocks:
        yield block, inside_answer
        if isinstance(block, Div):
            yield from _walk(block.children, inside_answer or block.answer_only)


def math_formulas(markdown: str) -> list[tuple[str, bool]]:
    """Every TeX formula in markdown as (tex, is_display), in order, code left out as pandoc does."""
    return [(match["display"], True) if match["display"] is not None else (match["inline"], False)
            for match in MATH.finditer(CODE_SPAN.sub("", markdown))]


def parse_attributes(text: str) -> tuple[list[str], dict[str, str]]:
    """Split a Pandoc attribute string into classes and key/value pairs (ids become `id`)."""
    classes: list[str] = []
    attributes: dict[str, str] = {}
    for match in ATTR.finditer(text):
        if match["cls"]:
            classes.append(match["cls"])
        elif match["id"]:
            attributes["id"] = match["id"]
        else:
            attributes[match["key"]] = match["value"]
    return classes, attributes


def expand_includes(text: str, base: Path) -> str:
    """Replace `{{< include file >}}` lines with the file's text, as Quarto does."""
    lines = []
    for line in text.splitlines(keepends=True):
        match = INCLUDE.match(line.strip())
        if not match:
            lines.append(line)
            continue
        included = base / match["path"]
        if not included.exists():
            raise LessonSourceError(f"{base}: include target {match['path']} does not exist")
        body = included.read_text(encoding="utf-8")
        lines.append(expand_includes(body if body.endswith("\n") else body + "\n", included.parent))
    return "".join(lines)


def _split_options(lang: str, body: list[str], where: str) -> tuple[dict[str, Any], str]:
    prefix = OPTION_PREFIX.get(lang)
    option_lines: list[str] = []
    index = 0
    while prefix and index < len(body) and body[index].startswith(prefix):
        option_lines.append(body[index][len(prefix):].strip())
        index += 1
    try:
        options = load_yaml("\n".join(option_lines)) if option_lines else {}
    except yaml.YAMLError as error:
        raise LessonSourceError(f"{where}: cell options are not valid YAML ({error.problem})") from None
    return options or {}, "".join(body[index:])


def parse_blocks(lines: list[str], where: str) -> list[Block]:
    """Parse lines (with line ends) into nested blocks."""
    root: list[Block] = []
    stack: list[tuple[Div, int]] = []
    markdown: list[str] = []

    def current() -> list[Block]:
        return stack[-1][0].children if stack else root

    def flush() -> None:
        if "".join(markdown).strip():
            current().append(Markdown("".join(markdown)))
        markdown.clear()

    index = 0
    while index < len(lines):
        line = lines[index]
        stripped = line.rstrip("\n")
        fence = FENCE_OPEN.match(stripped)
        if fence:
            flush()
            end = index + 1
            while end < len(lines) and lines[end].rstrip("\n") != fence["ticks"]:
                end += 1
            if end == len(lines):
                raise LessonSourceError(f"{where}: line {index + 1}: code cell is never closed")
            options, source = _split_options(fence["lang"], lines[index + 1:end], f"{where}: line {index + 1}")
            current().append(CodeCell(fence["lang"], options, source))
            index = end + 1
            continue
        if stripped.startswith("```"):
            # a plain (non-executed) code block: keep it verbatim as markdown
            end = index + 1
            while end < len(lines) and not lines[end].rstrip("\n").startswith("```"):
                end += 1
            markdown.extend(lines[index:end + 1])
            index = end + 1
            continue
        div = DIV_OPEN.match(stripped)
        if div:
            flush()
            classes, attributes = parse_attributes(div["attrs"])
            node = Div(classes, attributes)
            current().append(node)
            stack.append((node, index + 1))
        elif DIV_CLOSE.match(stripped):
            flush()
            if not stack:
                raise LessonSourceError(f"{where}: line {index + 1}: ':::' closes a div that was never opened")
            stack.pop()
        else:
            markdown.append(line)
        index += 1
    flush()
    if stack:
        raise LessonSourceError(f"{where}: line {stack[-1][1]}: div is never closed")
    return root


def read_lesson(path: str | Path) -> Lesson:
    """Parse a .qmd file (includes expanded) into a Lesson."""
    path = Path(path)
    if not path.exists():
        raise LessonSourceError(f"{path}: lesson file not found; run from the repository root")
    text = expand_includes(path.read_text(encoding="utf-8"), path.parent)
    front_matter: dict[str, Any] = {}
    if text.startswith("---\n"):
        end = text.index("\n---\n", 4)
        front_matter = load_yaml(text[4:end]) or {}
        text = text[end + 5:]
    return Lesson(path, front_matter, parse_blocks(text.splitlines(keepends=True), str(path)))


def solution_namespace(path: str | Path) -> dict[str, Any]:
    """Execute the lesson's solution cell (without its `__main__` block) and return its names."""
    lesson = read_lesson(path)
    namespace: dict[str, Any] = {"__name__": "lesson_solution"}
    exec(compile(lesson.only_cell("solution").source, f"{path}:solution", "exec"), namespace)
    return {name: value for name, value in namespace.items() if not name.startswith("__")}
