"""Building: the lesson .qmd → the nbgrader source notebook (and mock submissions for examples and tests)."""
