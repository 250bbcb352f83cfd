"""nbgrader preprocessors for this course, one per file, configured in grader_config.py."""
