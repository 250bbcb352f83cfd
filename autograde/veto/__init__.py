"""Veto checks: misconceptions that fail a student whatever the points."""
from autograde.veto.finding import VETO_IDS, Veto

__all__ = ["VETO_IDS", "Veto"]
