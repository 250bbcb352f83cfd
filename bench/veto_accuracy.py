"""Precision and recall of the text veto checker per veto id on each labelled set, plus throughput.

Run: python bench/veto_accuracy.py [--failures]

dev (the lead's examples), train, holdout (written before any tuning), blind, blind2, blind3, blind4 and blind5 (each written
by someone who never saw the checker) are the sets the patterns are tuned on; holdout2 is a sanity check read only as totals, so
--failures lists only the tuning sets' misses.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autograde.veto.scoring import LABELLED_DIR, Score, load_labelled, score  # noqa: E402
from autograde.veto.text import find_vetoes  # noqa: E402

SETS = ("dev", "train", "holdout", "holdout2", "blind", "blind2", "blind3", "blind4", "blind5", "blind6")
TUNING_SETS = ("dev", "train", "holdout", "blind", "blind2", "blind3", "blind4", "blind5")


def report(name: str, result: Score) -> str:
    """The table for one set."""
    lines = [
        f"{name} ({result.rows} answers, {result.rows / result.seconds:,.0f} answers/s)",
        f"  {'veto id':<22} {'prec':>6} {'recall':>6} {'tp':>4} {'fp':>4} {'fn':>4}",
    ]
    for veto_id, t in [*result.tallies.items(), ("overall", result.overall)]:
        lines.append(f"  {veto_id:<22} {t.precision:>6.3f} {t.recall:>6.3f} {t.tp:>4} {t.fp:>4} {t.fn:>4}")
    return "\n".join(lines)


def main() -> int:
    """Print one table per labelled set (and with --failures the tuning sets' wrong rows)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--failures", action="store_true", help="list the tuning-set answers the checker got wrong")
    args = parser.parse_args()
    find_vetoes("", "q1")  # load the pattern book outside the timing
    for name in SETS:
        result = score(load_labelled(LABELLED_DIR / f"{name}.jsonl"))
        print(report(name, result))
        if args.failures and name in TUNING_SETS:
            print("\n".join(f"  {line}" for line in result.failures) or "  (no failures)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
