"""Ask the installed DeepSpeed for its ZeRO-2 and ZeRO-3 memory estimates (no offload) of each compared case."""
from __future__ import annotations

import importlib
import inspect
import os
import platform
from types import ModuleType
from typing import Any

from zerolab.accounting import COMPARED_STAGES, Model, memory_terms
from zerolab.config import SCHEMA_VERSION
from zerolab.errors import LabError

NOT_INSTALLED = ("deepspeed is not installed; run: make deepspeed (or, after pip install -e '.[lab]': "
                 "DS_BUILD_OPS=0 pip install --no-build-isolation -e '.[deepspeed]')")
GPUS_PER_NODE = 8
"""Nodes are filled 8 GPUs at a time, as the lesson's 64 = 8 nodes × 8 (only the CPU estimate depends on it)."""


def import_deepspeed() -> ModuleType:
    """The deepspeed package, or a LabError that says how to install it."""
    os.environ.setdefault("DS_ACCELERATOR", "cpu")  # the estimators need no accelerator: skip probing for one
    try:
        return importlib.import_module("deepspeed")
    except ImportError:
        raise LabError(NOT_INSTALLED) from None


def node_layout(world_size: int) -> tuple[int, int]:
    """(GPUs per node, nodes) for `world_size` GPUs."""
    per_node = GPUS_PER_NODE if world_size % GPUS_PER_NODE == 0 else world_size
    return per_node, world_size // per_node


def gpu_bytes(stage: str, model: Model, world_size: int) -> int:
    """DeepSpeed's per-GPU estimate for `model` on `world_size` GPUs, called as memory_terms.yaml says."""
    spec = memory_terms()["deepspeed"]["stages"][stage]
    module, name = spec["estimator"].rsplit(".", 1)
    estimator = getattr(importlib.import_module(module), name)
    per_node, nodes = node_layout(world_size)
    kwargs: dict[str, Any] = {"total_params": model.params, "num_gpus_per_node": per_node, "num_nodes": nodes}
    if "largest_layer_params" in inspect.signature(estimator).parameters:
        kwargs["largest_layer_params"] = model.largest_layer
    return int(estimator(**kwargs, **spec["options"])[1])  # (CPU bytes, GPU bytes[, largest layer bytes])


def lab_model(layers: int, hidden: int) -> Model:
    """The lab's model, sized by DeepSpeed's own model_to_params (total and largest-module parameters)."""
    import_deepspeed()
    import torch

    from zerolab.parallelize import build_model

    stage3 = importlib.import_module("deepspeed.runtime.zero.stage3")
    params, largest = stage3.model_to_params(build_model(layers, hidden, torch.device("cpu")))
    return Model(f"{layers}×Linear({hidden})", params, largest)


def compared_models(lab_result: dict[str, Any]) -> list[tuple[Model, list[int]]]:
    """The cases of memory_terms.yaml, each with its world sizes; the lab's model at the N the lab measured."""
    models = []
    for case in memory_terms()["cases"]:
        if case["model"] == "lab":
            config = lab_result["config"]
            models.append((lab_model(config["layers"], config["hidden"]),
                           [run["world_size"] for run in lab_result["runs"]]))
        else:
            models.append((Model(case["model"], case["params"], case["largest_layer"]), case["world_sizes"]))
    return models


def estimate(models: list[tuple[Model, list[int]]]) -> dict[str, Any]:
    """Each model at each world size: DeepSpeed's per-GPU bytes per stage, as the JSON the lesson reads."""
    deepspeed = import_deepspeed()
    import torch

    return {
        "schema": SCHEMA_VERSION,
        "created_with": {"deepspeed": deepspeed.__version__, "torch": torch.__version__,
                         "python": platform.python_version()},
        "estimates": [
            {"model": model.name, "params": model.params, "largest_layer": model.largest_layer,
             "world_size": n, "gpu_bytes": {stage: gpu_bytes(stage, model, n) for stage in COMPARED_STAGES}}
            for model, world_sizes in models for n in world_sizes
        ],
    }
