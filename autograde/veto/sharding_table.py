"""Turn the lesson's table of what each stage shards into claim frames: one rule judges every phrasing of every pair."""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any


class TableError(ValueError):
    """The `sharding` table of patterns.yaml is malformed; the message names the entry."""


def sharding_frame_specs(table: Mapping[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(veto id, frame spec) for every relation and state: the stages where asserting the relation is wrong, and those
    where denying it is wrong, each group with the exemptions its stages share."""
    states, relations, exemptions = table["states"], table["relations"], table.get("unless", {})
    for stage, row in table["stages"].items():
        unknown = set(row) - set(states) | set(exemptions.get(stage, {})) - set(row)
        if unknown:
            raise TableError(f"patterns.yaml: sharding.stages.{stage} or sharding.unless.{stage} names unknown states {sorted(unknown)}")
    for relation_name, relation in relations.items():
        for state_name, state in states.items():
            if relation_name not in state.get("relations", relations):
                continue
            groups: dict[tuple[str, str | None], list[str]] = {}
            for stage, row in table["stages"].items():
                if state_name not in row:
                    continue
                polarity = "asserted" if row[state_name] != relation["sharded"] else "denied"
                groups.setdefault((polarity, exemptions.get(stage, {}).get(state_name)), []).append(stage)
            for (polarity, exemption), stages in groups.items():
                unless = "|".join(part for part in (relation.get("unless"), relation.get(f"unless_{polarity}"), exemption) if part)
                spec = {
                    "name": f"table-{'-'.join(stages)}-{'not-' if polarity == 'denied' else ''}{relation_name}-{state_name}",
                    "subject": stages,
                    "predicate": relation["predicate"],
                    "object": state["object"],
                    "polarity": polarity,
                    **({"unless": unless} if unless else {}),
                    **({"unless_sentence": state["unless_sentence"]} if "unless_sentence" in state else {}),
                }
                yield state["veto"], spec
