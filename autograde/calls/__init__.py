"""Calls the trusted grader asks a submission's code to make, and their plain answers: values shared by the grading
engine (which has the sandbox answer them) and the veto checks (which only read the answers)."""
from autograde.calls.answer import Answer
from autograde.calls.call import Call

__all__ = ["Answer", "Call"]
