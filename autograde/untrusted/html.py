"""Allow-list cleaning (nh3) of HTML made from student content, before any page shows it; rules in allowlist.yaml."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import nh3
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from autograde.yaml_data import read_yaml

ALLOWLIST_PATH = Path(__file__).with_name("allowlist.yaml")
MARKDOWN_CHARS = 200_000
"""Longest markdown cell rendered; the rest is cut with a note, so one answer cannot stall a page."""
CUT_NOTE = "\n\n*[cut: this cell is longer than {limit} characters]*"
_DATA_URL = re.compile(r"data:(?P<type>[\w.+-]+/[\w.+-]+);base64,[A-Za-z0-9+/=\s]*\Z")


@dataclass(frozen=True)
class AllowList:
    """One page context's rules: the tags and attributes it keeps."""

    tags: frozenset[str]
    attributes: dict[str, set[str]]


@dataclass(frozen=True)
class Rules:
    """Everything allowlist.yaml declares."""

    contexts: dict[str, AllowList]
    drop_with_content: frozenset[str]
    link_schemes: frozenset[str]
    image_data_types: frozenset[str]
    id_prefix: str
    class_token: re.Pattern[str]


@cache
def rules() -> Rules:
    """The allow-lists, read once."""
    raw: dict[str, Any] = read_yaml(ALLOWLIST_PATH)
    contexts = {name: AllowList(frozenset(raw[name]["tags"]), {tag: set(names) for tag, names in raw[name]["attributes"].items()})
                for name in ("markdown", "html_output")}
    return Rules(contexts, frozenset(raw["drop_with_content"]), frozenset(raw["link_schemes"]),
                 frozenset(raw["image_data_types"]), raw["id_prefix"], re.compile(raw["class_token"]))


def _kept_value(tag: str, attribute: str, value: str) -> str | None:
    """nh3's attribute filter: the value a page may keep, or None to drop the attribute."""
    found = rules()
    if attribute == "href":
        if value.startswith("#"):
            return "#" + found.id_prefix + value[1:]
        return value if urlsplit(value.strip()).scheme.lower() in found.link_schemes else None
    if attribute == "src":
        match = _DATA_URL.match(value.strip())
        return value if match and match["type"].lower() in found.image_data_types else None
    if attribute == "class":
        tokens = [token for token in value.split() if found.class_token.match(token)]
        return " ".join(tokens) or None
    if attribute in ("width", "height", "colspan", "rowspan", "start"):
        return value if value.strip().isdigit() and len(value.strip()) <= 5 else None
    return value


def clean_html(html: str, context: str = "markdown") -> str:
    """`html` with only what the `context` allow-list keeps: no script, handler, style, frame, form or fetched URL."""
    found = rules()
    allowed = found.contexts[context]
    return nh3.clean(
        html,
        tags=set(allowed.tags),
        clean_content_tags=set(found.drop_with_content - allowed.tags),
        attributes=allowed.attributes,
        attribute_filter=_kept_value,
        url_schemes=set(found.link_schemes) | {"data"},
        link_rel="noopener noreferrer nofollow",
        strip_comments=True,
        id_prefix=found.id_prefix,
    )


def clean_markdown_html(html: Any) -> Markup:
    """nbconvert's `clean_html` filter (rendered markdown, HTML outputs) with the markdown allow-list."""
    text = html.decode("utf-8", "replace") if isinstance(html, bytes) else str(html)
    return Markup(clean_html(text, "markdown"))


def bounded_markdown(source: str) -> str:
    """The markdown a page renders: at most MARKDOWN_CHARS characters, with a note where it was cut."""
    if len(source) <= MARKDOWN_CHARS:
        return source
    return source[:MARKDOWN_CHARS] + CUT_NOTE.format(limit=MARKDOWN_CHARS)


def markdown_to_html(source: str, attachments: dict[str, Any] | None = None) -> str:
    """Markdown (with $math$ left for the page's KaTeX) rendered as nbconvert does, then cleaned."""
    from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath

    renderer = IPythonRenderer(escape=False, attachments=attachments or {}, anchor_link_text="¶")
    return clean_html(MarkdownWithMath(renderer=renderer).render(bounded_markdown(source)), "markdown")


@pass_context
def markdown2html(context: Context, source: str) -> Markup:
    """nbconvert's `markdown2html` filter, cleaned (registered in grader_config.py for formgrader and feedback pages)."""
    cell = context.get("cell", {}) or {}
    return Markup(markdown_to_html(source, cell.get("attachments", {})))
