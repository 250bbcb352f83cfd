"""Code vetoes: a stage whose sharded terms or communication volume differ from the lesson's, whatever the mistake."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from autograde.calls import Call
from autograde.veto.code_behaviour import (
    COMM_FUNCTION,
    COMM_PROBES,
    MEMORY_FUNCTION,
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

    `answers` holds what the submission's functions returned in the sandbox, never here: PROBE_CALLS, and every other
    call the hidden tests made (those decide when the probes' numbers are missing or disagree with them). The source
    is parsed here: call this under autograde.untrusted.bounded_call.
    """
    behaviours = observe(source, answers)
    found = [_shard_veto(stage, behaviours[stage]) for stage in behaviours]
    found += [_comm_veto(stage, behaviours[stage]) for stage in behaviours]
    return [veto for veto in found if veto is not None]


EVADED_NOTE = ("the probe cases gave other numbers than the rest of the hidden tests' calls (probe evaded): "
               "judged on the rest")


def _shard_veto(stage: int, behaviour: StageBehaviour) -> Veto | None:
    """wrong-shard-target when no set of terms the stage may divide by dp is the lesson's."""
    right = RULES.expected["sharded"][stage]
    if not behaviour.sharded or right in behaviour.sharded:
        return None
    sharded = behaviour.sharded[0]
    shown = next(((case, got) for case, got in behaviour.examples if memory_bytes(right, *case) != got), None)
    if behaviour.decided_by == "source" and behaviour.formula is not None or shown is None:
        written = behaviour.formula.text if behaviour.formula else "?"
        evidence = f"stage {stage}: `{written}` divides {', '.join(RULES.ordered(sharded)) or 'nothing'} by dp"
        inputs, expected, got = {"function": MEMORY_FUNCTION, "stage": stage}, None, None
    else:
        (num_params, dp, k), got = shown
        expected = memory_bytes(right, num_params, dp, k)
        call = f"{MEMORY_FUNCTION}(num_params={num_params}, dp={dp}, stage={stage}, k={k})"
        evidence = f"{call} returned {show_number(got)}, expected {show_number(expected)}"
        inputs = {"function": MEMORY_FUNCTION, "num_params": num_params, "dp": dp, "stage": stage, "k": k}
    if behaviour.probe_evaded:
        evidence = f"{evidence}; {EVADED_NOTE}"
    return _veto(
        "sharded",
        stage,
        sharded,
        evidence,
        inputs=inputs,
        expected=expected,
        got=got,
        lesson={"sharded": RULES.ordered(right)},
        behaviour={
            "sharded": [RULES.ordered(terms) for terms in behaviour.sharded],
            "decided_by": behaviour.decided_by,
            "source": behaviour.formula.text if behaviour.formula else None,
            "fp32_extra": behaviour.fp32_extra,
            "probe_evaded": behaviour.probe_evaded,
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

