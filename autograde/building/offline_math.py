"""Math for notebook HTML with no network: the course's KaTeX copy, inlined into formgrader and feedback pages.

nbconvert's templates load MathJax from a CDN, and formgrader's script breaks when it never arrives. The template
folder NOTEBOOK_TEMPLATES (set as `HTMLExporter.extra_template_basedirs` in grader_config.py) swaps that macro for
`offline_math`: KaTeX's script, its stylesheet with the fonts as data URLs, and a typesetter that also stands in
for the bit of MathJax formgrader calls. Pages carry everything, so feedback opened from disk renders too.
"""
from __future__ import annotations

import base64
import functools
import re
from pathlib import Path

from markupsafe import Markup

from autograde.assignment_spec import REPO_ROOT
from autograde.untrusted.csp import NOTEBOOK_PAGE, meta_tag, policy

KATEX_DIR = REPO_ROOT / "lessons" / "assets" / "katex"
NOTEBOOK_TEMPLATES = Path(__file__).with_name("notebook_html")
"""nbconvert template base folder whose base/mathjax.html.j2 replaces nbconvert's MathJax macro."""
TYPESETTER = Path(__file__).with_name("offline_math.js")
WOFF2_URL = re.compile(r"url\(fonts/(?P<name>[\w-]+\.woff2)\)")
OTHER_FONT_FORMATS = re.compile(r',url\(fonts/[\w-]+\.(?:woff|ttf)\) format\("(?:woff|truetype)"\)')
"""The .woff/.ttf fallbacks the stylesheet names: every browser that runs KaTeX takes the WOFF2 first."""


def katex_stylesheet(katex_dir: Path = KATEX_DIR) -> str:
    """katex.min.css with each WOFF2 font inlined as a data URL and the other formats dropped."""
    css = OTHER_FONT_FORMATS.sub("", (katex_dir / "katex.min.css").read_text(encoding="utf-8"))

    def inline(match: re.Match[str]) -> str:
        data = base64.b64encode((katex_dir / "fonts" / match["name"]).read_bytes()).decode("ascii")
        return f"url(data:font/woff2;base64,{data})"

    return WOFF2_URL.sub(inline, css)


@functools.cache
def inline_scripts() -> tuple[str, str]:
    """KaTeX and the typesetter, as the page carries them inline (a page's policy allows exactly these by hash)."""
    return (KATEX_DIR / "katex.min.js").read_text(encoding="utf-8"), TYPESETTER.read_text(encoding="utf-8")


@functools.cache
def offline_math(_cdn_url: str = "") -> Markup:
    """The <style> and <script> elements that typeset a page's $…$ and $$…$$ (nbconvert's CDN url is unused)."""
    katex, typesetter = inline_scripts()
    return Markup(f"<style>{katex_stylesheet()}</style>\n<script>{katex}</script>\n<script>{typesetter}</script>")


@functools.cache
def page_policy(_cdn_url: str = "") -> Markup:
    """The notebook page's Content-Security-Policy: its own inline math scripts run, nothing a student wrote does."""
    return meta_tag(policy(NOTEBOOK_PAGE, inline_scripts()))
