"""Open rendered site pages in headless Chromium with no network and list what a reader would see broken."""
from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

from playwright.sync_api import (
    Browser,
    ConsoleMessage,
    Page,
    Request,
    Response,
    sync_playwright,
)
from playwright.sync_api import TimeoutError as PlaywrightTimeout

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
CHROMIUM_ARGS = ["--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
"""Flags for a quiet headless run (Playwright adds --headless and a fresh --user-data-dir)."""
VIEWPORT = {"width": 1280, "height": 900}
"""The desktop window the issue's screenshots were taken at."""

LAYOUT_JS = """() => {
  const problems = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth + 1)
    problems.push(`the page is ${root.scrollWidth}px wide in a ${root.clientWidth}px window`);
  const main = document.querySelector("main") || document.body;
  const plain = (el) => !el.closest('[class*="column-"], figure, table, li, blockquote, .callout');
  const reference = Array.from(main.querySelectorAll("p")).find(p => plain(p) && p.getBoundingClientRect().width);
  const column = (reference || main).getBoundingClientRect();
  const name = (el) => el.id ? `${el.localName}#${el.id}` :
    `${el.localName} "${(el.getAttribute("src") || el.textContent).replace(/\\s+/g, " ").trim().slice(0, 40)}"`;
  for (const el of main.querySelectorAll("figure, table, img, svg")) {
    const box = el.getBoundingClientRect();
    if (!box.width || (el.localName === "svg" && el.parentElement.closest("svg"))) continue;
    const wide = el.closest('[class*="column-"]');
    const bounds = wide ? wide.getBoundingClientRect() : column;
    if (box.left < bounds.left - 1 || box.right > bounds.right + 1)
      problems.push(`${name(el)} spans ${Math.round(box.left)}-${Math.round(box.right)}px, ` +
                    `outside its column ${Math.round(bounds.left)}-${Math.round(bounds.right)}px`);
    if ((el.localName === "figure" || el.localName === "table") && el.scrollWidth > el.clientWidth + 1)
      problems.push(`${name(el)} holds ${el.scrollWidth}px of content in ${el.clientWidth}px`);
  }
  return problems;
}"""
"""Page wider than the window; a figure, table, image or diagram outside its column or clipping its content."""

IMAGES_JS = """async () => {
  const images = Array.from(document.images);
  images.forEach(img => { img.loading = "eager"; });
  await Promise.all(images.map(img => img.decode().catch(() => null)));
  return images.filter(img => !img.complete || img.naturalWidth === 0)
               .map(img => `image not loaded: ${img.getAttribute("src")}`);
}"""
"""Every image, lazy ones included, decoded with a size."""

MATH_JS = """() => {
  const problems = [];
  const shown = (el) => el.checkVisibility();
  for (const el of document.querySelectorAll(".math")) {
    if (shown(el) && !el.querySelector(".katex, mjx-container, math"))
      problems.push(`math left as TeX: ${el.textContent.trim().slice(0, 60)}`);
  }
  for (const el of document.querySelectorAll(".katex-error, mjx-merror, merror"))
    problems.push(`math error: ${el.textContent.trim().slice(0, 60)}`);
  // \\( \\[ as MathJax writes them, or $…$ / $$…$$ by pandoc's rules as notebooks keep them
  const tex = /\\\\[(\\[]|\\$\\$[\\s\\S]+?\\$\\$|\\$[^\\s$](?:[^$]*?[^\\s$])?\\$(?!\\d)/;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    const found = node.data.match(tex);
    if (!found || parent.closest("script, style, pre, code, textarea, .math, .katex") || !shown(parent))
      continue;
    const around = node.data.slice(Math.max(0, found.index - 30), found.index + 40);
    problems.push(`TeX delimiters in the text: ${around.replace(/\\s+/g, " ").trim()}`);
  }
  return problems;
}"""
"""Math not typeset by KaTeX or MathJax, typeset with errors, or raw \\( \\[ $ $$ in the visible text."""

MERMAID_JS = """() => {
  const problems = [], small = [];
  for (const pre of document.querySelectorAll("pre.mermaid, pre.mermaid-js"))
    problems.push(`mermaid diagram not rendered: ${pre.textContent.trim().split("\\n")[0]}`);
  for (const svg of document.querySelectorAll("svg[aria-roledescription=error]"))
    problems.push(`mermaid syntax error in ${svg.id}`);
  const main = document.querySelector("main") || document.body;
  const paragraph = Array.from(main.querySelectorAll("p")).find(p => !p.closest("figure, table, li, .callout"));
  const body = parseFloat(getComputedStyle(paragraph || main).fontSize);
  const diagrams = Array.from(document.querySelectorAll("svg.mermaid-js:not([aria-roledescription=error])"));
  for (const svg of diagrams) {
    const view = svg.viewBox.baseVal, box = svg.getBoundingClientRect();
    if (!view || !view.width || !box.width) continue;
    const scale = box.width / view.width;
    // the numbered circles of a sequence diagram are step markers, not labels
    const labels = Array.from(svg.querySelectorAll("text, foreignObject span, foreignObject div"))
      .filter(el => el.textContent.trim() && !el.closest(".sequenceNumber"));
    const sized = labels.map(el => [parseFloat(getComputedStyle(el).fontSize) * scale, el.textContent.trim()]);
    const [size, text] = sized.sort((a, b) => a[0] - b[0])[0] || [body, ""];
    if (size < body - 0.5)
      small.push(`${svg.id || "diagram"}: label "${text.slice(0, 30)}" is ${size.toFixed(1)}px, body text ${body}px`);
  }
  return {problems, small, rendered: diagrams.length};
}"""
"""Diagrams still as mermaid source or in error; labels drawn smaller than the body text."""


@dataclass(frozen=True)
class Problem:
    """One thing a reader would see broken; kind: layout, image, math, mermaid, labels, console, request, callout."""

    kind: str
    detail: str


@dataclass(frozen=True)
class PageExpectations:
    """What a page should hold beyond the checks every page gets."""

    mermaid_diagrams: int = 0
    """How many mermaid diagrams must be rendered to SVG."""
    callout_title: str | None = None
    """Title text of a collapsed callout that a click must open."""
    callout_shows: str | None = None
    """Text the opened callout must show."""
    render_timeout_s: float = 10.0
    """How long to wait for the diagrams to render."""


@dataclass
class PageReport:
    """The problems found on one page, and the screenshot kept when there were any."""

    url: str
    problems: list[Problem] = field(default_factory=list)
    screenshot: Path | None = None

    @property
    def kinds(self) -> set[str]:
        """The kinds of problem found."""
        return {problem.kind for problem in self.problems}

    def summary(self) -> str:
        """One line per problem, then where the screenshot is."""
        lines = [f"{self.url}:"] + [f"  [{p.kind}] {p.detail}" for p in self.problems]
        return "\n".join(lines + ([f"  screenshot: {self.screenshot}"] if self.screenshot else []))


def find_chromium() -> str | None:
    """The Chromium to drive: $CHROMIUM, else the first of CHROMIUM_NAMES on PATH."""
    return os.environ.get("CHROMIUM") or next(filter(None, map(shutil.which, CHROMIUM_NAMES)), None)


@contextmanager
def open_chromium(executable: str) -> Iterator[Browser]:
    """Headless Chromium from `executable` (not Playwright's own download) while the block runs."""
    # Chromium refuses to run as root inside its sandbox
    sandbox = ["--no-sandbox"] if os.geteuid() == 0 else []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS + sandbox)
        try:
            yield browser
        finally:
            browser.close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        """Keep test output clean."""


@contextmanager
def serve_directory(root: Path) -> Iterator[str]:
    """Serve `root` over HTTP on localhost while the block runs; yields the base URL ending in '/'."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def _open_callout(page: Page, expect: PageExpectations) -> list[Problem]:
    """Check the callout starts collapsed, opens on a click, and then shows the expected text."""
    callout = page.locator(".callout").filter(has_text=expect.callout_title).first
    if not callout.count():
        return [Problem("callout", f"no callout titled {expect.callout_title!r}")]
    body = callout.locator(".callout-collapse").first
    if body.is_visible():
        return [Problem("callout", f"{expect.callout_title!r} is open before it is clicked")]
    callout.locator("[data-bs-toggle=collapse]").first.click()
    try:
        body.wait_for(state="visible", timeout=3000)
    except PlaywrightTimeout:
        return [Problem("callout", f"{expect.callout_title!r} did not open when clicked")]
    if expect.callout_shows and expect.callout_shows not in body.inner_text():
        return [Problem("callout", f"{expect.callout_title!r} opened without showing {expect.callout_shows!r}")]
    return []


def record_failures(page: Page, problems: list[Problem]) -> None:
    """Collect console errors, uncaught exceptions and failed or refused requests as they happen."""

    def console(message: ConsoleMessage) -> None:
        # a failed load is reported once, as its request, not again as the console line it also logs
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            problems.append(Problem("console", message.text))

    def response(answer: Response) -> None:
        if answer.status >= 400:
            problems.append(Problem("request", f"HTTP {answer.status}: {answer.url}"))

    page.on("console", console)
    page.on("pageerror", lambda error: problems.append(Problem("console", f"uncaught {error.name}: {error.message}")))
    def failed(request: Request) -> None:
        if not (request.failure == "net::ERR_ABORTED" and urlparse(request.url).path.endswith("/favicon.ico")):
            problems.append(Problem("request", f"{request.failure}: {request.url}"))  # the browser's own icon is not content

    page.on("requestfailed", failed)
    page.on("response", response)


def inspect_page(page: Page, expect: PageExpectations) -> list[Problem]:
    """Run every check on the loaded page, the callout (if any) opened first so its content is checked too."""
    if expect.mermaid_diagrams:
        try:
            page.wait_for_function("() => !document.querySelector('pre.mermaid, pre.mermaid-js')",
                                   timeout=expect.render_timeout_s * 1000)
        except PlaywrightTimeout:
            pass  # reported below, with the diagram's first line
    page.evaluate("() => document.fonts.ready.then(() => true)")
    problems = _open_callout(page, expect) if expect.callout_title else []
    problems += [Problem("image", text) for text in page.evaluate(IMAGES_JS)]
    problems += [Problem("math", text) for text in page.evaluate(MATH_JS)]
    diagrams = page.evaluate(MERMAID_JS)
    problems += [Problem("mermaid", text) for text in diagrams["problems"]]
    if diagrams["rendered"] < expect.mermaid_diagrams:
        problems.append(Problem("mermaid", f"{diagrams['rendered']} of {expect.mermaid_diagrams} diagrams rendered"))
    problems += [Problem("labels", text) for text in diagrams["small"]]
    return problems + [Problem("layout", text) for text in page.evaluate(LAYOUT_JS)]


def check_page(browser: Browser, url: str, expect: PageExpectations, screenshot: Path) -> PageReport:
    """Load `url` with every request off its own host refused, check it, and screenshot it if anything failed."""
    report = PageReport(url)
    origin = url.split("/", 3)[:3]
    context = browser.new_context(viewport=VIEWPORT)
    context.route(lambda target: target.split("/", 3)[:3] != origin, lambda route: route.abort("internetdisconnected"))
    try:
        page = context.new_page()
        record_failures(page, report.problems)
        page.goto(url, wait_until="load")
        report.problems.extend(inspect_page(page, expect))
        if report.problems:
            screenshot.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=screenshot, full_page=True)
            report.screenshot = screenshot
    finally:
        context.close()
    return report
