"""Bad input to `python -m zerolab`: one line on stderr, exit status 2, no traceback."""
from __future__ import annotations

import subprocess
import sys

import pytest


def _zerolab(*args: str, without_torch: bool = False) -> subprocess.CompletedProcess[str]:
    """Run `python -m zerolab ARGS` (optionally as if torch were not installed) and capture its output."""
    block = "sys.modules['torch'] = None; " if without_torch else ""
    code = f"import sys; {block}from zerolab.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=60)


def _assert_one_line_error(done: subprocess.CompletedProcess[str], fragment: str) -> None:
    """Exit 2, nothing on stdout, exactly one stderr line containing `fragment`, no traceback."""
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert fragment in done.stderr


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--world-size", "0"], "--world-size must be at least 1 (got 0)"),
        (["--world-size", "2,-1"], "--world-size must be at least 1 (got -1)"),
        (["--world-size", "two"], "--world-size takes whole numbers"),
        (["--backend", "mpi"], "unknown backend 'mpi'; use --backend gloo or --backend nccl"),
        (["--device", "tpu"], "unknown device 'tpu'"),
        (["--backend", "nccl"], "--backend nccl runs on GPUs; add --device cuda"),
        (["--layers", "0"], "--layers and --hidden must be at least 1"),
        (["--hidden", "wide"], "argument --hidden: invalid int value"),
    ],
)
def test_bad_run_options_fail_in_one_line(args: list[str], fragment: str) -> None:
    """Is each unusable option refused with one line naming the fix?"""
    _assert_one_line_error(_zerolab("run", *args), fragment)


def test_cuda_without_gpu_fails_in_one_line() -> None:
    """Is --device cuda on a machine without a GPU refused in one line?"""
    torch = pytest.importorskip("torch", reason="the GPU check needs torch; pip install -e '.[lab]'")
    if torch.cuda.is_available():
        pytest.skip("a CUDA GPU is visible here")
    _assert_one_line_error(_zerolab("run", "--device", "cuda"), "--device cuda but no CUDA GPU is visible")


def test_missing_result_fails_in_one_line(tmp_path: object) -> None:
    """Is a report on a result that does not exist refused in one line that says how to make it?"""
    _assert_one_line_error(_zerolab("report", f"{tmp_path}/none.json"), "no such result; run: python -m zerolab run")


def test_run_without_torch_says_how_to_install() -> None:
    """Without torch, does `run` say how to install it instead of failing on an import?"""
    _assert_one_line_error(_zerolab("run", without_torch=True), "torch is not installed; run: pip install -e '.[lab]'")
