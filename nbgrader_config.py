load_subconfig("grader_config.py")  # noqa: F821  (the nbgrader configuration lives in grader_config.py)
