"""Grading: the execution engine, its sandbox, and the nbgrader preprocessors that run under `nbgrader autograde`."""
