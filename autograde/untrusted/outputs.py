"""Outputs of student code as a page may show them: text, PNG/JPEG pictures and cleaned tables; nothing that runs.

The sandbox reports outputs as plain JSON the student's process wrote, so every field is checked here, as
JupyterLab and nbviewer treat an untrusted notebook: other MIME types (HTML beyond tables, JavaScript, markdown,
SVG, widgets, LaTeX) and all output metadata are dropped, and a note says what was left out.
"""
from __future__ import annotations

import re
from typing import Any

import nbformat
from nbformat.notebooknode import NotebookNode

from autograde.untrusted.html import clean_html

TRUNCATED = "[output cut: this cell printed more than the output limit]\n"
DROPPED = "[output not shown: {types} (only text, PNG/JPEG pictures and tables are shown to graders)]"
PICTURE_CHARS = 4 << 20
"""Largest base64 picture kept (about 3 MiB of PNG or JPEG)."""
TEXT_CHARS = 1 << 20
"""Longest text field kept (the sandbox's own limit is far lower; this bounds a forged record)."""
TRACEBACK_LINES = 200
_BASE64 = re.compile(r"[A-Za-z0-9+/=\n\r]+\Z")


def _text(value: Any) -> str | None:
    """A text field as nbformat stores it (a string or a list of strings), bounded; None when it is neither."""
    if isinstance(value, list) and all(isinstance(line, str) for line in value):
        value = "".join(value)
    return value[:TEXT_CHARS] if isinstance(value, str) else None


def _picture(value: Any) -> str | None:
    """Base64 picture data, or None when it is not plain base64 within PICTURE_CHARS."""
    text = _text(value)
    return text if text and len(text) <= PICTURE_CHARS and _BASE64.match(text) else None


def inert_bundle(data: Any) -> tuple[dict[str, str], list[str]]:
    """(the MIME bundle a page may show, the MIME types dropped from it)."""
    if not isinstance(data, dict):
        return {}, ["malformed display data"]
    kept: dict[str, str] = {}
    for mime in ("image/png", "image/jpeg"):
        if (picture := _picture(data.get(mime))) is not None:
            kept[mime] = picture
    html = _text(data.get("text/html"))
    if html is not None and "<table" in html.lower():
        kept["text/html"] = clean_html(html, "html_output")
    plain = _text(data.get("text/plain"))
    if plain is not None:
        kept["text/plain"] = plain
    dropped = sorted(str(mime)[:60] for mime in data if mime not in kept)
    return kept, dropped


def inert_output(raw: Any) -> NotebookNode | None:
    """One output as a page may show it; None for anything that is not an output."""
    if not isinstance(raw, dict):
        return None
    kind = raw.get("output_type")
    if kind == "stream" and raw.get("name") == "truncated":
        return nbformat.v4.new_output("stream", name="stderr", text=TRUNCATED)
    if kind == "stream" and raw.get("name") in ("stdout", "stderr") and (text := _text(raw.get("text"))) is not None:
        return nbformat.v4.new_output("stream", name=raw["name"], text=text)
    if kind == "error":
        traceback = raw.get("traceback") if isinstance(raw.get("traceback"), list) else []
        return nbformat.v4.new_output("error", ename=(_text(raw.get("ename")) or "")[:200],
                                      evalue=_text(raw.get("evalue")) or "",
                                      traceback=[line for line in map(_text, traceback[:TRACEBACK_LINES]) if line is not None])
    if kind in ("display_data", "execute_result"):
        data, dropped = inert_bundle(raw.get("data"))
        if dropped and "text/plain" not in data:
            data["text/plain"] = DROPPED.format(types=", ".join(dropped))
        output = nbformat.v4.new_output(kind, data=data, metadata={})
        if kind == "execute_result":
            count = raw.get("execution_count")
            output.execution_count = count if type(count) is int else None
        return output
    return None


def inert_outputs(outputs: Any) -> list[NotebookNode]:
    """Every output of a cell as a page may show it, the rest left out."""
    if not isinstance(outputs, list):
        return []
    return [output for output in map(inert_output, outputs) if output is not None]
