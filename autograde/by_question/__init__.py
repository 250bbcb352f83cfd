"""Grading one question across all students: its answers and veto candidates, groups, the page and its API, the writes."""
