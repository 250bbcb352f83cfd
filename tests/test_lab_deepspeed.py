"""DeepSpeed's ZeRO-2/3 memory estimators beside the lesson's formulas: the terms, their sources, the saved numbers."""
from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from zerolab.accounting import (
    COMPARED_STAGES,
    Model,
    SourceLine,
    deepspeed_sum,
    deepspeed_terms,
    lesson_terms,
    memory_terms,
    not_counted,
    total_bytes,
)
from zerolab.deepspeed_estimate import NOT_INSTALLED, node_layout
from zerolab.deepspeed_report import (
    comparison_markdown,
    comparisons,
    load_estimates,
    terms_markdown,
)
from zerolab.errors import LabError
from zerolab.formulas import STAGES
from zerolab.report import load_result

ROOT = Path(__file__).resolve().parent.parent
LAB = ROOT / "lessons" / "assets" / "lab"
ESTIMATES = LAB / "deepspeed_estimate.json"
LAB_RESULT = LAB / "zero_lab_result.json"
GOLDEN = Path(__file__).parent / "data" / "lab"
GIB = 2**30


def documented(stage: str, params: float, largest_layer: float, gpus: int) -> float:
    """GPU bytes with nothing offloaded, as DeepSpeed documents them: ZeRO-2 in the comment above its estimator
    (2 = params_16bit, 18 = 2 grads_16bit + 4 grads_32bit + 4 params_32bit + 8 optimizer states), ZeRO-3 in its
    Memory Requirements page (largest_layer_memory + 18 * params / total number of gpus)."""
    return 2 * params + 18 * params / gpus if stage == "zero2" else 4 * largest_layer + 18 * params / gpus


def deepspeed_or_skip():
    """The installed deepspeed, or a skip that says how to install it."""
    from zerolab.deepspeed_estimate import import_deepspeed

    try:
        return import_deepspeed()
    except LabError as error:
        pytest.skip(str(error))


@pytest.mark.parametrize("stage", COMPARED_STAGES)
@pytest.mark.parametrize(("params", "largest_layer", "gpus"), [
    (7e9, 131_072_000, 1), (7e9, 131_072_000, 8), (7e9, 131_072_000, 64),
    (2_101_248, 262_656, 2), (2851e6, 32e6, 8), (737.67e6, 32.90e6, 4), (175e9, 617_558_016, 1024),
])
def test_terms_add_up_to_the_documented_formulas(stage: str, params: float, largest_layer: float, gpus: int) -> None:
    """Do DeepSpeed's terms in memory_terms.yaml add up to its documented formula, for small and large models?"""
    model = Model("m", params, largest_layer)
    expected = documented(stage, params, largest_layer, gpus)
    assert total_bytes(deepspeed_terms(stage), model, gpus) == pytest.approx(expected)


def test_documented_examples() -> None:
    """Do the terms give DeepSpeed's own ZeRO-3 examples (t5-3b on 8 GPUs 6.09 GB; t5-large on 4 GPUs 3291 MB)?"""
    t5_3b, t5_large = Model("t5-3b", 2851e6, 32e6), Model("t5-large", 737.67e6, 32.90e6)
    assert f"{total_bytes(deepspeed_terms('zero3'), t5_3b, 8) / GIB:.2f}" == "6.09"
    assert round(total_bytes(deepspeed_terms("zero3"), t5_large, 4)) >> 20 == 3291


@pytest.mark.parametrize("stage", COMPARED_STAGES)
@pytest.mark.parametrize("n", [1, 2, 8, 64])
def test_lesson_terms_are_the_lesson_formulas(stage: str, n: int) -> None:
    """Do the lesson's terms (2 + 2 + 4 master + 8 Adam) add up to 2Ψ + 14Ψ/N_d and 16Ψ/N_d?"""
    model = Model("m", 1_000_000, 1)
    assert total_bytes(lesson_terms(stage), model, n) == pytest.approx(STAGES[stage].total_bytes_per_param(n) * 1e6)


def test_saved_estimates_are_explained_term_by_term() -> None:
    """Is every number saved from DeepSpeed its terms' sum (up to its int()), so no difference is unexplained?"""
    rows = comparisons(load_estimates(ESTIMATES), load_result(LAB_RESULT))
    assert len(rows) == 2 * (3 + 2)
    assert [abs(row.unexplained) < 1 for row in rows] == [True] * len(rows)


def test_saved_estimates_cover_the_lessons_and_the_labs_cases() -> None:
    """Are the 7B at N_d = 1, 8, 64 and the lab's model at the lab's N (with its Ψ) all in the saved estimates?"""
    lab = load_result(LAB_RESULT)
    cases = {(e["model"], e["params"], e["world_size"]) for e in load_estimates(ESTIMATES)["estimates"]}
    lab_model = f"{lab['config']['layers']}×Linear({lab['config']['hidden']})"
    assert cases == {("7B", 7_000_000_000, n) for n in (1, 8, 64)} | {
        (lab_model, lab["config"]["params"], run["world_size"]) for run in lab["runs"]}


def test_lab_rows_carry_the_measurement() -> None:
    """Does each lab row show the lab's held and peak bytes, and the 7B rows none?"""
    rows = comparisons(load_estimates(ESTIMATES), load_result(LAB_RESULT))
    assert [row.measured is not None for row in rows] == [row.model.params == 2_101_248 for row in rows]
    zero3 = next(row for row in rows if row.measured and row.stage == "zero3" and row.world_size == 2)
    assert zero3.measured.measured_total == pytest.approx(8, abs=0.01)


def test_comparison_table_matches_golden() -> None:
    """Do the saved estimates render to exactly the expected three-way and term tables?"""
    estimates, lab = load_estimates(ESTIMATES), load_result(LAB_RESULT)
    assert comparison_markdown(estimates, lab) == (GOLDEN / "deepspeed_table.md").read_text(encoding="utf-8")
    assert terms_markdown(lab) == (GOLDEN / "deepspeed_terms.md").read_text(encoding="utf-8")


def test_differences_name_their_terms() -> None:
    """Is ZeRO-2's difference DeepSpeed's fp32 gradients, and ZeRO-3's the largest layer, fp32 minus 16-bit grads?"""
    rows = {(row.stage, row.world_size): row for row in comparisons(load_estimates(ESTIMATES), load_result(LAB_RESULT))
            if row.model.name == "7B"}
    assert [(t.key, d) for t, d in rows["zero2", 8].extra] == [("grad32", 4)]
    assert [(t.key, t.per, d) for t, d in rows["zero3", 64].extra] == [
        ("layer16", "largest_layer", 4), ("grad32", "shard", 4), ("grad16", "shard", -2)]


@pytest.mark.parametrize(("n", "layout"), [(1, (1, 1)), (4, (4, 1)), (8, (8, 1)), (64, (8, 8)), (12, (12, 1))])
def test_node_layout(n: int, layout: tuple[int, int]) -> None:
    """Are GPUs put 8 to a node where they divide, as the lesson's 64 = 8 × 8?"""
    assert node_layout(n) == layout


def test_pinned_release_is_the_one_the_lines_are_read_from() -> None:
    """Does pyproject.toml's [deepspeed] extra pin the release memory_terms.yaml cites lines of?"""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert extras["deepspeed"] == [f"deepspeed=={memory_terms()['deepspeed']['version']}"]
    assert not any(dep.startswith("deepspeed") for dep in extras["test"] + extras["lab"])


def test_deepspeed_command_without_deepspeed_says_how_to_install(tmp_path: Path) -> None:
    """Without deepspeed, does `python -m zerolab deepspeed` say in one line how to install it?"""
    code = "import sys; sys.modules['deepspeed'] = None; from zerolab.cli import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run([sys.executable, "-c", code, "deepspeed", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"python -m zerolab deepspeed: error: {NOT_INSTALLED}\n"


# With DeepSpeed installed (`make deepspeed`): the numbers and the lines come from the package itself.

def all_source_lines() -> list[SourceLine]:
    """Every line of DeepSpeed that memory_terms.yaml cites."""
    lines = [deepspeed_sum(stage) for stage in COMPARED_STAGES] + [line for line, _ in not_counted()]
    for stage in COMPARED_STAGES:
        lines += [line for term in deepspeed_terms(stage) for line in (term.counted, term.kept) if line]
    return lines


def test_cited_lines_hold_what_they_are_cited_for() -> None:
    """Does each cited file:line of the installed DeepSpeed hold the text memory_terms.yaml quotes from it?"""
    deepspeed = deepspeed_or_skip()
    assert deepspeed.__version__ == memory_terms()["deepspeed"]["version"]
    package = Path(deepspeed.__file__).parent
    wrong = [f"{line.at}: {line.text!r}" for line in all_source_lines()
             if line.text not in (package / line.path).read_text(encoding="utf-8").splitlines()[line.line - 1]]
    assert wrong == []


def test_deepspeed_gives_the_saved_estimates(tmp_path: Path) -> None:
    """Does `python -m zerolab deepspeed` get the saved numbers from DeepSpeed itself, and print every term's line?"""
    deepspeed_or_skip()
    done = subprocess.run([sys.executable, "-m", "zerolab", "deepspeed", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    fresh, saved = (json.loads(p.read_text(encoding="utf-8")) for p in (tmp_path / ESTIMATES.name, ESTIMATES))
    assert fresh["estimates"] == saved["estimates"]
    assert "not in zerolab/memory_terms.yaml" not in done.stdout
    for cited in ("stage_1_and_2.py:4030", "stage3.py:4027", "stage3.py:4046", "stage3.py:791"):
        assert cited in done.stdout
