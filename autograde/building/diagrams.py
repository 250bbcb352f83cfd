"""The lesson's mermaid diagrams as committed SVG files, so notebooks show pictures without running mermaid.

The site draws each ```{mermaid}``` cell in the reader's browser; a notebook (the student's Jupyter, formgrader,
feedback) gets the picture drawn once by `python -m autograde.building.diagrams` and committed under
lessons/assets/diagrams/. Each SVG records the SHA-256 of the mermaid source it was drawn from, so the build refuses
a stale picture instead of shipping it.
"""
from __future__ import annotations

import argparse
import hashlib
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Sequence
from pathlib import Path

from autograde.assignment_spec import REPO_ROOT, load_spec
from autograde.building.lesson_source import CodeCell, LessonSourceError, read_lesson

MERMAID_VERSION = "12.3.0"
"""The npm `mermaid` release the committed pictures were drawn with."""
DIAGRAMS_DIR = Path("assets") / "diagrams"
"""Where the pictures are committed, relative to the lesson's folder."""
REGENERATE = "python -m autograde.building.diagrams"
SOURCE_MARK = re.compile(r"<!-- mermaid (?P<version>\S+) source sha256:(?P<digest>[0-9a-f]{64}) -->")
MERMAID_CONFIG = {"startOnLoad": False, "theme": "neutral", "securityLevel": "strict"}
"""The site's mermaid theme (`_quarto.yml`); each diagram's own %%{init}%% line sets its label sizes."""

RENDER_JS = """async ([id, source, config]) => {
  mermaid.initialize(config);
  const {svg} = await mermaid.render(id, source);
  const holder = document.createElement("div");
  holder.innerHTML = svg;
  document.body.appendChild(holder);
  const picture = holder.querySelector("svg");
  const box = picture.viewBox.baseVal;
  // an <img> needs a fixed size, and XML (not HTML) serialization to parse at all
  picture.setAttribute("width", box.width);
  picture.setAttribute("height", box.height);
  picture.removeAttribute("style");
  const xml = new XMLSerializer().serializeToString(picture);
  holder.remove();
  return xml;
}"""
"""Draw one diagram in the page and return it as standalone SVG."""


def source_digest(cell: CodeCell) -> str:
    """SHA-256 of a mermaid cell's source (its %%| options left out)."""
    return hashlib.sha256(cell.source.strip().encode("utf-8")).hexdigest()


def diagram_path(cell: CodeCell, lesson_dir: Path) -> Path:
    """Where the picture of a mermaid cell is committed: <lesson_dir>/assets/diagrams/<label>.svg."""
    label = cell.options.get("label")
    if not label:
        raise LessonSourceError("a mermaid cell has no '%%| label:' option; give it one like fig-zero-stages")
    return lesson_dir / DIAGRAMS_DIR / f"{label}.svg"


def committed_diagram(cell: CodeCell, lesson_dir: Path) -> Path:
    """The committed SVG of a mermaid cell; a one-line error naming the file and the command when missing or stale."""
    path = diagram_path(cell, lesson_dir)
    if not path.exists():
        raise LessonSourceError(f"{path}: missing picture of mermaid diagram {path.stem}; run `{REGENERATE}`")
    mark = SOURCE_MARK.search(path.read_text(encoding="utf-8"))
    if not mark or mark["digest"] != source_digest(cell):
        raise LessonSourceError(f"{path}: drawn from an older version of diagram {path.stem}; run `{REGENERATE}`")
    return path


def mermaid_cells(lesson_path: Path) -> list[CodeCell]:
    """The lesson's ```{mermaid}``` cells in document order."""
    return [cell for cell in read_lesson(lesson_path).code_cells() if cell.lang == "mermaid"]


def fetch_mermaid(into: Path) -> Path:
    """mermaid.min.js of MERMAID_VERSION from the npm registry (`npm pack`), unpacked under `into`."""
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("npm is not on PATH: install Node.js, or pass --mermaid PATH/TO/mermaid.min.js")
    packed = subprocess.run([npm, "pack", f"mermaid@{MERMAID_VERSION}", "--silent"], cwd=into, check=True,
                            capture_output=True, text=True).stdout.strip().splitlines()[-1]
    with tarfile.open(into / packed) as archive:
        archive.extract("package/dist/mermaid.min.js", into, filter="data")
    return into / "package" / "dist" / "mermaid.min.js"


def require_cjk_font() -> None:
    """Stop with one line unless a CJK font is installed: mermaid sizes each box by its measured labels."""
    found = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True, check=False).stdout
    if not found.strip():
        raise SystemExit("no Chinese font installed, so the diagrams' boxes would not fit their labels: "
                         "apt-get install fonts-noto-cjk, then run again")


def draw_diagrams(cells: Sequence[CodeCell], mermaid_js: Path, chromium: str, lesson_dir: Path) -> list[Path]:
    """Draw each cell with mermaid in headless Chromium and write its SVG, marked with its source digest."""
    from autograde.building.site_check import open_chromium

    (lesson_dir / DIAGRAMS_DIR).mkdir(parents=True, exist_ok=True)
    written = []
    with open_chromium(chromium) as browser:
        page = browser.new_page()
        page.set_content("<!DOCTYPE html><html><body></body></html>")
        page.add_script_tag(path=str(mermaid_js))
        for cell in cells:
            path = diagram_path(cell, lesson_dir)
            svg = page.evaluate(RENDER_JS, [path.stem, cell.source.strip(), MERMAID_CONFIG])
            mark = f"<!-- mermaid {MERMAID_VERSION} source sha256:{source_digest(cell)} -->"
            path.write_text(f"{mark}\n{svg}\n", encoding="utf-8")
            written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """Redraw every mermaid diagram of an assignment's lesson into lessons/assets/diagrams/."""
    from autograde.building.site_check import find_chromium

    parser = argparse.ArgumentParser(prog=REGENERATE, description=main.__doc__)
    parser.add_argument("assignment", nargs="?", default="lesson05")
    parser.add_argument("--mermaid", type=Path,
                        help=f"mermaid {MERMAID_VERSION}'s dist/mermaid.min.js (default: fetched with npm pack)")
    args = parser.parse_args(argv)
    chromium = find_chromium()
    if chromium is None:
        raise SystemExit("no chromium on PATH (Debian: apt-get install chromium)")
    require_cjk_font()
    lesson = load_spec(args.assignment).lesson
    with tempfile.TemporaryDirectory() as scratch:
        mermaid_js = args.mermaid or fetch_mermaid(Path(scratch))
        for path in draw_diagrams(mermaid_cells(lesson), mermaid_js, chromium, lesson.parent):
            print(f"wrote {path.relative_to(REPO_ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
