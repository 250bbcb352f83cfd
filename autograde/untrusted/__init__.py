"""Student content as data: how trusted places (pages, logs, CSV, the grading processes) take it in safely."""
