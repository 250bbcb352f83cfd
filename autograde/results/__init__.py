"""Results: gradebook scores, vetoes and overrides combined into each student's final grade and report."""
