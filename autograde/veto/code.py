"""Code vetoes: a stage whose sharded terms or communication volume differ from the lesson's, whatever the mistake."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from autograde.grading.calls import Call
from autograde.veto.code_behaviour import (
    COMM_FUNCTION,
    COMM_PROBES,
    MEMORY_FUNCTION,
    MEMORY_PROBES,
    PROBE_CALLS,
    StageBehaviour,
    memory_bytes,
    observe,
)
from autograde.veto.code_rules import RULES, Kind, Value, show_number
from autograde.veto.finding import Veto

__all__ = ["PROBE_CALLS", "find_code_vetoes"]


def find_code_vetoes(source: str, answers: Mapping[Call, float | None]) -> list[Veto]:
    """The vetoes a submitted cell earns: each stage whose sharded terms, then each whose communication, differ from the lesson's.

    `answers` holds what the submission's functions returned for PROBE_CALLS (run in the sandbox, not here).
    """
    behaviours = observe(source, answers)
    found = [_shard_veto(stage, behaviours[stage]) for stage in behaviours]
    found += [_comm_veto(stage, behaviours[stage]) for stage in behaviours]
    return [veto for veto in found if veto is not None]


def _shard_veto(stage: int, behaviour: StageBehaviour) -> Veto | None:
    """wrong-shard-target when no set of terms the stage may divide by dp is the lesson's."""
    right = RULES.expected["sharded"][stage]
    if not behaviour.sharded or right in behaviour.sharded or behaviour.memory is None:
        return None
    sharded = behaviour.sharded[0]
    num_params, dp, k = MEMORY_PROBES[0]
    expected, got = memory_bytes(right, num_params, dp, k), behaviour.memory[0]
    if behaviour.decided_by == "source" and behaviour.formula is not None:
        evidence = f"stage {stage}: `{behaviour.formula.text}` divides {', '.join(RULES.ordered(sharded)) or 'nothing'} by dp"
    else:
        call = f"{MEMORY_FUNCTION}(num_params={num_params}, dp={dp}, stage={stage}, k={k})"
        evidence = f"{call} returned {show_number(got)}, expected {show_number(expected)}"
    return _veto(
        "sharded",
        stage,
        sharded,
        evidence,
        inputs={"function": MEMORY_FUNCTION, "num_params": num_params, "dp": dp, "stage": stage, "k": k},
        expected=expected,
        got=got,
        lesson={"sharded": RULES.ordered(right)},
        behaviour={
            "sharded": [RULES.ordered(terms) for terms in behaviour.sharded],
            "decided_by": behaviour.decided_by,
            "source": behaviour.formula.text if behaviour.formula else None,
            "fp32_extra": behaviour.fp32_extra,
        },
    )


def _comm_veto(stage: int, behaviour: StageBehaviour) -> Veto | None:
    """wrong-comm-volume when the stage communicates a multiple of Ψ other than the lesson's."""
    psi, right = behaviour.comm_psi, float(RULES.expected["comm_psi"][stage])
    if psi is None or abs(psi - right) <= 1e-9 * max(1.0, abs(right)):
        return None
    num_params = COMM_PROBES[0]
    evidence = (
        f"{COMM_FUNCTION}(num_params={num_params}, stage={stage}) returned {show_number(psi * num_params)} "
        f"({show_number(psi)}Ψ), expected {show_number(right * num_params)} ({show_number(right)}Ψ)"
    )
    return _veto(
        "comm_psi",
        stage,
        psi,
        evidence,
        inputs={"function": COMM_FUNCTION, "num_params": num_params, "stage": stage},
        expected=right * num_params,
        got=psi * num_params,
        lesson={"comm": f"{show_number(right)}Ψ"},
        behaviour={"comm": f"{show_number(psi)}Ψ"},
    )


def _veto(kind: Kind, stage: int, behaved: Value, evidence: str, **detail: Any) -> Veto:
    """The Veto record: evidence ends with the explanation, detail names it in both languages."""
    explanation = RULES.explain(kind, stage, behaved)
    return Veto(
        id=RULES.vetoes[kind],
        evidence=f"{evidence} — {explanation.zh}",
        origin="code",
        detail={"stage": stage, **detail, "misconception": {"name": explanation.name, "zh": explanation.zh, "en": explanation.en}},
    )

