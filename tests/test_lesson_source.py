"""The lesson .qmd without Quarto: sections, answer-only content, cells that run, tables, diagrams, math, links."""
from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest
import yaml

from autograde.building.demo_cells import run_demo_cell
from autograde.building.lesson_source import (
    CodeCell,
    Div,
    Markdown,
    math_formulas,
    read_lesson,
    solution_namespace,
)

ROOT = Path(__file__).resolve().parent.parent
LESSON = ROOT / "lessons" / "lesson05.qmd"
SEED_NUMBERS = ["112.0", "38.5", "26.3", "14.0", "29.3", "15.5", "1.75"]  # the original lesson's table

STUDENT_SECTIONS = [
    "## 本课目标", "## 核心概念",
    "### 1. 显存状态冗余的根源与 ZeRO 的核心洞见", "### 2. ZeRO 阶段 1、2、3 的显存拆解与数学推导",
    "### 3. 通信账本严密推导：为什么 ZeRO-1/2 是 $2\\Psi$，而 ZeRO-3 是 $3\\Psi$",
    "#### ZeRO-1 与 ZeRO-2 的通信等价性（总通信量 = $2\\Psi$）", "#### ZeRO-3（FSDP）的通信代价（总通信量 = $3\\Psi$）",
    "### 4. 异步流水预取（Prefetching）与重叠原理", "### 5. 为什么激活显存（Activation）无法被 ZeRO 分片？",
    "### 6. 工程选型准则：FSDP 与扩展边界", "## 具体演示与数值推演", "## 代码填空题", "## 三个问答题",
    "### Q1", "### Q2", "### Q3", "## 检查与通过标准",
]
ANSWER_SECTIONS = ["## 参考答案（仅 answer 分支）", "## 补全后的代码（关键填空处）", "## 三个问答题要点", "## 通过要点", "## 官方主参考"]
VETO_ITEMS = ["把 ZeRO 各档的分片对象搞错", "说 ZeRO-3 激活也被分片", "通信量算错", "N_d→∞ 可以把总显存"]
SOLUTION_EXPRESSIONS = ["opt_fp32 / dp + extra", "(grads_bf16 + opt_fp32) / dp", "(params_bf16 + grads_bf16 + opt_fp32) / dp", "3 * num_params"]


@pytest.fixture(scope="module")
def lesson():
    return read_lesson(LESSON)


def markdown_of(lesson, answer_only: bool) -> str:
    """All markdown text inside (True) or outside (False) answer-only content."""
    return "\n".join(b.text for b, inside in lesson.walk() if isinstance(b, Markdown) and inside == answer_only)


def student_view(lesson) -> str:
    """What the student profile shows: markdown outside answer-only divs and the code of echoed cells."""
    parts = [markdown_of(lesson, answer_only=False)]
    for block, inside in lesson.walk():
        if isinstance(block, CodeCell) and not inside and block.options.get("include", True) and block.options.get("echo", True):
            parts.append(block.source)
    return "\n".join(parts)


def test_every_section_of_the_original_is_present(lesson):
    """Are all of the original's sections there, the answer-only ones inside answer-only content?"""
    student, answer = markdown_of(lesson, False), markdown_of(lesson, True)
    for heading in STUDENT_SECTIONS:
        assert re.search(rf"^{re.escape(heading)}\s*$", student, re.MULTILINE), heading
    for heading in ANSWER_SECTIONS:
        assert re.search(rf"^{re.escape(heading)}\s*$", answer, re.MULTILINE), heading
        assert heading not in student
    for item in VETO_ITEMS:
        assert item in student
    assert "huggingface.co/spaces/nanotron/ultrascale-playbook" in answer
    assert "pytorch.org/docs/stable/distributed.html" in answer


def test_solutions_and_reference_answers_are_answer_only(lesson):
    """Do solution cells, rubric key points and the completed code appear only under the answer profile?"""
    solution_cells = [b for b, inside in lesson.walk() if isinstance(b, CodeCell) and b.role == "solution"]
    assert solution_cells and all(inside for b, inside in lesson.walk() if isinstance(b, CodeCell) and b.role == "solution")
    rubrics = [(b, inside) for b, inside in lesson.walk() if isinstance(b, Div) and "rubric" in b.classes]
    assert sorted(b.attributes["question"] for b, _ in rubrics) == ["q1", "q2", "q3"]
    assert all(inside for _, inside in rubrics)
    view = student_view(lesson)
    for expression in SOLUTION_EXPRESSIONS:
        assert expression not in view, expression
    for b, _ in rubrics:
        for line in b.children[0].text.splitlines():
            if line.strip():
                assert line.strip() not in view


def test_answer_banner_is_answer_only(lesson):
    """Is the 参考答案版 banner shown only under the answer profile?"""
    assert "参考答案版" in markdown_of(lesson, True)
    assert "参考答案版" not in markdown_of(lesson, False)


def test_exercise_cell_has_exactly_the_five_blanks(lesson):
    """Does the exercise hold five `______`, not run, and differ from the solution only at the blanks?"""
    exercise = lesson.only_cell("exercise")
    solution = lesson.only_cell("solution")
    assert exercise.source.count("______") == 5
    assert exercise.options.get("eval") is False
    assert solution.options.get("eval", True) is True
    pattern = re.escape(exercise.source).replace("______", ".+?")
    assert re.fullmatch(pattern, solution.source, re.DOTALL)


def test_solution_cell_runs_and_prints_the_check(lesson):
    """Does the solution cell run as __main__, print the table and the dp=1 check?"""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(lesson.only_cell("solution").source, "solution", "exec"), {"__name__": "__main__"})
    assert "dp=1 时三档相等 ✓" in out.getvalue()
    assert re.search(r"^\s+8\s+38\.5\s+26\.\d\s+14\.0\s+21\.0$", out.getvalue(), re.MULTILINE)


@pytest.fixture(scope="module")
def demo_outputs(lesson):
    namespace = solution_namespace(LESSON)
    return {cell.options["label"]: run_demo_cell(cell.source, namespace, LESSON.parent, cell.options["label"])
            for cell in lesson.code_cells("demo")}


def test_figure_cell_draws_one_figure(demo_outputs):
    """Does the 图 5-3 cell draw its figure from the formulas at render time?"""
    figure = demo_outputs["fig-zero-memory"]
    assert len(figure.figures) == 1 and b"<svg" in figure.figures[0]


@pytest.mark.parametrize(("label", "text"), [("fig-zero-memory", "每卡静态显存 (GB)"), ("fig-lab-measured", "ZeRO-2-like")])
def test_figure_text_is_left_for_the_readers_fonts(demo_outputs, label, text):
    """Is every label SVG text (no glyph outlines) in a font list that names CJK fonts for the reader's browser?"""
    svg = demo_outputs[label].figures[0].decode("utf-8")
    assert text in re.findall(r"<text\b[^>]*>([^<]*)</text>", svg)
    assert "<text" in svg and 'id="DejaVuSans-' not in svg
    assert re.search(r"font-family: 'DejaVu Sans', 'Noto Sans CJK SC'", svg)


def test_table_numbers_equal_the_formulas_and_the_original(demo_outputs):
    """Does the executed table show the original's numbers, and are they the formulas' values?"""
    zero = solution_namespace(LESSON)["zero_memory_per_gpu"]
    table = demo_outputs["tbl-zero-memory-7b"].text
    rows = [line for line in table.splitlines() if line.startswith("| **")]
    assert len(rows) == 3
    cells = [re.findall(r"\$([\d.]+)\\text\{ GB\}\$", row) for row in rows]
    for dp, numbers in zip((1, 8, 64), cells):
        assert len(numbers) == 4
        for stage, shown in enumerate(numbers):
            exact = zero(7_000_000_000, dp, stage) / 1e9
            assert abs(float(shown) - exact) <= 0.05 + 1e-12, (dp, stage, shown, exact)
    shown = [n for row in cells[1:] for n in row[1:]]
    assert shown == SEED_NUMBERS[1:]
    assert cells[0] == ["112.0"] * 4
    assert "0\\text{ (无通信)}" in rows[0] and "2\\Psi" in rows[1] and "3\\Psi" in rows[2]


def test_worked_numbers_in_the_prose_match_the_formulas(lesson):
    """Do the 公式验算 numbers in the text equal the formulas' values?"""
    ns = solution_namespace(LESSON)
    memory, comm = ns["zero_memory_per_gpu"], ns["zero_communication_volume"]
    prose = markdown_of(lesson, False)
    psi = 7_000_000_000
    assert f"= {memory(psi, 8, 1) / 1e9:g}\\text{{ GB}}" in prose
    assert f"= {memory(psi, 8, 2) / 1e9:g} \\approx" in prose
    assert f"= {memory(psi, 8, 3) / 1e9:.1f}\\text{{ GB}}" in prose
    assert f"仅需 ${memory(psi, 64, 3) / 1e9:g}\\text{{ GB}}$" in prose
    assert f"$2\\Psi = {comm(psi, 1) // 10**9}\\text{{G 数值}}$" in prose
    assert f"$3\\Psi = {comm(psi, 3) // 10**9}\\text{{G 数值}}$" in prose
    assert f"${2 * comm(psi, 3) // 10**9}\\text{{ GB}}$ 通信" in prose


MERMAID_TYPES = ("sequenceDiagram", "flowchart", "graph", "classDiagram", "stateDiagram", "gantt", "pie")


def mermaid_cells(lesson) -> list[CodeCell]:
    return [b for b, _ in lesson.walk() if isinstance(b, CodeCell) and b.lang == "mermaid"]


MERMAID_INIT = re.compile(r"%%\{init: (?P<config>.*)\}%%")
BODY_TEXT_PX = 17
"""The site's body text size; diagram labels must be at least this big."""


def mermaid_parts(cell: CodeCell) -> tuple[dict, list[str]]:
    """A mermaid block's init directive (as data) and its remaining non-blank lines."""
    first, *rest = [line.strip() for line in cell.source.splitlines() if line.strip()]
    directive = MERMAID_INIT.fullmatch(first)
    assert directive, f"{cell.options['label']}: no %%{{init: …}}%% line setting label sizes"
    return json.loads(directive["config"]), rest


def font_sizes(config: object) -> list[float]:
    """Every *FontSize / fontSize value in a mermaid config, in px."""
    if not isinstance(config, dict):
        return []
    own = [float(str(v).removesuffix("px")) for k, v in config.items() if k.lower().endswith("fontsize")]
    return own + [size for value in config.values() for size in font_sizes(value)]


def test_mermaid_blocks_parse(lesson):
    """Does every mermaid block start with a known type, and do its edges name declared nodes?"""
    cells = mermaid_cells(lesson)
    assert [mermaid_parts(c)[1][0] for c in cells] == ["sequenceDiagram", "flowchart TB"]
    for cell in cells:
        _, lines = mermaid_parts(cell)
        assert lines[0].split()[0] in MERMAID_TYPES
        assert cell.options["label"].startswith("fig-") and cell.options["fig-cap"]
        if lines[0] == "sequenceDiagram":
            participants = {m[1] for line in lines if (m := re.match(r"participant (\w+)", line))}
            assert len(participants) == 3
            for line in lines:
                if message := re.match(r"(\w+)\s*-{1,2}>>\s*(\w+)\s*:", line):
                    assert {message[1], message[2]} <= participants, line
                if note := re.match(r"Note over (\w+),(\w+):", line):
                    assert {note[1], note[2]} <= participants, line
        else:
            nodes = [m[1] for line in lines if (m := re.match(r'(\w+)\["', line))]
            edges = [re.match(r"(\w+)\s*-->\|[^|]+\|\s*(\w+)$", line) for line in lines if "-->" in line]
            assert nodes == ["DDP", "ZeRO1", "ZeRO2", "ZeRO3"]
            assert [(edge[1], edge[2]) for edge in edges] == list(zip(nodes, nodes[1:]))


def test_diagram_labels_are_body_text_size(lesson):
    """Does each diagram's init directive set every label font it names to at least body-text size?"""
    for cell in mermaid_cells(lesson):
        sizes = font_sizes(mermaid_parts(cell)[0])
        assert sizes and min(sizes) >= BODY_TEXT_PX, (cell.options["label"], sizes)


def test_math_delimiters_balance(lesson):
    """Are $…$ and $$…$$ balanced in every paragraph, and braces balanced inside each formula?"""
    text = "\n".join(b.text for b, _ in lesson.walk() if isinstance(b, Markdown))
    text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    for paragraph in re.split(r"\n\s*\n", text):
        assert paragraph.count("$$") % 2 == 0, paragraph
        assert paragraph.replace("$$", "").count("$") % 2 == 0, paragraph
        for formula, _ in math_formulas(paragraph):
            body = formula.replace("\\{", "").replace("\\}", "")
            assert body.count("{") == body.count("}"), body
    assert "\\underbrace{2\\Psi}_{\\text{BF16 参数}}" in text
    for term in ("V_{\\text{DDP}}", "V_{\\text{RS}}", "V_{\\text{AG}}", "V_{\\text{Fwd\\_AG}}", "V_{\\text{Bwd\\_AG}}", "V_{\\text{Bwd\\_RS}}", "V_{\\text{ZeRO-3}}"):
        assert term in text, term


def test_cross_references_and_links_resolve(lesson):
    """Does every @fig/@tbl reference have a label, and every local link or image exist?"""
    labels = {str(b.options.get("label")) for b in lesson.code_cells()}
    text = "\n".join(b.text for b, _ in lesson.walk() if isinstance(b, Markdown))
    labels |= set(re.findall(r"\{#((?:fig|tbl)-[\w-]+)", text))
    references = set(re.findall(r"@((?:fig|tbl)-[\w-]+)", text))
    assert references and references <= labels
    assert {"fig-zero3-sequence", "fig-zero-stages", "fig-zero-memory", "fig-zero3-comm-flow"} <= labels
    for page in (LESSON, ROOT / "lessons" / "index.qmd"):
        body = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", body):
            if not re.match(r"https?://", target):
                assert (page.parent / target.split("#")[0]).exists(), f"{page.name}: {target}"
    assert "lesson04.qmd" not in text and "lesson06.qmd" not in text


def test_comm_flow_svg_is_standalone_and_labelled():
    """Is the ZeRO-3 communication figure a valid, scalable SVG with Chinese labels and no external refs?"""
    import xml.etree.ElementTree as ElementTree

    svg_path = ROOT / "lessons" / "assets" / "zero3_comm_flow.svg"
    root = ElementTree.parse(svg_path).getroot()
    assert root.tag.endswith("svg") and "viewBox" in root.attrib and "width" not in root.attrib
    body = svg_path.read_text(encoding="utf-8")
    for label in ("前向", "反向", "优化器", "All-Gather", "Reduce-Scatter", "无通信"):
        assert label in body
    assert "<script" not in body and "http://" not in body.replace("http://www.w3.org", "")


def test_quarto_profiles_are_declared():
    """Do _quarto.yml and the profile files set the default profile and both output folders?"""
    main = yaml.safe_load((ROOT / "_quarto.yml").read_text(encoding="utf-8"))
    assert main["profile"]["default"] == "student"
    assert main["lang"] == "zh" and main["website"]["search"]
    assert yaml.safe_load((ROOT / "_quarto-student.yml").read_text())["project"]["output-dir"] == "_site"
    answer = yaml.safe_load((ROOT / "_quarto-answer.yml").read_text(encoding="utf-8"))
    assert answer["project"]["output-dir"] == "_site-answer"
    assert "参考答案版" in answer["website"]["announcement"]["content"]
    assert set(main["project"]["render"]) == {"lessons/index.qmd", "lessons/lesson05.qmd"}
