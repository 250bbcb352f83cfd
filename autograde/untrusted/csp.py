"""Content-Security-Policy for every page that shows student content, so a gap in the cleaning is not a takeover."""
from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable, Mapping, Sequence

from markupsafe import Markup, escape

NO_SCRIPT_PAGE: Mapping[str, Sequence[str]] = {
    "default-src": ("'none'",),
    "style-src": ("'unsafe-inline'",),
    "img-src": ("data:",),
    "font-src": ("data:",),
    "base-uri": ("'none'",),
    "form-action": ("'none'",),
}
"""A page with no script at all (the grade report): inline styles and pictures it carries, nothing else."""
NOTEBOOK_PAGE: Mapping[str, Sequence[str]] = {
    "default-src": ("'none'",),
    "script-src": ("'self'",),
    "style-src": ("'self'", "'unsafe-inline'"),
    "img-src": ("'self'", "data:"),
    "font-src": ("'self'", "data:"),
    "connect-src": ("'self'",),
    "base-uri": ("'none'",),
    "form-action": ("'self'",),
    "object-src": ("'none'",),
    "frame-src": ("'none'",),
}
"""A notebook page (feedback, formgrader): scripts only from its own site or the inline ones named by hash."""


def script_hash(source: str) -> str:
    """The CSP source expression that allows exactly this inline script."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(source.encode("utf-8")).digest()).decode("ascii") + "'"


def policy(directives: Mapping[str, Sequence[str]], scripts: Iterable[str] = (), **extra: Sequence[str]) -> str:
    """The policy text: `directives`, with inline `scripts` allowed by hash and `extra` sources added per directive."""
    merged = {name: list(values) for name, values in directives.items()}
    for name, values in extra.items():
        merged.setdefault(name.replace("_", "-"), []).extend(values)
    hashes = [script_hash(source) for source in scripts]
    if hashes:
        merged.setdefault("script-src", []).extend(hashes)
    return "; ".join(f"{name} {' '.join(values)}" for name, values in merged.items())


def meta_tag(text: str) -> Markup:
    """The <meta> element that applies a policy to a page read from disk."""
    return Markup(f'<meta http-equiv="Content-Security-Policy" content="{escape(text)}">')
