"""Turn Quarto markdown into Jupyter markdown: cross-references, callouts, diagrams and images."""
from __future__ import annotations

import base64
import mimetypes
import re
from dataclasses import dataclass, field
from pathlib import Path

from autograde.building.diagrams import committed_diagram
from autograde.building.lesson_source import CodeCell, Div, Lesson, Markdown

CROSSREF = re.compile(r"@(?P<label>(?P<kind>fig|tbl)-[\w-]+)")
IMAGE = re.compile(r"!\[(?P<caption>[^\]]*)\]\((?P<path>[^)\s]+)\)(?:\{(?P<attrs>[^}]*)\})?")
LABEL_IN_ATTRS = re.compile(r"#(?P<label>(?:fig|tbl)-[\w-]+)")
KIND_NAMES = {"fig": "图", "tbl": "表"}


@dataclass
class CrossrefNumbering:
    """Numbers for every `fig-`/`tbl-` label, in document order, as Quarto assigns them."""

    numbers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_lesson(cls, lesson: Lesson) -> CrossrefNumbering:
        """Collect labels from cell options and image attributes."""
        labels: list[str] = []
        for block, _ in lesson.walk():
            if isinstance(block, CodeCell) and str(block.options.get("label", "")).startswith(("fig-", "tbl-")):
                labels.append(block.options["label"])
            elif isinstance(block, Markdown):
                for image in IMAGE.finditer(block.text):
                    label = LABEL_IN_ATTRS.search(image["attrs"] or "")
                    if label:
                        labels.append(label["label"])
        counters = {kind: 0 for kind in KIND_NAMES}
        numbering = cls()
        for label in labels:
            kind = label.split("-", 1)[0]
            counters[kind] += 1
            numbering.numbers[label] = f"{KIND_NAMES[kind]} {counters[kind]}"
        return numbering

    def name(self, label: str) -> str:
        """'图 2' for a known label; the label itself otherwise."""
        return self.numbers.get(label, label)

    def resolve(self, text: str) -> str:
        """Replace every @fig-…/@tbl-… reference with its number."""
        return CROSSREF.sub(lambda match: self.name(match["label"]), text)


def caption_line(numbering: CrossrefNumbering, label: str | None, caption: str) -> str:
    """An italic caption line like Quarto's: '*图 1：caption*'."""
    prefix = f"{numbering.name(label)}：" if label else ""
    return f"*{prefix}{caption}*"


def data_url(mime: str, data: bytes) -> str:
    """A data: URL; JupyterLab shows an SVG in an untrusted notebook this way, but not as a cell attachment."""
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def inline_images(text: str, base: Path, numbering: CrossrefNumbering) -> str:
    """Inline local images as data: URLs, with their numbered caption below."""

    def replace(match: re.Match[str]) -> str:
        path = base / match["path"]
        mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        label = LABEL_IN_ATTRS.search(match["attrs"] or "")
        caption = caption_line(numbering, label["label"] if label else None, match["caption"])
        return f"![{match['caption']}]({data_url(mime, path.read_bytes())})\n\n{caption}"

    return IMAGE.sub(replace, text)


def callout_markdown(div: Div, body: str) -> str:
    """A Quarto callout as a blockquote with its title in bold."""
    title = div.attributes.get("title")
    lines = ([f"**{title}**", ""] if title else []) + body.strip().splitlines()
    return "\n".join(f"> {line}".rstrip() for line in lines) + "\n"


def mermaid_markdown(cell: CodeCell, lesson_dir: Path) -> str:
    """A {mermaid} cell as an image of its committed SVG (see diagrams.py), labelled so inline_images captions it."""
    path = committed_diagram(cell, lesson_dir).relative_to(lesson_dir)
    return f"![{cell.options.get('fig-cap', '')}]({path.as_posix()}){{#{cell.options['label']}}}\n"
