"""Which memory terms a stage divides when it divides them by something other than dp (dp - 1, a helper variable):
the right terms sharded by a wrong amount are no wrong shard target."""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from itertools import combinations

Probe = tuple[int, int, int]
"""(num_params, dp, k) of one call."""


def sets_divided_otherwise(
    memory: Sequence[float], probes: Sequence[Probe], term_bytes: Mapping[str, int | str]
) -> tuple[frozenset[str], ...]:
    """The sets of terms that reproduce `memory` when divided by one amount per dp, not dp itself.

    For a set, each probe's number leaves one divisor (the set's bytes over what is left once the other terms are
    kept whole); the set fits when that divisor depends on dp alone (probes with equal dp and different k agree),
    grows with dp and stays within a factor of two of it, give or take one: a divisor of dp·10⁹ is a change of unit,
    which scales the whole terms too. Probes that differ only in k tell the 2-byte terms from the k term, as for dp.
    """
    found = []
    for size in range(1, len(term_bytes) + 1):
        for terms in combinations(term_bytes, size):
            divisors = _divisors(memory, probes, term_bytes, frozenset(terms))
            if divisors is not None and any(not _close(d, dp) for dp, d in divisors.items()):
                found.append(frozenset(terms))
    return tuple(found)


def _divisors(
    memory: Sequence[float], probes: Sequence[Probe], term_bytes: Mapping[str, int | str], sharded: frozenset[str]
) -> dict[int, float] | None:
    """dp → the amount `sharded` is divided by at every probe, or None when no such function of dp fits."""
    divisors: dict[int, float] = {}
    for value, (num_params, dp, k) in zip(memory, probes):
        sliced = sum(_bytes(term_bytes[t], k) for t in sharded) * num_params
        left = value - sum(_bytes(b, k) for t, b in term_bytes.items() if t not in sharded) * num_params
        divisor = sliced / left if left > 0 else math.inf
        if not dp / 2 - 1 <= divisor <= 2 * dp + 1:
            return None
        if dp in divisors and not _close(divisors[dp], divisor):
            return None
        divisors[dp] = divisor
    ordered = [divisors[dp] for dp in sorted(divisors)]
    if len(set(p[1] for p in probes)) == len(probes) or any(b < a - 1e-9 for a, b in zip(ordered, ordered[1:])):
        return None  # no two probes share a dp (nothing ties the divisor to dp), or it shrinks as dp grows
    return divisors


def _bytes(per_parameter: int | str, k: int) -> float:
    """Bytes per parameter of one term ("k" is the optimizer multiplier)."""
    return float(k if per_parameter == "k" else per_parameter)


def _close(a: float, b: float) -> bool:
    """Equal up to float rounding."""
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
